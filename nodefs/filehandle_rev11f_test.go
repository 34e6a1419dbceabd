package nodefs_test

import (
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// filehandle.readFile(encoding) checks that the handle is open before it checks the
// encoding (node's fsCall runs readFileHandle, which checks it): an unknown encoding on an
// open handle is ERR_INVALID_ARG_VALUE, on a closed one EBADF "file closed".
func TestRev11fFileHandleReadFileClosedBeforeEncoding(t *testing.T) {
	const js = `
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ') : 'null'; }
fs.writeFileSync('f', 'abc');
(async () => {
  const h = await fs.promises.open('f');
  try { await h.readFile('nope'); } catch (e) { console.log('open bad enc', showE(e)); }
  await h.close();
  try { await h.readFile('nope'); } catch (e) { console.log('closed bad enc', showE(e)); }
  try { await h.readFile('utf8'); } catch (e) { console.log('closed enc', showE(e)); }
})();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("f", []byte("abc"), nil))
		promise.Async(l, func() (int, error) {
			h, err := promise.Await(fs.Promises().Open("f", "r", 0o666))
			if err != nil {
				return 0, err
			}
			_, err = promise.Await(h.ReadFileString("nope"))
			log("open bad enc %s", rev10sErrFields(err))
			promise.Await(h.Close())
			_, err = promise.Await(h.ReadFileString("nope"))
			log("closed bad enc %s", rev10sErrFields(err))
			_, err = promise.Await(h.ReadFileString("utf8"))
			log("closed enc %s", rev10sErrFields(err))
			return 0, nil
		}).Catch(func(err error) (int, error) { log("body failed: %v", err); return 0, nil })
	})
}

// The promise API's chown, and a FileHandle's chmod, datasync and utimes, open and closed
// (EBADF "file closed" naming fchmod, fdatasync, futimes), as node's.
func TestRev11fFileHandleChmodDatasyncUtimes(t *testing.T) {
	const js = `
const fsp = fs.promises;
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ') : 'null'; }
(async () => {
  fs.writeFileSync('f', 'abc');
  console.log('chown', String(await fsp.chown('f', process.getuid(), process.getgid())));
  try { await fsp.chown('nope', 0, 0); } catch (e) { console.log('chown missing', showE(e)); }
  const h = await fsp.open('f', 'r+');
  console.log('chmod', String(await h.chmod(0o600)), (fs.statSync('f').mode & 0o777).toString(8));
  console.log('datasync', String(await h.datasync()));
  console.log('utimes', String(await h.utimes(10, 20.5)), fs.statSync('f').mtimeMs);
  await h.close();
  for (const [n, f] of [['chmod', () => h.chmod(0o644)], ['datasync', () => h.datasync()], ['utimes', () => h.utimes(1, 1)]]) {
    try { await f(); console.log(n, 'closed ok'); } catch (e) { console.log(n, 'closed', showE(e)); }
  }
})();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		fsp := fs.Promises()
		show := rev10sErrFields
		promise.Async(l, func() (int, error) {
			rev10sMust(t, fs.WriteFileSync("f", []byte("abc"), nil))
			_, err := promise.Await(fsp.Chown("f", syscall.Getuid(), syscall.Getgid()))
			log("chown %s", undefOr(err))
			_, err = promise.Await(fsp.Chown("nope", 0, 0))
			log("chown missing %s", show(err))
			h, err := promise.Await(fsp.Open("f", "r+", 0o666))
			if err != nil {
				return 0, err
			}
			_, err = promise.Await(h.Chmod(0o600))
			st, _ := fs.StatSync("f")
			log("chmod %s %o", undefOr(err), st.Mode&0o777)
			_, err = promise.Await(h.Datasync())
			log("datasync %s", undefOr(err))
			_, err = promise.Await(h.Utimes(time.Unix(10, 0), time.Unix(20, 500e6)))
			st, _ = fs.StatSync("f")
			log("utimes %s %s", undefOr(err), strconv.FormatFloat(st.MtimeMs, 'f', -1, 64))
			promise.Await(h.Close())
			for _, c := range []struct {
				n string
				p *promise.Promise[nodefs.Void]
			}{{"chmod", h.Chmod(0o644)}, {"datasync", h.Datasync()}, {"utimes", h.Utimes(time.Unix(1, 0), time.Unix(1, 0))}} {
				if _, err := promise.Await(c.p); err != nil {
					log("%s closed %s", c.n, show(err))
				} else {
					log("%s closed ok", c.n)
				}
			}
			return 0, nil
		}).Catch(func(err error) (int, error) { log("body failed: %v", err); return 0, nil })
	})
}
