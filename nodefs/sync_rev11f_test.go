package nodefs_test

import (
	"os"
	"strconv"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// The synchronous calls' results and failures, one after the other: stat with and without
// throwIfNoEntry, realpath's walk through a chain of relative links and through '..', a
// missing component and a file used as a directory, readlink of a link, a file and a
// missing path, mkdtemp's prefix, rename of a file over a directory and back (EISDIR,
// ENOTDIR) and of a directory into itself (EINVAL), copyFile with COPYFILE_EXCL, of a
// missing file and of a directory, rm with force, rmdir of a non-empty directory, access
// with each mode, existsSync, open's flags on files and directories, readdir, mkdir,
// readFile and writeFile on a directory, a write on a read-only descriptor.
func TestRev11fSyncCalls(t *testing.T) {
	const js = `
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ').replaceAll(process.cwd(), '<cwd>').replace(/p-[A-Za-z0-9]{6}/g, 'p-XXXXXX') : 'null'; }
const t = (n, f) => { try { const v = f(); console.log(n, 'ok', v === undefined ? 'undefined' : JSON.stringify(v).replaceAll(process.cwd(), '<cwd>')); } catch (e) { console.log(n, showE(e)); } };
fs.writeFileSync('f', 'abc'); fs.chmodSync('f', 0o644);
fs.mkdirSync('d'); fs.mkdirSync('d/sub'); fs.mkdirSync('e');
fs.symlinkSync('../f', 'd/up'); fs.symlinkSync('d/up', 'chain'); fs.symlinkSync('d', 'dl');
t('stat missing', () => fs.statSync('nope'));
t('stat nothrow', () => fs.statSync('nope', { throwIfNoEntry: false }));
t('stat nothrow notdir', () => fs.statSync('f/x', { throwIfNoEntry: false }));
t('lstat missing', () => fs.lstatSync('nope/x'));
t('realpath chain', () => fs.realpathSync('chain'));
t('realpath dl/..', () => fs.realpathSync('dl/sub/..'));
t('realpath missing', () => fs.realpathSync('nope/x'));
t('realpath file/x', () => fs.realpathSync('f/x'));
t('readlink chain', () => fs.readlinkSync('chain'));
t('readlink file', () => fs.readlinkSync('f'));
t('readlink missing', () => fs.readlinkSync('nope'));
t('mkdtemp', () => fs.mkdtempSync('d/p-').length);
t('mkdtemp missing', () => fs.mkdtempSync('nope/p-'));
t('rename file over dir', () => fs.renameSync('f', 'e'));
t('rename dir over file', () => fs.renameSync('e', 'f'));
t('rename dir into itself', () => fs.renameSync('d', 'd/sub/x'));
t('copy excl', () => fs.copyFileSync('f', 'chain', fs.constants.COPYFILE_EXCL));
t('copy missing', () => fs.copyFileSync('nope', 'g'));
t('copy dir', () => fs.copyFileSync('d', 'g'));
t('rm force', () => fs.rmSync('nope', { force: true }));
t('rm force notdir', () => fs.rmSync('f/x', { force: true }));
t('rm dir', () => fs.rmSync('e'));
t('rmdir nonempty', () => fs.rmdirSync('d'));
t('unlink missing', () => fs.unlinkSync('nope'));
t('access X', () => fs.accessSync('f', fs.constants.X_OK));
t('access R|W', () => fs.accessSync('f', fs.constants.R_OK | fs.constants.W_OK));
t('access dir X', () => fs.accessSync('d', fs.constants.X_OK));
t('access missing', () => fs.accessSync('nope', fs.constants.R_OK));
t('exists link', () => fs.existsSync('chain'));
t('exists nope', () => fs.existsSync('nope'));
t('exists empty', () => fs.existsSync(''));
t('open wx', () => fs.openSync('f', 'wx'));
t('open dir w', () => fs.openSync('d', 'w'));
t('open missing r', () => fs.openSync('nope', 'r'));
t('open missing parent w', () => fs.openSync('nope/x', 'w'));
t('readdir missing', () => fs.readdirSync('nope'));
t('readdir file', () => fs.readdirSync('f'));
t('mkdir exists', () => fs.mkdirSync('d'));
t('mkdir rec exists', () => fs.mkdirSync('d', { recursive: true }));
t('mkdir rec file', () => fs.mkdirSync('f/x', { recursive: true }));
t('readFile dir', () => fs.readFileSync('d'));
t('writeFile dir', () => fs.writeFileSync('d', 'x'));
t('appendFile missing parent', () => fs.appendFileSync('nope/x', 'x'));
const rfd = fs.openSync('f', 'r');
t('write ro', () => fs.writeSync(rfd, Buffer.from('x'), 0, 1, 0));
t('read ro', () => { const b = Buffer.alloc(5); return [fs.readSync(rfd, b, 1, 4, 1), b.toString('latin1')]; });
fs.closeSync(rfd);
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		show := func(err error) string { return rev11fTemp.ReplaceAllString(rev10sErrFields(err), "p-XXXXXX") }
		try := func(n string, v any, err error) {
			if err != nil {
				log("%s %s", n, show(err))
				return
			}
			switch v := v.(type) {
			case nil:
				log("%s ok undefined", n)
			case *nodefs.Stats:
				if v == nil {
					log("%s ok undefined", n)
					return
				}
				log("%s ok object", n)
			case string:
				if v == "" {
					log("%s ok undefined", n)
					return
				}
				wd, _ := os.Getwd()
				log("%s ok %s", n, rev10sJSON(replaceWd(v, wd)))
			default:
				log("%s ok %v", n, v)
			}
		}
		err0 := func(n string, err error) { try(n, nil, err) }
		rev10sMust(t, fs.WriteFileSync("f", []byte("abc"), nil))
		rev10sMust(t, os.Chmod("f", 0o644))
		for _, d := range []string{"d", "d/sub", "e"} {
			_, err := fs.MkdirSync(d, nil)
			rev10sMust(t, err)
		}
		rev10sMust(t, os.Symlink("../f", "d/up"))
		rev10sMust(t, os.Symlink("d/up", "chain"))
		rev10sMust(t, os.Symlink("d", "dl"))
		_, err := fs.StatSync("nope")
		err0("stat missing", err)
		st, err := fs.StatSyncNoThrow("nope")
		try("stat nothrow", st, err)
		st, err = fs.StatSyncNoThrow("f/x")
		try("stat nothrow notdir", st, err)
		_, err = fs.LstatSync("nope/x")
		err0("lstat missing", err)
		for _, p := range []struct{ n, p string }{{"realpath chain", "chain"}, {"realpath dl/..", "dl/sub/.."}, {"realpath missing", "nope/x"}, {"realpath file/x", "f/x"}} {
			s, err := fs.RealpathSync(p.p)
			try(p.n, s, err)
		}
		for _, p := range []struct{ n, p string }{{"readlink chain", "chain"}, {"readlink file", "f"}, {"readlink missing", "nope"}} {
			s, err := fs.ReadlinkSync(p.p)
			try(p.n, s, err)
		}
		s, err := fs.MkdtempSync("d/p-")
		try("mkdtemp", len(s), err)
		s, err = fs.MkdtempSync("nope/p-")
		try("mkdtemp missing", s, err)
		err0("rename file over dir", fs.RenameSync("f", "e"))
		err0("rename dir over file", fs.RenameSync("e", "f"))
		err0("rename dir into itself", fs.RenameSync("d", "d/sub/x"))
		err0("copy excl", fs.CopyFileSync("f", "chain", nodefs.COPYFILE_EXCL))
		err0("copy missing", fs.CopyFileSync("nope", "g", 0))
		err0("copy dir", fs.CopyFileSync("d", "g", 0))
		err0("rm force", fs.RmSync("nope", &nodefs.RmOptions{Force: true}))
		err0("rm force notdir", fs.RmSync("f/x", &nodefs.RmOptions{Force: true}))
		err0("rm dir", fs.RmSync("e", nil))
		err0("rmdir nonempty", fs.RmdirSync("d"))
		err0("unlink missing", fs.UnlinkSync("nope"))
		err0("access X", fs.AccessSync("f", nodefs.X_OK))
		err0("access R|W", fs.AccessSync("f", nodefs.R_OK|nodefs.W_OK))
		err0("access dir X", fs.AccessSync("d", nodefs.X_OK))
		err0("access missing", fs.AccessSync("nope", nodefs.R_OK))
		log("exists link ok %v", fs.ExistsSync("chain"))
		log("exists nope ok %v", fs.ExistsSync("nope"))
		log("exists empty ok %v", fs.ExistsSync(""))
		for _, o := range []struct{ n, p, fl string }{{"open wx", "f", "wx"}, {"open dir w", "d", "w"}, {"open missing r", "nope", "r"}, {"open missing parent w", "nope/x", "w"}} {
			fd, err := fs.OpenSync(o.p, o.fl, 0o666)
			if err == nil {
				fs.CloseSync(fd)
			}
			err0(o.n, err)
		}
		_, err = fs.ReaddirSync("nope")
		err0("readdir missing", err)
		_, err = fs.ReaddirSync("f")
		err0("readdir file", err)
		_, err = fs.MkdirSync("d", nil)
		err0("mkdir exists", err)
		s, err = fs.MkdirSync("d", &nodefs.MkdirOptions{Recursive: true})
		try("mkdir rec exists", s, err)
		_, err = fs.MkdirSync("f/x", &nodefs.MkdirOptions{Recursive: true})
		err0("mkdir rec file", err)
		_, err = fs.ReadFileSync("d")
		err0("readFile dir", err)
		err0("writeFile dir", fs.WriteFileSync("d", []byte("x"), nil))
		err0("appendFile missing parent", fs.AppendFileSync("nope/x", []byte("x"), nil))
		rfd, err := fs.OpenSync("f", "r", 0o666)
		rev10sMust(t, err)
		_, err = fs.WriteSync(rfd, []byte("x"), 0, 1, 0)
		err0("write ro", err)
		b := make([]byte, 5)
		n, err := fs.ReadSync(rfd, b, 1, 4, 1)
		if err != nil {
			err0("read ro", err)
		} else {
			log("read ro ok %s", rev10sJSONArray(n, string(b)))
		}
		rev10sMust(t, fs.CloseSync(rfd))
	})
}

func replaceWd(s, wd string) string {
	if len(s) >= len(wd) && s[:len(wd)] == wd {
		return "<cwd>" + s[len(wd):]
	}
	return s
}

// rev10sJSONArray is JSON.stringify([n, s]).
func rev10sJSONArray(n int, s string) string {
	return "[" + strconv.Itoa(n) + "," + rev10sJSON(s) + "]"
}
