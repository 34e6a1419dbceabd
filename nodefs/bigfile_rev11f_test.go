package nodefs_test

import (
	"os"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// A file larger than 2 GiB (a sparse one) is refused by readFile in every API, the
// FileHandle's included, from its fstat and before any read: ERR_FS_FILE_TOO_LARGE.
func TestRev11fReadFileTooLarge(t *testing.T) {
	const js = `
const fsp = fs.promises;
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ') : 'null'; }
fs.writeFileSync('big', ''); fs.truncateSync('big', 2 ** 31);
try { fs.readFileSync('big'); } catch (e) { console.log('sync', showE(e)); }
fs.readFile('big', (e) => {
  console.log('cb', showE(e));
  (async () => {
    try { await fsp.readFile('big'); } catch (e) { console.log('promise', showE(e)); }
    const h = await fsp.open('big');
    try { await h.readFile(); } catch (e) { console.log('handle', showE(e)); }
    try { await h.readFile('latin1'); } catch (e) { console.log('handle string', showE(e)); }
    await h.close();
    fs.unlinkSync('big');
  })();
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		show := rev10sErrFields
		rev10sMust(t, fs.WriteFileSync("big", nil, nil))
		rev10sMust(t, os.Truncate("big", 1<<31))
		if _, err := fs.ReadFileSync("big"); err != nil {
			log("sync %s", show(err))
		}
		rev10sMust(t, fs.ReadFile("big", func(e error, _ []byte) {
			log("cb %s", show(e))
			fsp := fs.Promises()
			promise.Async(l, func() (int, error) {
				if _, err := promise.Await(fsp.ReadFile("big")); err != nil {
					log("promise %s", show(err))
				}
				h, err := promise.Await(fsp.Open("big", "r", 0o666))
				if err != nil {
					return 0, err
				}
				if _, err := promise.Await(h.ReadFile()); err != nil {
					log("handle %s", show(err))
				}
				if _, err := promise.Await(h.ReadFileString("latin1")); err != nil {
					log("handle string %s", show(err))
				}
				promise.Await(h.Close())
				return 0, os.Remove("big")
			}).Catch(func(err error) (int, error) { log("body failed: %v", err); return 0, nil })
		}))
	})
}
