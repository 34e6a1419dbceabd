package nodefs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// realpath of links in every API: a link to '/', a link whose target climbs with '..', an
// absolute link, a link to a link to a directory followed by more components, a path
// through a file, a dangling link (alone and followed by more), a loop, '.', a trailing
// slash, and a link whose target goes through a link and '..'; fs.realpath and
// realpathSync walk as node's JavaScript does (a link is stat'ed before it is read, and its
// target is resolved against its directory as text, path.resolve), fs.realpath.native and
// fsPromises.realpath are libuv's.
func TestRev11fRealpathCases(t *testing.T) {
	const js = `
const path = require('path');
const cwd = process.cwd();
const up = path.dirname(cwd);
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ').replaceAll(cwd, '<cwd>') : 'null'; }
const showP = (p) => JSON.stringify(p.replaceAll(cwd, '<cwd>').replaceAll(up, '<cwd>/..'));
fs.mkdirSync('a/b', { recursive: true }); fs.writeFileSync('a/b/f', '');
fs.symlinkSync('/', 'root'); fs.symlinkSync('../..', 'a/b/up'); fs.symlinkSync(path.resolve('a/b'), 'abs');
fs.symlinkSync('a', 'l1'); fs.symlinkSync('l1', 'l2'); fs.symlinkSync('nothere', 'dangling');
fs.symlinkSync('a/b', 'deep'); fs.writeFileSync('top', ''); fs.writeFileSync('a/top', ''); fs.symlinkSync('deep/../top', 'lex');
fs.symlinkSync('loopB', 'loopA'); fs.symlinkSync('loopA', 'loopB');
const cases = ['root/tmp', 'a/b/up/a/b/f', 'abs/f', 'l2/b/f', 'a/b/f/x', 'dangling', '.', 'l2/', 'a/b/up/..', 'lex', 'dangling/x', 'loopA/x'];
for (const c of cases) {
  try { console.log('sync', c, showP(fs.realpathSync(c))); } catch (e) { console.log('sync', c, showE(e)); }
}
(async () => {
  for (const c of cases) {
    await new Promise((res) => fs.realpath(c, (e, p) => { console.log('cb', c, e ? showE(e) : showP(p)); res(); }));
    await new Promise((res) => fs.realpath.native(c, (e, p) => { console.log('native', c, e ? showE(e) : showP(p)); res(); }));
    await fs.promises.realpath(c).then((p) => console.log('promise', c, showP(p)), (e) => console.log('promise', c, showE(e)));
  }
})();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		cwd, _ := os.Getwd()
		showE := func(e error) string { return strings.ReplaceAll(rev10sErrFields(e), cwd, "<cwd>") }
		showP := func(p string) string {
			return rev10sJSON(strings.ReplaceAll(strings.ReplaceAll(p, cwd, "<cwd>"), filepath.Dir(cwd), "<cwd>/.."))
		}
		rev10sMust(t, os.MkdirAll("a/b", 0o777))
		rev10sMust(t, fs.WriteFileSync("a/b/f", nil, nil))
		rev10sMust(t, os.Symlink("/", "root"))
		rev10sMust(t, os.Symlink("../..", "a/b/up"))
		rev10sMust(t, os.Symlink(cwd+"/a/b", "abs"))
		rev10sMust(t, os.Symlink("a", "l1"))
		rev10sMust(t, os.Symlink("l1", "l2"))
		rev10sMust(t, os.Symlink("nothere", "dangling"))
		rev10sMust(t, os.Symlink("a/b", "deep"))
		rev10sMust(t, fs.WriteFileSync("top", nil, nil))
		rev10sMust(t, fs.WriteFileSync("a/top", nil, nil))
		rev10sMust(t, os.Symlink("deep/../top", "lex"))
		rev10sMust(t, os.Symlink("loopB", "loopA"))
		rev10sMust(t, os.Symlink("loopA", "loopB"))
		cases := []string{"root/tmp", "a/b/up/a/b/f", "abs/f", "l2/b/f", "a/b/f/x", "dangling", ".", "l2/", "a/b/up/..", "lex", "dangling/x", "loopA/x"}
		for _, c := range cases {
			if p, err := fs.RealpathSync(c); err != nil {
				log("sync %s %s", c, showE(err))
			} else {
				log("sync %s %s", c, showP(p))
			}
		}
		promise.Async(l, func() (int, error) {
			for _, c := range cases {
				p, err := promise.Await(promise.Promisify(l, func(cb func(error, string)) { fs.Realpath(c, cb) }))
				if err != nil {
					log("cb %s %s", c, showE(err))
				} else {
					log("cb %s %s", c, showP(p))
				}
				p, err = promise.Await(promise.Promisify(l, func(cb func(error, string)) { fs.RealpathNative(c, cb) }))
				if err != nil {
					log("native %s %s", c, showE(err))
				} else {
					log("native %s %s", c, showP(p))
				}
				p, err = promise.Await(fs.Promises().Realpath(c))
				if err != nil {
					log("promise %s %s", c, showE(err))
				} else {
					log("promise %s %s", c, showP(p))
				}
			}
			return 0, nil
		}).Catch(func(err error) (int, error) { log("body failed: %v", err); return 0, nil })
	})
}
