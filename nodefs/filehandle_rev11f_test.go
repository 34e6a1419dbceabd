package nodefs_test

import (
	"testing"

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
