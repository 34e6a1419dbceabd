package nodefs_test

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// A FileHandle's zero-length and empty-buffer reads and writes (resolved with 0, no
// error), its offset and length checks, a negative truncate; empty writeFile and
// appendFile (the file is made); and the promise API's path calls that resolve to values:
// mkdir recursive's first directory, mkdtemp, readdir with file types, rm recursive,
// symlink, readlink, lstat, realpath, link and unlink (nlink), access, copyFile, chmod.
func TestRev11fPromisesEdgesAndValues(t *testing.T) {
	const js = `
const fsp = fs.promises;
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ') : 'null'; }
(async () => {
  const r = async (n, f) => { try { const v = await f(); console.log(n, 'ok', v === undefined ? 'undefined' : Array.isArray(v) ? JSON.stringify(v) : typeof v === 'object' ? JSON.stringify({ n: v.bytesRead ?? v.bytesWritten, l: v.buffer?.length }) : JSON.stringify(v)); } catch (e) { console.log(n, showE(e)); } };
  fs.writeFileSync('f', 'abc');
  const h = await fsp.open('f', 'r+');
  await r('h wf empty', () => h.writeFile(Buffer.alloc(0)));
  await r('h write empty', () => h.write(Buffer.alloc(0), 0, 0, 0));
  await r('h read empty', () => h.read(Buffer.alloc(0), 0, 0, 0));
  await r('h read len0', () => h.read(Buffer.alloc(4), 0, 0, 0));
  await r('h write len0', () => h.write(Buffer.alloc(4), 0, 0, 0));
  await r('h read off', () => h.read(Buffer.alloc(4), 5, 1, 0));
  await r('h write off', () => h.write(Buffer.alloc(4), 5, 1, 0));
  await r('h read len', () => h.read(Buffer.alloc(4), 1, 4, 0));
  await r('h write len', () => h.write(Buffer.alloc(4), 1, 4, 0));
  await r('h truncate neg', () => h.truncate(-1));
  console.log('size', fs.statSync('f').size);
  await h.close();
  await r('wf empty', () => fsp.writeFile('g', Buffer.alloc(0)));
  await r('wf empty str', () => fsp.writeFile('g2', ''));
  await r('af empty', () => fsp.appendFile('g3', ''));
  console.log('exist', fs.existsSync('g'), fs.existsSync('g2'), fs.existsSync('g3'));
  await r('rf empty', () => fsp.readFile('g', 'utf8'));
  await r('trunc neg', () => fsp.truncate('f', -3));
  await r('mkdir rec', () => fsp.mkdir('a/b/c', { recursive: true }).then((p) => p.replaceAll(process.cwd(), '<cwd>')));
  await r('mkdtemp', () => fsp.mkdtemp('a/p-').then((p) => p.length));
  await r('readdir types', () => fsp.readdir('a', { withFileTypes: true }).then((d) => d.map((x) => x.name.replace(/p-.*/, 'p-X') + ':' + x.isDirectory() + ':' + x.parentPath).sort()));
  await r('rm rec', () => fsp.rm('a', { recursive: true }));
  await r('rmdir', () => fsp.rmdir('a'));
  await r('symlink', () => fsp.symlink('f', 'l'));
  await r('readlink', () => fsp.readlink('l'));
  await r('lstat', () => fsp.lstat('l').then((s) => s.isSymbolicLink()));
  await r('realpath', () => fsp.realpath('l').then((p) => p.replaceAll(process.cwd(), '<cwd>')));
  await r('link', () => fsp.link('f', 'hl').then(() => fs.statSync('f').nlink));
  await r('rename', () => fsp.rename('hl', 'hl2'));
  await r('unlink', () => fsp.unlink('hl2').then(() => fs.statSync('f').nlink));
  await r('access W', () => fsp.access('f', fs.constants.W_OK));
  await r('access X', () => fsp.access('f', fs.constants.X_OK));
  await r('copy', () => fsp.copyFile('f', 'c'));
  await r('chmod', () => fsp.chmod('c', 0o400).then(() => (fs.statSync('c').mode & 0o777).toString(8)));
})();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		fsp := fs.Promises()
		show := rev10sErrFields
		wd, _ := os.Getwd()
		r := func(n string, v any, err error) {
			if err != nil {
				log("%s %s", n, show(err))
				return
			}
			switch v := v.(type) {
			case nodefs.Void:
				log("%s ok undefined", n)
			case nodefs.ReadResult:
				log(`%s ok {"n":%d,"l":%d}`, n, v.BytesRead, len(v.Buffer))
			case nodefs.WriteResult:
				log(`%s ok {"n":%d,"l":%d}`, n, v.BytesWritten, len(v.Buffer))
			case string:
				log("%s ok %s", n, rev10sJSON(strings.ReplaceAll(v, wd, "<cwd>")))
			case []string:
				b, _ := json.Marshal(v)
				log("%s ok %s", n, b)
			default:
				log("%s ok %v", n, v)
			}
		}
		promise.Async(l, func() (int, error) {
			rev10sMust(t, fs.WriteFileSync("f", []byte("abc"), nil))
			h, err := promise.Await(fsp.Open("f", "r+", 0o666))
			rev10sMust(t, err)
			v, err := promise.Await(h.WriteFile([]byte{}))
			r("h wf empty", v, err)
			w, err := promise.Await(h.Write([]byte{}, 0, 0, 0))
			r("h write empty", w, err)
			rd, err := promise.Await(h.Read([]byte{}, 0, 0, 0))
			r("h read empty", rd, err)
			rd, err = promise.Await(h.Read(make([]byte, 4), 0, 0, 0))
			r("h read len0", rd, err)
			w, err = promise.Await(h.Write(make([]byte, 4), 0, 0, 0))
			r("h write len0", w, err)
			rd, err = promise.Await(h.Read(make([]byte, 4), 5, 1, 0))
			r("h read off", rd, err)
			w, err = promise.Await(h.Write(make([]byte, 4), 5, 1, 0))
			r("h write off", w, err)
			rd, err = promise.Await(h.Read(make([]byte, 4), 1, 4, 0))
			r("h read len", rd, err)
			w, err = promise.Await(h.Write(make([]byte, 4), 1, 4, 0))
			r("h write len", w, err)
			v, err = promise.Await(h.Truncate(-1))
			r("h truncate neg", v, err)
			st, _ := fs.StatSync("f")
			log("size %d", st.Size)
			promise.Await(h.Close())
			v, err = promise.Await(fsp.WriteFile("g", []byte{}, nil))
			r("wf empty", v, err)
			v, err = promise.Await(fsp.WriteFileString("g2", "", "utf8", nil))
			r("wf empty str", v, err)
			v, err = promise.Await(fsp.AppendFileString("g3", "", "utf8", nil))
			r("af empty", v, err)
			log("exist %v %v %v", fs.ExistsSync("g"), fs.ExistsSync("g2"), fs.ExistsSync("g3"))
			s, err := promise.Await(fsp.ReadFileString("g", "utf8"))
			r("rf empty", s, err)
			v, err = promise.Await(fsp.Truncate("f", -3))
			r("trunc neg", v, err)
			s, err = promise.Await(fsp.Mkdir("a/b/c", &nodefs.MkdirOptions{Recursive: true}))
			r("mkdir rec", s, err)
			s, err = promise.Await(fsp.Mkdtemp("a/p-"))
			r("mkdtemp", len(s), err)
			ents, err := promise.Await(fsp.ReaddirWithFileTypes("a"))
			var names []string
			for _, d := range ents {
				n := d.Name
				if strings.HasPrefix(n, "p-") {
					n = "p-X"
				}
				names = append(names, fmt.Sprintf("%s:%v:%s", n, d.IsDirectory(), d.ParentPath))
			}
			sort.Strings(names)
			r("readdir types", names, err)
			v, err = promise.Await(fsp.Rm("a", &nodefs.RmOptions{Recursive: true}))
			r("rm rec", v, err)
			v, err = promise.Await(fsp.Rmdir("a"))
			r("rmdir", v, err)
			v, err = promise.Await(fsp.Symlink("f", "l"))
			r("symlink", v, err)
			s, err = promise.Await(fsp.Readlink("l"))
			r("readlink", s, err)
			st, err = promise.Await(fsp.Lstat("l"))
			r("lstat", err == nil && st.IsSymbolicLink(), err)
			s, err = promise.Await(fsp.Realpath("l"))
			r("realpath", s, err)
			nlink := func() uint64 { st, _ := fs.StatSync("f"); return st.Nlink }
			v, err = promise.Await(fsp.Link("f", "hl"))
			r("link", nlink(), err)
			v, err = promise.Await(fsp.Rename("hl", "hl2"))
			r("rename", v, err)
			v, err = promise.Await(fsp.Unlink("hl2"))
			r("unlink", nlink(), err)
			v, err = promise.Await(fsp.Access("f", nodefs.W_OK))
			r("access W", v, err)
			v, err = promise.Await(fsp.Access("f", nodefs.X_OK))
			r("access X", v, err)
			v, err = promise.Await(fsp.CopyFile("f", "c", 0))
			r("copy", v, err)
			_, err = promise.Await(fsp.Chmod("c", 0o400))
			st, _ = fs.StatSync("c")
			r("chmod", strconv.FormatUint(st.Mode&0o777, 8), err)
			return 0, nil
		}).Catch(func(err error) (int, error) { log("body failed: %v", err); return 0, nil })
	})
}
