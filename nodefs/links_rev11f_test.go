package nodefs_test

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// Calls on symbolic links: link of a link links the link itself (not its target); a link
// to a missing target is made, and readlink gives its target as written, lstat its length;
// chmod and utimes go through a link to its target; access and existsSync of a dangling
// link fail; unlink and rename of a link leave the target alone.
func TestRev11fLinkSemantics(t *testing.T) {
	const js = `
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ') : 'null'; }
fs.writeFileSync('f', 'abc'); fs.chmodSync('f', 0o644); fs.symlinkSync('f', 'lf');
const m = (p) => (fs.statSync(p).mode & 0o777).toString(8);
const steps = [
  (cb) => fs.link('lf', 'hl', (e) => cb('link of link', showE(e), fs.lstatSync('hl').isSymbolicLink(), fs.lstatSync('lf').nlink)),
  (cb) => fs.symlink('../nowhere/x', 'dl', (e) => fs.readlink('dl', (e2, t) => cb('dangling', showE(e), showE(e2), t, fs.lstatSync('dl').size))),
  (cb) => fs.chmod('lf', 0o600, (e) => cb('chmod via link', showE(e), m('f'), (fs.lstatSync('lf').mode & 0o777).toString(8))),
  (cb) => fs.utimes('lf', 100, 200, (e) => cb('utimes via link', showE(e), fs.statSync('f').mtimeMs)),
  (cb) => fs.access('dl', (e) => cb('access dangling', showE(e), fs.existsSync('dl'))),
  (cb) => fs.unlink('lf', (e) => cb('unlink link', showE(e), fs.existsSync('f'), fs.existsSync('lf'))),
  (cb) => fs.rename('hl', 'hl2', (e) => cb('rename link', showE(e), fs.lstatSync('hl2').isSymbolicLink(), fs.readlinkSync('hl2'), fs.readFileSync('hl2', 'latin1'))),
  (cb) => fs.stat('dl', (e) => cb('stat dangling', showE(e))),
  (cb) => fs.readFile('dl', (e) => cb('readFile dangling', showE(e))),
  (cb) => fs.writeFile('dl', 'x', (e) => cb('writeFile dangling', showE(e))),
];
function next() { const s = steps.shift(); if (!s) return; s((...a) => { console.log(a.join(' ')); next(); }); }
next();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		show := rev10sErrFields
		rev10sMust(t, fs.WriteFileSync("f", []byte("abc"), nil))
		rev10sMust(t, os.Chmod("f", 0o644))
		rev10sMust(t, os.Symlink("f", "lf"))
		lst := func(p string) *nodefs.Stats { s, _ := fs.LstatSync(p); return s }
		m := func(p string) string { s, _ := fs.StatSync(p); return strconv.FormatUint(s.Mode&0o777, 8) }
		steps := []func(cb func(a ...any)) error{
			func(cb func(...any)) error {
				return fs.Link("lf", "hl", func(e error) { cb("link of link", show(e), lst("hl").IsSymbolicLink(), lst("lf").Nlink) })
			},
			func(cb func(...any)) error {
				return fs.Symlink("../nowhere/x", "dl", func(e error) {
					fs.Readlink("dl", func(e2 error, target string) { cb("dangling", show(e), show(e2), target, lst("dl").Size) })
				})
			},
			func(cb func(...any)) error {
				return fs.Chmod("lf", 0o600, func(e error) {
					cb("chmod via link", show(e), m("f"), strconv.FormatUint(lst("lf").Mode&0o777, 8))
				})
			},
			func(cb func(...any)) error {
				return fs.Utimes("lf", time.Unix(100, 0), time.Unix(200, 0), func(e error) {
					s, _ := fs.StatSync("f")
					cb("utimes via link", show(e), strconv.FormatFloat(s.MtimeMs, 'f', -1, 64))
				})
			},
			func(cb func(...any)) error {
				return fs.Access("dl", nodefs.F_OK, func(e error) { cb("access dangling", show(e), fs.ExistsSync("dl")) })
			},
			func(cb func(...any)) error {
				return fs.Unlink("lf", func(e error) { cb("unlink link", show(e), fs.ExistsSync("f"), fs.ExistsSync("lf")) })
			},
			func(cb func(...any)) error {
				return fs.Rename("hl", "hl2", func(e error) {
					target, _ := fs.ReadlinkSync("hl2")
					c, _ := fs.ReadFileStringSync("hl2", "latin1")
					cb("rename link", show(e), lst("hl2").IsSymbolicLink(), target, c)
				})
			},
			func(cb func(...any)) error {
				return fs.Stat("dl", func(e error, _ *nodefs.Stats) { cb("stat dangling", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.ReadFile("dl", func(e error, _ []byte) { cb("readFile dangling", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.WriteFile("dl", []byte("x"), nil, func(e error) { cb("writeFile dangling", show(e)) })
			},
		}
		rev11fChain(log, show, steps)
	})
}
