package nodefs_test

import (
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// readFile with each encoding name (and its aliases and case) of a file with a BOM, invalid
// UTF-8, an odd byte count for utf16le and high bytes for ascii: the sync, callback and
// promise APIs decode as node's Buffer.toString does.
func TestRev11fReadFileEncodings(t *testing.T) {
	const js = `
fs.writeFileSync('b', Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0xff, 0xfe, 0x62, 0x00, 0xc3]));
const encs = ['utf8', 'utf16le', 'latin1', 'ascii', 'hex', 'base64', 'base64url', 'binary', 'ucs-2', 'UTF-8', 'Latin1', 'utf-16le'];
for (const e of encs) console.log('sync', e, JSON.stringify(fs.readFileSync('b', e)));
(async () => {
  for (const e of encs) {
    await new Promise((res) => fs.readFile('b', e, (err, s) => { console.log('cb', e, JSON.stringify(s)); res(); }));
    console.log('promise', e, JSON.stringify(await fs.promises.readFile('b', e)));
  }
})();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("b", []byte{0xef, 0xbb, 0xbf, 0x61, 0xff, 0xfe, 0x62, 0x00, 0xc3}, nil))
		encs := []string{"utf8", "utf16le", "latin1", "ascii", "hex", "base64", "base64url", "binary", "ucs-2", "UTF-8", "Latin1", "utf-16le"}
		for _, e := range encs {
			s, err := fs.ReadFileStringSync("b", e)
			if err != nil {
				log("sync %s %s", e, rev10sErrFields(err))
				continue
			}
			log("sync %s %s", e, rev10sJSON(s))
		}
		promise.Async(l, func() (int, error) {
			for _, e := range encs {
				s, err := promise.Await(promise.Promisify(l, func(cb func(error, string)) { fs.ReadFileString("b", e, cb) }))
				if err != nil {
					log("cb %s %s", e, rev10sErrFields(err))
				} else {
					log("cb %s %s", e, rev10sJSON(s))
				}
				s, err = promise.Await(fs.Promises().ReadFileString("b", e))
				if err != nil {
					log("promise %s %s", e, rev10sErrFields(err))
				} else {
					log("promise %s %s", e, rev10sJSON(s))
				}
			}
			return 0, nil
		}).Catch(func(err error) (int, error) { log("body failed: %v", err); return 0, nil })
	})
}
