package nodefs_test

import (
	"os"
	"strconv"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// copyFile as libuv's: onto itself (directly or through a link) it leaves the file as it
// is; onto a longer file it truncates it and gives it the source's mode; onto a link it
// writes through it; from a link it copies the target; a missing destination directory is
// ENOENT naming both paths; /dev/null copies as an empty file.
func TestRev11fCopyFileCases(t *testing.T) {
	const js = `
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ') : 'null'; }
fs.writeFileSync('f', 'abc'); fs.chmodSync('f', 0o751); fs.writeFileSync('long', '0123456789'); fs.chmodSync('long', 0o600);
fs.writeFileSync('t', 'target'); fs.symlinkSync('t', 'lt'); fs.symlinkSync('f', 'lf');
const m = (p) => (fs.statSync(p).mode & 0o777).toString(8);
fs.copyFile('f', 'f', (e) => { console.log('self', showE(e), fs.readFileSync('f', 'latin1'));
fs.copyFile('f', 'long', (e) => { console.log('over longer', showE(e), fs.readFileSync('long', 'latin1'), m('long'));
fs.copyFile('f', 'lt', (e) => { console.log('onto link', showE(e), fs.readFileSync('t', 'latin1'), fs.lstatSync('lt').isSymbolicLink(), m('t'));
fs.copyFile('lf', 'n', (e) => { console.log('from link', showE(e), fs.lstatSync('n').isSymbolicLink(), m('n'));
fs.copyFile('f', 'lf', (e) => { console.log('onto link to self', showE(e), fs.readFileSync('f', 'latin1'));
fs.copyFile('f', 'nodir/x', (e) => { console.log('dest missing dir', showE(e));
fs.copyFile('/dev/null', 'z', (e) => { console.log('from dev null', showE(e), fs.existsSync('z') && fs.statSync('z').size);
});});});});});});});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		show := rev10sErrFields
		read := func(p string) string { s, _ := fs.ReadFileStringSync(p, "latin1"); return s }
		m := func(p string) string { s, _ := fs.StatSync(p); return strconv.FormatUint(s.Mode&0o777, 8) }
		isLink := func(p string) bool { s, err := fs.LstatSync(p); return err == nil && s.IsSymbolicLink() }
		rev10sMust(t, fs.WriteFileSync("f", []byte("abc"), nil))
		rev10sMust(t, os.Chmod("f", 0o751))
		rev10sMust(t, fs.WriteFileSync("long", []byte("0123456789"), nil))
		rev10sMust(t, os.Chmod("long", 0o600))
		rev10sMust(t, fs.WriteFileSync("t", []byte("target"), nil))
		rev10sMust(t, os.Symlink("t", "lt"))
		rev10sMust(t, os.Symlink("f", "lf"))
		steps := []func(cb func(a ...any)) error{
			func(cb func(...any)) error {
				return fs.CopyFile("f", "f", 0, func(e error) { cb("self", show(e), read("f")) })
			},
			func(cb func(...any)) error {
				return fs.CopyFile("f", "long", 0, func(e error) { cb("over longer", show(e), read("long"), m("long")) })
			},
			func(cb func(...any)) error {
				return fs.CopyFile("f", "lt", 0, func(e error) { cb("onto link", show(e), read("t"), isLink("lt"), m("t")) })
			},
			func(cb func(...any)) error {
				return fs.CopyFile("lf", "n", 0, func(e error) { cb("from link", show(e), isLink("n"), m("n")) })
			},
			func(cb func(...any)) error {
				return fs.CopyFile("f", "lf", 0, func(e error) { cb("onto link to self", show(e), read("f")) })
			},
			func(cb func(...any)) error {
				return fs.CopyFile("f", "nodir/x", 0, func(e error) { cb("dest missing dir", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.CopyFile("/dev/null", "z", 0, func(e error) {
					s, err := fs.StatSync("z")
					size := "false"
					if err == nil {
						size = strconv.FormatInt(s.Size, 10)
					}
					cb("from dev null", show(e), size)
				})
			},
		}
		rev11fChain(log, show, steps)
	})
}
