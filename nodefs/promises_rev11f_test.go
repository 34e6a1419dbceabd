package nodefs_test

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// rev11fTemp hides mkdtemp's six random characters.
var rev11fTemp = regexp.MustCompile(`p-[A-Za-z0-9]{6}`)

// A FileHandle's read and write with buffer, offset, length and position (a position, the
// file's position, a zero length, past the end), writeFile at the file's position, sync,
// truncate, a second Close while one waits, and every call after close (EBADF "file
// closed" with the call's syscall, close resolving); then the promise API's calls with
// flags and encodings, utimes with a Date-like value, and each call's rejection: code,
// errno, syscall, path, dest and message are node's.
func TestRev11fPromisesFileHandleAndRejections(t *testing.T) {
	const js = `
const fsp = fs.promises;
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ').replaceAll(process.cwd(), '<cwd>').replace(/p-[A-Za-z0-9]{6}/g, 'p-XXXXXX') : 'null'; }
(async () => {
  fs.writeFileSync('f', '0123456789');
  const h = await fsp.open('f', 'r+');
  const b = Buffer.alloc(8, '.');
  let r = await h.read(b, 2, 3, 4); console.log('read pos', r.bytesRead, b.toString('latin1'), r.buffer === b);
  r = await h.read(b, 0, 2, null); console.log('read cur', r.bytesRead, b.toString('latin1'));
  r = await h.read(b, 0, 0, 0); console.log('read zero', r.bytesRead);
  r = await h.read(b, 0, 8, 100); console.log('read eof', r.bytesRead);
  let w = await h.write(Buffer.from('abcdef'), 1, 3, 8); console.log('write pos', w.bytesWritten);
  w = await h.write(Buffer.from('XY'), 0, 2, null); console.log('write cur', w.bytesWritten);
  await h.writeFile(Buffer.from('ZZ'));
  console.log('content', fs.readFileSync('f', 'latin1'));
  await h.sync();
  await h.truncate(4);
  console.log('size', (await h.stat()).size);
  const c1 = h.close(); const c2 = h.close();
  console.log('close', String(await c1), String(await c2), 'fd after', h.fd);
  for (const [n, f] of [['read', () => h.read(b, 0, 1, 0)], ['write', () => h.write(b, 0, 1, 0)], ['readFile', () => h.readFile()], ['writeFile', () => h.writeFile(Buffer.from('x'))], ['sync', () => h.sync()], ['stat', () => h.stat()], ['truncate', () => h.truncate(0)], ['close', () => h.close()]]) {
    try { const v = await f(); console.log(n, 'ok', String(v)); } catch (e) { console.log(n, showE(e)); }
  }
  try { await fsp.writeFile('f', 'q', { flag: 'wx' }); } catch (e) { console.log('wx', showE(e)); }
  await fsp.appendFile('f', 'aGk=', { encoding: 'base64' });
  await fsp.writeFile('g', 'ff00', { encoding: 'hex' });
  await fsp.appendFile('g', 'x', { flag: 'a' });
  console.log('f', fs.readFileSync('f', 'latin1'), 'g', fs.readFileSync('g', 'hex'));
  console.log('rf', await fsp.readFile('g', 'hex'), await fsp.readFile('g', 'base64'));
  try { await fsp.readFile('nope', 'utf8'); } catch (e) { console.log('rf missing', showE(e)); }
  try { await fsp.truncate('nope', 1); } catch (e) { console.log('trunc missing', showE(e)); }
  await fsp.truncate('g', 1); console.log('g size', fs.statSync('g').size);
  await fsp.truncate('g', 0); console.log('g size', fs.statSync('g').size);
  await fsp.chmod('g', 0o640); console.log('mode', (fs.statSync('g').mode & 0o777).toString(8));
  await fsp.utimes('g', new Date(1500000000123), 1600000000.5);
  const st = await fsp.stat('g'); console.log('times', st.mtimeMs, st.atime.getTime(), st.mtime.getTime());
  try { await fsp.utimes('nope', 1, 1); } catch (e) { console.log('utimes missing', showE(e)); }
  try { await fsp.chmod('nope', 1); } catch (e) { console.log('chmod missing', showE(e)); }
  try { await fsp.readlink('g'); } catch (e) { console.log('readlink file', showE(e)); }
  try { await fsp.link('g', 'g'); } catch (e) { console.log('link exists', showE(e)); }
  try { await fsp.symlink('g', 'g'); } catch (e) { console.log('symlink exists', showE(e)); }
  try { await fsp.mkdtemp('nodir/p-'); } catch (e) { console.log('mkdtemp', showE(e)); }
  try { await fsp.access('nope', fs.constants.F_OK); } catch (e) { console.log('access', showE(e)); }
  try { await fsp.rename('nope', 'x'); } catch (e) { console.log('rename', showE(e)); }
  try { await fsp.copyFile('g', 'f', fs.constants.COPYFILE_EXCL); } catch (e) { console.log('copy excl', showE(e)); }
  try { await fsp.realpath('nope/x'); } catch (e) { console.log('realpath', showE(e)); }
  try { await fsp.lstat('nope'); } catch (e) { console.log('lstat', showE(e)); }
  try { await fsp.open('nope', 'r'); } catch (e) { console.log('open', showE(e)); }
  try { await fsp.readdir('g'); } catch (e) { console.log('readdir', showE(e)); }
  try { await fsp.rmdir('g'); } catch (e) { console.log('rmdir', showE(e)); }
  try { await fsp.rm('nope'); } catch (e) { console.log('rm', showE(e)); }
  console.log('rm force', String(await fsp.rm('nope', { force: true })));
  try { await fsp.unlink('nope'); } catch (e) { console.log('unlink', showE(e)); }
  try { await fsp.mkdir('g'); } catch (e) { console.log('mkdir', showE(e)); }
  try { await fsp.mkdir('g/x', { recursive: true }); } catch (e) { console.log('mkdir rec', showE(e)); }
})();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		fsp := fs.Promises()
		show := func(err error) string { return rev11fTemp.ReplaceAllString(rev10sErrFields(err), "p-XXXXXX") }
		void := func(n string, _ nodefs.Void, err error) {
			if err != nil {
				log("%s %s", n, show(err))
				return
			}
			log("%s ok undefined", n)
		}
		promise.Async(l, func() (int, error) {
			rev10sMust(t, fs.WriteFileSync("f", []byte("0123456789"), nil))
			h, err := promise.Await(fsp.Open("f", "r+", 0o666))
			if err != nil {
				return 0, err
			}
			b := []byte("........")
			r, err := promise.Await(h.Read(b, 2, 3, 4))
			log("read pos %d %s %v", r.BytesRead, b, err == nil && &r.Buffer[0] == &b[0])
			r, _ = promise.Await(h.Read(b, 0, 2, -1))
			log("read cur %d %s", r.BytesRead, b)
			r, _ = promise.Await(h.Read(b, 0, 0, 0))
			log("read zero %d", r.BytesRead)
			r, _ = promise.Await(h.Read(b, 0, 8, 100))
			log("read eof %d", r.BytesRead)
			w, _ := promise.Await(h.Write([]byte("abcdef"), 1, 3, 8))
			log("write pos %d", w.BytesWritten)
			w, _ = promise.Await(h.Write([]byte("XY"), 0, 2, -1))
			log("write cur %d", w.BytesWritten)
			promise.Await(h.WriteFile([]byte("ZZ")))
			c, _ := fs.ReadFileStringSync("f", "latin1")
			log("content %s", c)
			promise.Await(h.Sync())
			promise.Await(h.Truncate(4))
			st, _ := promise.Await(h.Stat())
			log("size %d", st.Size)
			c1, c2 := h.Close(), h.Close()
			_, e1 := promise.Await(c1)
			_, e2 := promise.Await(c2)
			log("close %s %s fd after %d", undefOr(e1), undefOr(e2), h.Fd())
			_, err = promise.Await(h.Read(b, 0, 1, 0))
			log("read %s", show(err))
			_, err = promise.Await(h.Write(b, 0, 1, 0))
			log("write %s", show(err))
			_, err = promise.Await(h.ReadFile())
			log("readFile %s", show(err))
			v, err := promise.Await(h.WriteFile([]byte("x")))
			void("writeFile", v, err)
			v, err = promise.Await(h.Sync())
			void("sync", v, err)
			_, err = promise.Await(h.Stat())
			log("stat %s", show(err))
			v, err = promise.Await(h.Truncate(0))
			void("truncate", v, err)
			v, err = promise.Await(h.Close())
			void("close", v, err)

			v, err = promise.Await(fsp.WriteFileString("f", "q", "utf8", &nodefs.WriteOptions{Flag: "wx"}))
			void("wx", v, err)
			promise.Await(fsp.AppendFileString("f", "aGk=", "base64", nil))
			promise.Await(fsp.WriteFileString("g", "ff00", "hex", nil))
			promise.Await(fsp.AppendFileString("g", "x", "utf8", &nodefs.WriteOptions{Flag: "a"}))
			fc, _ := fs.ReadFileStringSync("f", "latin1")
			gc, _ := fs.ReadFileStringSync("g", "hex")
			log("f %s g %s", fc, gc)
			hx, _ := promise.Await(fsp.ReadFileString("g", "hex"))
			b64, _ := promise.Await(fsp.ReadFileString("g", "base64"))
			log("rf %s %s", hx, b64)
			_, err = promise.Await(fsp.ReadFileString("nope", "utf8"))
			log("rf missing %s", show(err))
			_, err = promise.Await(fsp.Truncate("nope", 1))
			log("trunc missing %s", show(err))
			size := func() int64 { st, _ := fs.StatSync("g"); return st.Size }
			promise.Await(fsp.Truncate("g", 1))
			log("g size %d", size())
			promise.Await(fsp.Truncate("g", 0))
			log("g size %d", size())
			promise.Await(fsp.Chmod("g", 0o640))
			st, _ = fs.StatSync("g")
			log("mode %o", st.Mode&0o777)
			promise.Await(fsp.Utimes("g", time.UnixMilli(1500000000123), time.UnixMilli(1600000000500)))
			st, _ = promise.Await(fsp.Stat("g"))
			log("times %s %d %d", strconv.FormatFloat(st.MtimeMs, 'f', -1, 64), st.Atime.UnixMilli(), st.Mtime.UnixMilli())
			v, err = promise.Await(fsp.Utimes("nope", time.Unix(1, 0), time.Unix(1, 0)))
			void("utimes missing", v, err)
			v, err = promise.Await(fsp.Chmod("nope", 1))
			void("chmod missing", v, err)
			_, err = promise.Await(fsp.Readlink("g"))
			log("readlink file %s", show(err))
			v, err = promise.Await(fsp.Link("g", "g"))
			void("link exists", v, err)
			v, err = promise.Await(fsp.Symlink("g", "g"))
			void("symlink exists", v, err)
			_, err = promise.Await(fsp.Mkdtemp("nodir/p-"))
			log("mkdtemp %s", show(err))
			v, err = promise.Await(fsp.Access("nope", nodefs.F_OK))
			void("access", v, err)
			v, err = promise.Await(fsp.Rename("nope", "x"))
			void("rename", v, err)
			v, err = promise.Await(fsp.CopyFile("g", "f", nodefs.COPYFILE_EXCL))
			void("copy excl", v, err)
			_, err = promise.Await(fsp.Realpath("nope/x"))
			log("realpath %s", show(err))
			_, err = promise.Await(fsp.Lstat("nope"))
			log("lstat %s", show(err))
			_, err = promise.Await(fsp.Open("nope", "r", 0o666))
			log("open %s", show(err))
			_, err = promise.Await(fsp.Readdir("g"))
			log("readdir %s", show(err))
			v, err = promise.Await(fsp.Rmdir("g"))
			void("rmdir", v, err)
			v, err = promise.Await(fsp.Rm("nope", nil))
			void("rm", v, err)
			_, err = promise.Await(fsp.Rm("nope", &nodefs.RmOptions{Force: true}))
			log("rm force %s", undefOr(err))
			v, err = promise.Await(fsp.Unlink("nope"))
			void("unlink", v, err)
			_, err = promise.Await(fsp.Mkdir("g", nil))
			log("mkdir %s", show(err))
			_, err = promise.Await(fsp.Mkdir("g/x", &nodefs.MkdirOptions{Recursive: true}))
			log("mkdir rec %s", show(err))
			return 0, nil
		}).Catch(func(err error) (int, error) { log("body failed: %v", err); return 0, nil })
	})
}

// undefOr is a promise's undefined value, or its error's fields.
func undefOr(err error) string {
	if err != nil {
		return rev10sErrFields(err)
	}
	return "undefined"
}
