package nodefs_test

import (
	"os"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// rm recursive removes a directory as node's rimraf: rmdir first, and only when that fails
// ENOTEMPTY (or EEXIST, EPERM) its children and rmdir again, a final ENOENT being success.
// So 'd/.' fails EINVAL with its contents left in place (in the sync, callback and promise
// APIs), and rmSync('d/s/..') removes d/s, the first of d/s/..'s children, after which
// d/s/../x and d/s/.. are gone (ENOENT, success) with d/x and d still there. (The callback
// API's 'd/s/..' is not pinned: node removes the children concurrently.)
func TestRev11fRmRecursiveRmdirFirst(t *testing.T) {
	const js = `
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ') : 'null'; }
fs.mkdirSync('d'); fs.writeFileSync('d/x', ''); fs.mkdirSync('d/s'); fs.writeFileSync('d/s/y', '');
try { fs.rmSync('d/.', { recursive: true }); console.log('sync ok'); } catch (e) { console.log('sync', showE(e)); }
console.log('left', fs.existsSync('d/x'), fs.existsSync('d/s/y'));
fs.rm('d/s/.', { recursive: true }, (e) => {
  console.log('cb', showE(e), fs.existsSync('d/s/y'));
  try { fs.rmSync('d/s/..', { recursive: true }); console.log('sync dotdot ok'); } catch (e) { console.log('sync dotdot', showE(e)); }
  console.log('left', fs.existsSync('d/x'), fs.existsSync('d/s'), fs.existsSync('d'));
  fs.writeFileSync('d/z', '');
  fs.promises.rm('d/.', { recursive: true, force: true }).then(() => console.log('promise ok'), (e) => console.log('promise', showE(e), fs.existsSync('d/z')));
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		show := rev10sErrFields
		rev10sMust(t, os.MkdirAll("d/s", 0o777))
		rev10sMust(t, fs.WriteFileSync("d/x", nil, nil))
		rev10sMust(t, fs.WriteFileSync("d/s/y", nil, nil))
		if err := fs.RmSync("d/.", &nodefs.RmOptions{Recursive: true}); err != nil {
			log("sync %s", show(err))
		} else {
			log("sync ok")
		}
		log("left %v %v", fs.ExistsSync("d/x"), fs.ExistsSync("d/s/y"))
		rev10sMust(t, fs.Rm("d/s/.", &nodefs.RmOptions{Recursive: true}, func(e error) {
			log("cb %s %v", show(e), fs.ExistsSync("d/s/y"))
			if err := fs.RmSync("d/s/..", &nodefs.RmOptions{Recursive: true}); err != nil {
				log("sync dotdot %s", show(err))
			} else {
				log("sync dotdot ok")
			}
			log("left %v %v %v", fs.ExistsSync("d/x"), fs.ExistsSync("d/s"), fs.ExistsSync("d"))
			rev10sMust(t, fs.WriteFileSync("d/z", nil, nil))
			promise.Then(fs.Promises().Rm("d/.", &nodefs.RmOptions{Recursive: true, Force: true}), func(nodefs.Void) (int, error) {
				log("promise ok")
				return 0, nil
			}, func(e error) (int, error) {
				log("promise %s %v", show(e), fs.ExistsSync("d/z"))
				return 0, nil
			})
		}))
	})
}

// rm recursive of a link to a directory named with a trailing slash: lstat sees the
// directory, rmdir fails ENOTDIR; node's rimraf then reports the (absent) unlink error, so
// the callback and promise APIs succeed and remove nothing, while rmSync throws the rmdir
// error.
func TestRev11fRmRecursiveLinkWithSlash(t *testing.T) {
	const js = `
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ') : 'null'; }
fs.mkdirSync('d'); fs.writeFileSync('d/x', ''); fs.symlinkSync('d', 'lnk');
try { fs.rmSync('lnk/', { recursive: true }); console.log('sync ok'); } catch (e) { console.log('sync', showE(e)); }
console.log('left', fs.existsSync('d/x'), fs.existsSync('lnk'));
fs.rm('lnk/', { recursive: true }, (e) => {
  console.log('cb', showE(e), fs.existsSync('d/x'), fs.existsSync('lnk'));
  fs.promises.rm('lnk/', { recursive: true, force: true }).then(() => console.log('promise ok', fs.existsSync('d/x'), fs.existsSync('lnk')), (e) => console.log('promise', showE(e)));
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		show := rev10sErrFields
		rev10sMust(t, os.Mkdir("d", 0o777))
		rev10sMust(t, fs.WriteFileSync("d/x", nil, nil))
		rev10sMust(t, os.Symlink("d", "lnk"))
		if err := fs.RmSync("lnk/", &nodefs.RmOptions{Recursive: true}); err != nil {
			log("sync %s", show(err))
		} else {
			log("sync ok")
		}
		log("left %v %v", fs.ExistsSync("d/x"), fs.ExistsSync("lnk"))
		rev10sMust(t, fs.Rm("lnk/", &nodefs.RmOptions{Recursive: true}, func(e error) {
			log("cb %s %v %v", show(e), fs.ExistsSync("d/x"), fs.ExistsSync("lnk"))
			promise.Then(fs.Promises().Rm("lnk/", &nodefs.RmOptions{Recursive: true, Force: true}), func(nodefs.Void) (int, error) {
				log("promise ok %v %v", fs.ExistsSync("d/x"), fs.ExistsSync("lnk"))
				return 0, nil
			}, func(e error) (int, error) {
				log("promise %s", show(e))
				return 0, nil
			})
		}))
	})
}
