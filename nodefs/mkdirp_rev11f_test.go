package nodefs_test

import (
	"strconv"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// mkdir recursive works on the path's text as node's MKDirp does (dirname is the text
// before the last '/'): the first directory made keeps its spelling ('./r', 'p/'), a '..'
// component's directory is made too ('c/../d/e' makes c), and the mode keeps its sticky
// bit, in the sync and the callback API.
func TestRev11fMkdirRecursivePathText(t *testing.T) {
	const js = `
const mode = (p) => (fs.statSync(p).mode & 0o7777).toString(8);
for (const p of ['x/y/', './r/s', 'p//q/z', 'a/./b', 'c/../d/e', 'st', 'st2/u']) console.log('sync', JSON.stringify(p), JSON.stringify(fs.mkdirSync(p, { recursive: true, mode: 0o1777 })));
console.log('exists c', fs.existsSync('c'), fs.existsSync('d/e'));
console.log('modes', mode('st'), mode('st2'), mode('st2/u'));
fs.mkdirSync('nr', { mode: 0o1777 }); console.log('non-recursive', mode('nr'));
fs.mkdir('./k/l', { recursive: true, mode: 0o1777 }, (e, p) => {
  console.log('cb', String(e), JSON.stringify(p), mode('k'));
  fs.mkdir('m/../n/o', { recursive: true }, (e, p) => console.log('cb dotdot', String(e), JSON.stringify(p), fs.existsSync('m'), fs.existsSync('n/o')));
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		mode := func(p string) string { s, _ := fs.StatSync(p); return strconv.FormatUint(s.Mode&0o7777, 8) }
		undef := func(s string) string {
			if s == "" {
				return "undefined"
			}
			return rev10sJSON(s)
		}
		for _, p := range []string{"x/y/", "./r/s", "p//q/z", "a/./b", "c/../d/e", "st", "st2/u"} {
			first, err := fs.MkdirSync(p, &nodefs.MkdirOptions{Recursive: true, Mode: 0o1777})
			if err != nil {
				log("sync %s %s", rev10sJSON(p), rev10sErrFields(err))
				continue
			}
			log("sync %s %s", rev10sJSON(p), undef(first))
		}
		log("exists c %v %v", fs.ExistsSync("c"), fs.ExistsSync("d/e"))
		log("modes %s %s %s", mode("st"), mode("st2"), mode("st2/u"))
		_, err := fs.MkdirSync("nr", &nodefs.MkdirOptions{Mode: 0o1777})
		rev10sMust(t, err)
		log("non-recursive %s", mode("nr"))
		rev10sMust(t, fs.Mkdir("./k/l", &nodefs.MkdirOptions{Recursive: true, Mode: 0o1777}, func(e error, p string) {
			log("cb %s %s %s", rev10sErrFields(e), undef(p), mode("k"))
			fs.Mkdir("m/../n/o", &nodefs.MkdirOptions{Recursive: true}, func(e error, p string) {
				log("cb dotdot %s %s %v %v", rev10sErrFields(e), undef(p), fs.ExistsSync("m"), fs.ExistsSync("n/o"))
			})
		}))
	})
}
