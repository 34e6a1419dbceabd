package nodefs_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// An empty path reaches the system in every callback call and fails there with node's
// error ("ENOENT: no such file or directory, lstat ”", the paths quoted even when empty),
// except fs.realpath's walk (the working directory) and rm with force (nothing to do).
func TestRev11fEmptyPaths(t *testing.T) {
	const js = `
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ') : 'null'; }
const steps = [
 ['lstat', (cb) => fs.lstat('', cb)], ['open', (cb) => fs.open('', 'r', cb)], ['readdir', (cb) => fs.readdir('', cb)], ['mkdir', (cb) => fs.mkdir('', cb)],
 ['mkdir rec', (cb) => fs.mkdir('', { recursive: true }, cb)], ['rmdir', (cb) => fs.rmdir('', cb)], ['rm', (cb) => fs.rm('', cb)], ['rm force', (cb) => fs.rm('', { force: true }, cb)],
 ['unlink', (cb) => fs.unlink('', cb)], ['rename', (cb) => fs.rename('', 'x', cb)], ['rename to', (cb) => fs.rename('x', '', cb)], ['copyFile', (cb) => fs.copyFile('', 'x', cb)],
 ['access', (cb) => fs.access('', cb)], ['realpath', (cb) => fs.realpath('', cb)], ['realpath native', (cb) => fs.realpath.native('', cb)], ['readlink', (cb) => fs.readlink('', cb)],
 ['symlink', (cb) => fs.symlink('', 'x', cb)], ['symlink path', (cb) => fs.symlink('x', '', cb)], ['link', (cb) => fs.link('', 'x', cb)], ['chmod', (cb) => fs.chmod('', 0o644, cb)],
 ['chown', (cb) => fs.chown('', 0, 0, cb)], ['utimes', (cb) => fs.utimes('', 1, 1, cb)], ['truncate', (cb) => fs.truncate('', 0, cb)], ['readFile', (cb) => fs.readFile('', cb)],
 ['writeFile', (cb) => fs.writeFile('', 'x', cb)], ['appendFile', (cb) => fs.appendFile('', 'x', cb)],
];
(async () => {
  for (const [n, f] of steps) {
    await new Promise((res) => {
      try { f((e, v) => { console.log([n, showE(e), ...(v === undefined ? [] : [JSON.stringify(v).replaceAll(process.cwd(), '<cwd>')])].join(' ')); res(); }); } catch (e) { console.log(n, 'threw', showE(e)); res(); }
    });
  }
})();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		show := rev10sErrFields
		cwd, _ := os.Getwd()
		res := func(n string, e error, v string) {
			if v == "" {
				log("%s %s", n, show(e))
				return
			}
			log("%s %s %s", n, show(e), v)
		}
		noV := func(n string) func(error) { return func(e error) { res(n, e, "") } }
		str := func(n string) func(error, string) {
			return func(e error, s string) {
				v := ""
				if e == nil {
					v = rev10sJSON(strings.ReplaceAll(s, cwd, "<cwd>"))
				}
				res(n, e, v)
			}
		}
		steps := []struct {
			n string
			f func(done func()) error
		}{
			{"lstat", func(d func()) error { return fs.Lstat("", func(e error, _ *nodefs.Stats) { res("lstat", e, ""); d() }) }},
			{"open", func(d func()) error { return fs.Open("", "r", 0o666, func(e error, _ int) { res("open", e, ""); d() }) }},
			{"readdir", func(d func()) error { return fs.Readdir("", func(e error, _ []string) { res("readdir", e, ""); d() }) }},
			{"mkdir", func(d func()) error { return fs.Mkdir("", nil, func(e error, _ string) { res("mkdir", e, ""); d() }) }},
			{"mkdir rec", func(d func()) error {
				return fs.Mkdir("", &nodefs.MkdirOptions{Recursive: true}, func(e error, _ string) { res("mkdir rec", e, ""); d() })
			}},
			{"rmdir", func(d func()) error { return fs.Rmdir("", func(e error) { noV("rmdir")(e); d() }) }},
			{"rm", func(d func()) error { return fs.Rm("", nil, func(e error) { noV("rm")(e); d() }) }},
			{"rm force", func(d func()) error {
				return fs.Rm("", &nodefs.RmOptions{Force: true}, func(e error) { noV("rm force")(e); d() })
			}},
			{"unlink", func(d func()) error { return fs.Unlink("", func(e error) { noV("unlink")(e); d() }) }},
			{"rename", func(d func()) error { return fs.Rename("", "x", func(e error) { noV("rename")(e); d() }) }},
			{"rename to", func(d func()) error { return fs.Rename("x", "", func(e error) { noV("rename to")(e); d() }) }},
			{"copyFile", func(d func()) error { return fs.CopyFile("", "x", 0, func(e error) { noV("copyFile")(e); d() }) }},
			{"access", func(d func()) error { return fs.Access("", nodefs.F_OK, func(e error) { noV("access")(e); d() }) }},
			{"realpath", func(d func()) error { return fs.Realpath("", func(e error, s string) { str("realpath")(e, s); d() }) }},
			{"realpath native", func(d func()) error {
				return fs.RealpathNative("", func(e error, s string) { str("realpath native")(e, s); d() })
			}},
			{"readlink", func(d func()) error { return fs.Readlink("", func(e error, s string) { str("readlink")(e, s); d() }) }},
			{"symlink", func(d func()) error { return fs.Symlink("", "x", func(e error) { noV("symlink")(e); d() }) }},
			{"symlink path", func(d func()) error { return fs.Symlink("x", "", func(e error) { noV("symlink path")(e); d() }) }},
			{"link", func(d func()) error { return fs.Link("", "x", func(e error) { noV("link")(e); d() }) }},
			{"chmod", func(d func()) error { return fs.Chmod("", 0o644, func(e error) { noV("chmod")(e); d() }) }},
			{"chown", func(d func()) error { return fs.Chown("", 0, 0, func(e error) { noV("chown")(e); d() }) }},
			{"utimes", func(d func()) error {
				return fs.Utimes("", time.Unix(1, 0), time.Unix(1, 0), func(e error) { noV("utimes")(e); d() })
			}},
			{"truncate", func(d func()) error { return fs.Truncate("", 0, func(e error) { noV("truncate")(e); d() }) }},
			{"readFile", func(d func()) error { return fs.ReadFile("", func(e error, _ []byte) { res("readFile", e, ""); d() }) }},
			{"writeFile", func(d func()) error {
				return fs.WriteFile("", []byte("x"), nil, func(e error) { noV("writeFile")(e); d() })
			}},
			{"appendFile", func(d func()) error {
				return fs.AppendFile("", []byte("x"), nil, func(e error) { noV("appendFile")(e); d() })
			}},
		}
		promise.Async(l, func() (int, error) {
			for _, s := range steps {
				p, r := promise.WithResolvers[int](l)
				if err := s.f(func() { r.Resolve(0) }); err != nil {
					log("%s threw %s", s.n, show(err))
					continue
				}
				promise.Await(p)
			}
			return 0, nil
		}).Catch(func(err error) (int, error) { log("body failed: %v", err); return 0, nil })
	})
}
