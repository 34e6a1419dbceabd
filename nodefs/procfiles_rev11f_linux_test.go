package nodefs_test

import (
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Files whose stat size is 0 but that have content (/proc/version) are read to their end
// by readFile in each API (callback, sync, promises, a FileHandle), and /dev/null reads
// as empty; chown with -1 leaves the owner as it is.
func TestRev11fReadFileOfProcFiles(t *testing.T) {
	const js = `
const want = fs.readFileSync('/proc/version', 'latin1');
console.log('sync', want.length > 0);
fs.readFile('/proc/version', 'latin1', (e, d) => {
  console.log('cb proc', String(e), d === want);
  fs.readFile('/dev/null', (e, d) => {
    console.log('cb null', String(e), d.length);
    fs.promises.readFile('/proc/version', 'latin1').then((d) => {
      console.log('p proc', d === want);
      return fs.promises.open('/proc/version');
    }).then(async (h) => {
      const d = await h.readFile('latin1');
      console.log('h proc', d === want);
      await h.close();
      fs.chown('/dev/null', -1, -1, (e) => console.log('chown -1', String(e)));
    });
  });
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		fsp := fs.Promises()
		want, err := fs.ReadFileStringSync("/proc/version", "latin1")
		log("sync %v", err == nil && len(want) > 0)
		rev10sMust(t, fs.ReadFileString("/proc/version", "latin1", func(e error, d string) {
			log("cb proc %s %v", rev10sErrFields(e), d == want)
			fs.ReadFile("/dev/null", func(e error, d []byte) {
				log("cb null %s %d", rev10sErrFields(e), len(d))
				promise.Async(l, func() (int, error) {
					d, err := promise.Await(fsp.ReadFileString("/proc/version", "latin1"))
					log("p proc %v", err == nil && d == want)
					h, err := promise.Await(fsp.Open("/proc/version", "r", 0o666))
					if err != nil {
						return 0, err
					}
					d, err = promise.Await(h.ReadFileString("latin1"))
					log("h proc %v", err == nil && d == want)
					promise.Await(h.Close())
					fs.Chown("/dev/null", -1, -1, func(e error) { log("chown -1 %s", rev10sErrFields(e)) })
					return 0, nil
				}).Catch(func(err error) (int, error) { log("body failed: %v", err); return 0, nil })
			})
		}))
	})
}
