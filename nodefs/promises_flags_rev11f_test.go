package nodefs_test

import (
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// The promise API's flags and encodings: readFile with 'a+' (creates), 'wx+', 'w+', 'r+'
// on a missing file; writeFile with 'r+' (overwrites in place) and 'a'; appendFile with
// 'w' (node takes an explicit flag as it is) and 'ax'; utf16le, ucs2 and latin1; an unknown
// encoding; and FileHandles opened 'a+' (a positioned write still appends), 'r' (writes
// fail EBADF, truncate EINVAL), on a directory (EISDIR) and 'w' (reads fail EBADF).
func TestRev11fPromisesFlagsAndEncodings(t *testing.T) {
	const js = `
const fsp = fs.promises;
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ') : 'null'; }
(async () => {
  const r = async (n, f) => { try { const v = await f(); console.log(n, 'ok', v === undefined ? 'undefined' : JSON.stringify(Buffer.isBuffer(v) ? v.toString('latin1') : v)); } catch (e) { console.log(n, showE(e)); } };
  await r('rf a+ missing', () => fsp.readFile('n1', { flag: 'a+' }));
  console.log('n1 exists', fs.existsSync('n1'));
  await r('rf wx+', () => fsp.readFile('n1', { flag: 'wx+' }));
  await r('rf w+', () => { fs.writeFileSync('n2', 'abc'); return fsp.readFile('n2', { flag: 'w+' }); });
  await r('rf r+ missing', () => fsp.readFile('n3', { flag: 'r+' }));
  await r('wf r+ missing', () => fsp.writeFile('n3', 'x', { flag: 'r+' }));
  fs.writeFileSync('n4', 'abcdef');
  await r('wf r+', () => fsp.writeFile('n4', 'XY', { flag: 'r+' }));
  console.log('n4', fs.readFileSync('n4', 'latin1'));
  await r('af w', () => fsp.appendFile('n4', 'Q', { flag: 'w' }));
  console.log('n4', fs.readFileSync('n4', 'latin1'));
  await r('wf a', () => fsp.writeFile('n4', 'Z', { flag: 'a' }));
  console.log('n4', fs.readFileSync('n4', 'latin1'));
  await r('af ax', () => fsp.appendFile('n4', 'Z', { flag: 'ax' }));
  await r('wf utf16le', () => fsp.writeFile('n5', 'hé', { encoding: 'utf16le' }));
  console.log('n5', fs.readFileSync('n5', 'hex'));
  await r('rf ucs2', () => fsp.readFile('n5', 'ucs2'));
  await r('rf latin1', () => fsp.readFile('n5', { encoding: 'latin1' }));
  await r('rf bad enc', () => fsp.readFile('n5', 'nope'));
  await r('wf bad enc', () => fsp.writeFile('n5', 'x', { encoding: 'nope' }));
  const h = await fsp.open('n6', 'a+');
  await r('h wf', () => h.writeFile(Buffer.from('abc')));
  await r('h write pos', () => h.write(Buffer.from('Z'), 0, 1, 0).then((x) => x.bytesWritten));
  await r('h rf', () => h.readFile());
  await r('h read pos', () => h.read(Buffer.alloc(2), 0, 2, 0).then((x) => x.buffer));
  await h.close();
  console.log('n6', fs.readFileSync('n6', 'latin1'));
  const h2 = await fsp.open('n6', 'r');
  await r('h2 write', () => h2.write(Buffer.from('Z'), 0, 1, 0));
  await r('h2 wf', () => h2.writeFile(Buffer.from('Z')));
  await r('h2 truncate', () => h2.truncate(1));
  await h2.close();
  const h3 = await fsp.open('.', 'r');
  await r('h3 rf', () => h3.readFile());
  await r('h3 read', () => h3.read(Buffer.alloc(2), 0, 2, 0));
  await h3.close();
  const h4 = await fsp.open('n7', 'w');
  await r('h4 rf', () => h4.readFile());
  await r('h4 read', () => h4.read(Buffer.alloc(2), 0, 2, null));
  await h4.close();
})();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		fsp := fs.Promises()
		show := rev10sErrFields
		r := func(n string, v any, err error) {
			if err != nil {
				log("%s %s", n, show(err))
				return
			}
			switch v := v.(type) {
			case nodefs.Void:
				log("%s ok undefined", n)
			case []byte:
				s, _ := nodefs.Encode(v, "latin1")
				log("%s ok %s", n, rev10sJSON(s))
			case string:
				log("%s ok %s", n, rev10sJSON(v))
			default:
				log("%s ok %v", n, v)
			}
		}
		content := func(p string) string { s, _ := fs.ReadFileStringSync(p, "latin1"); return s }
		promise.Async(l, func() (int, error) {
			b, err := promise.Await(fsp.ReadFileWith("n1", &nodefs.ReadFileOptions{Flag: "a+"}))
			r("rf a+ missing", b, err)
			log("n1 exists %v", fs.ExistsSync("n1"))
			b, err = promise.Await(fsp.ReadFileWith("n1", &nodefs.ReadFileOptions{Flag: "wx+"}))
			r("rf wx+", b, err)
			rev10sMust(t, fs.WriteFileSync("n2", []byte("abc"), nil))
			b, err = promise.Await(fsp.ReadFileWith("n2", &nodefs.ReadFileOptions{Flag: "w+"}))
			r("rf w+", b, err)
			b, err = promise.Await(fsp.ReadFileWith("n3", &nodefs.ReadFileOptions{Flag: "r+"}))
			r("rf r+ missing", b, err)
			v, err := promise.Await(fsp.WriteFileString("n3", "x", "utf8", &nodefs.WriteOptions{Flag: "r+"}))
			r("wf r+ missing", v, err)
			rev10sMust(t, fs.WriteFileSync("n4", []byte("abcdef"), nil))
			v, err = promise.Await(fsp.WriteFileString("n4", "XY", "utf8", &nodefs.WriteOptions{Flag: "r+"}))
			r("wf r+", v, err)
			log("n4 %s", content("n4"))
			v, err = promise.Await(fsp.AppendFileString("n4", "Q", "utf8", &nodefs.WriteOptions{Flag: "w"}))
			r("af w", v, err)
			log("n4 %s", content("n4"))
			v, err = promise.Await(fsp.WriteFile("n4", []byte("Z"), &nodefs.WriteOptions{Flag: "a"}))
			r("wf a", v, err)
			log("n4 %s", content("n4"))
			v, err = promise.Await(fsp.AppendFile("n4", []byte("Z"), &nodefs.WriteOptions{Flag: "ax"}))
			r("af ax", v, err)
			v, err = promise.Await(fsp.WriteFileString("n5", "hé", "utf16le", nil))
			r("wf utf16le", v, err)
			hx, _ := fs.ReadFileStringSync("n5", "hex")
			log("n5 %s", hx)
			s, err := promise.Await(fsp.ReadFileString("n5", "ucs2"))
			r("rf ucs2", s, err)
			s, err = promise.Await(fsp.ReadFileString("n5", "latin1"))
			r("rf latin1", s, err)
			s, err = promise.Await(fsp.ReadFileString("n5", "nope"))
			r("rf bad enc", s, err)
			v, err = promise.Await(fsp.WriteFileString("n5", "x", "nope", nil))
			r("wf bad enc", v, err)

			h, err := promise.Await(fsp.Open("n6", "a+", 0o666))
			rev10sMust(t, err)
			v, err = promise.Await(h.WriteFile([]byte("abc")))
			r("h wf", v, err)
			w, err := promise.Await(h.Write([]byte("Z"), 0, 1, 0))
			r("h write pos", w.BytesWritten, err)
			b, err = promise.Await(h.ReadFile())
			r("h rf", b, err)
			rd, err := promise.Await(h.Read(make([]byte, 2), 0, 2, 0))
			r("h read pos", rd.Buffer, err)
			promise.Await(h.Close())
			log("n6 %s", content("n6"))

			h2, err := promise.Await(fsp.Open("n6", "r", 0o666))
			rev10sMust(t, err)
			_, err = promise.Await(h2.Write([]byte("Z"), 0, 1, 0))
			r("h2 write", nil, err)
			v, err = promise.Await(h2.WriteFile([]byte("Z")))
			r("h2 wf", v, err)
			v, err = promise.Await(h2.Truncate(1))
			r("h2 truncate", v, err)
			promise.Await(h2.Close())

			h3, err := promise.Await(fsp.Open(".", "r", 0o666))
			rev10sMust(t, err)
			b, err = promise.Await(h3.ReadFile())
			r("h3 rf", b, err)
			_, err = promise.Await(h3.Read(make([]byte, 2), 0, 2, 0))
			r("h3 read", nil, err)
			promise.Await(h3.Close())

			h4, err := promise.Await(fsp.Open("n7", "w", 0o666))
			rev10sMust(t, err)
			b, err = promise.Await(h4.ReadFile())
			r("h4 rf", b, err)
			_, err = promise.Await(h4.Read(make([]byte, 2), 0, 2, -1))
			r("h4 read", nil, err)
			promise.Await(h4.Close())
			return 0, nil
		}).Catch(func(err error) (int, error) { log("body failed: %v", err); return 0, nil })
	})
}
