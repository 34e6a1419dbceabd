package nodefs_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// readdir lists names in libuv's order (strcmp: dot files, digits, upper case, '_', lower
// case, then bytes above 0x7f), without '.' and '..', in the sync, callback (with file
// types) and promise APIs.
func TestRev11fReaddirOrder(t *testing.T) {
	const js = `
fs.mkdirSync('d');
for (const n of ['B', 'a', '_', 'é', 'Z', '10', '9', '.h']) fs.writeFileSync('d/' + n, '');
fs.mkdirSync('d/sub');
console.log('sync', JSON.stringify(fs.readdirSync('d')));
fs.readdir('d', { withFileTypes: true }, (e, d) => {
  console.log('cb', d.map((x) => x.name).join(','));
  fs.promises.readdir('d').then((x) => console.log('promise', x.join(',')));
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, os.Mkdir("d", 0o777))
		for _, n := range []string{"B", "a", "_", "é", "Z", "10", "9", ".h"} {
			rev10sMust(t, fs.WriteFileSync("d/"+n, nil, nil))
		}
		rev10sMust(t, os.Mkdir("d/sub", 0o777))
		names, err := fs.ReaddirSync("d")
		rev10sMust(t, err)
		b, _ := json.Marshal(names)
		log("sync %s", b)
		rev10sMust(t, fs.ReaddirWithFileTypes("d", func(_ error, ents []*nodefs.Dirent) {
			var ns []string
			for _, d := range ents {
				ns = append(ns, d.Name)
			}
			log("cb %s", strings.Join(ns, ","))
			promise.Then(fs.Promises().Readdir("d"), func(x []string) (int, error) {
				log("promise %s", strings.Join(x, ","))
				return 0, nil
			}, nil)
		}))
	})
}
