package nodefs_test

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// rev10sErrFields is the twin's show(e): code, errno, syscall, path, dest, then the message,
// with the working directory written <cwd>.
func rev10sErrFields(err error) string {
	if err == nil {
		return "null"
	}
	var e *nodefs.Error
	if !errors.As(err, &e) {
		return "not a *nodefs.Error: " + err.Error()
	}
	undef := func(s string, ok bool) string {
		if !ok {
			return ""
		}
		return s
	}
	errno := ""
	if e.Errno != 0 {
		errno = fmt.Sprint(e.Errno)
	}
	wd, _ := os.Getwd()
	return strings.ReplaceAll(strings.Join([]string{e.Code, errno, e.Syscall, undef(e.Path, e.HasPath()), e.Dest, "|", e.Message}, " "), wd, "<cwd>")
}

// The callback API's failures and edge results, one call after the other: a symlink loop
// (ELOOP from stat, open, realpath and access), readlink of a file, mkdir recursive's
// result (the first directory made, as given; undefined when none), rename onto a
// non-empty directory, link onto itself, truncate with a negative length (0), rm recursive
// of a symlink to a directory (the link goes, the directory stays), readdir withFileTypes,
// and more: every error's code, errno, syscall, path, dest and message are node's.
func TestRev10sCallbackAPIEdges(t *testing.T) {
	const js = `
const path = require('path');
function showE(e) {
  return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ').replaceAll(process.cwd(), '<cwd>') : 'null';
}
fs.writeFileSync('f', '0123456789');
fs.symlinkSync('loop1', 'loop2');
fs.symlinkSync('loop2', 'loop1');
fs.mkdirSync('full');
fs.writeFileSync('full/x', '');
fs.mkdirSync('empty');
fs.symlinkSync('full', 'lnk');
const steps = [
  (cb) => fs.stat('loop1', (e) => cb('stat loop', showE(e))),
  (cb) => fs.readFile('loop1', (e) => cb('readFile loop', showE(e))),
  (cb) => fs.readlink('f', (e) => cb('readlink file', showE(e))),
  (cb) => fs.mkdir('m/a/b', { recursive: true }, (e, p) => cb('mkdir recursive', showE(e), String(p))),
  (cb) => fs.mkdir('m/a/b', { recursive: true }, (e, p) => cb('mkdir recursive again', showE(e), String(p))),
  (cb) => fs.mkdir('m/a', (e, p) => cb('mkdir exists', showE(e), String(p))),
  (cb) => fs.rename('empty', 'full', (e) => cb('rename onto non-empty', showE(e))),
  (cb) => fs.link('f', 'f', (e) => cb('link exists', showE(e))),
  (cb) => fs.truncate('f', -5, (e) => cb('truncate negative', showE(e), fs.statSync('f').size)),
  (cb) => fs.rmdir('full', (e) => cb('rmdir non-empty', showE(e))),
  (cb) => fs.rm('lnk', { recursive: true }, (e) => cb('rm recursive symlink', showE(e), fs.existsSync('full/x'), fs.existsSync('lnk'))),
  (cb) => fs.readdir('.', { withFileTypes: true }, (e, ents) => cb('readdir types', showE(e), ents.filter((d) => !d.name.endsWith('.js')).map((d) => d.name + ':' + (d.isSymbolicLink() ? 'l' : d.isDirectory() ? 'd' : d.isFile() ? 'f' : '?')).sort().join(','))),
  (cb) => fs.utimes('missing', 1, 1, (e) => cb('utimes missing', showE(e))),
  (cb) => fs.open('f', 'wx', (e) => cb('open wx', showE(e))),
  (cb) => fs.rmdir('f', (e) => cb('rmdir file', showE(e))),
  (cb) => fs.unlink('empty', (e) => cb('unlink dir', showE(e))),
  (cb) => fs.symlink('f', 'lnk2', (e) => fs.readlink('lnk2', (e2, t) => cb('symlink+readlink', showE(e), showE(e2), t))),
  (cb) => fs.copyFile('f', 'empty', (e) => cb('copyFile onto dir', showE(e))),
  (cb) => fs.mkdtemp('tmp-', (e, p) => cb('mkdtemp', showE(e), p.length, p.startsWith('tmp-'))),
  (cb) => fs.rm('full', (e) => cb('rm dir no recursive', showE(e))),
  (cb) => fs.rmdir('nope/x', (e) => cb('rmdir missing parent', showE(e))),
  (cb) => fs.realpath('loop1', (e) => cb('realpath loop', showE(e))),
  (cb) => fs.access('loop1', (e) => cb('access loop', showE(e))),
];
function next() { const s = steps.shift(); if (!s) return; s((...a) => { console.log(a.join(' ')); next(); }); }
next();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("f", []byte("0123456789"), nil))
		rev10sMust(t, os.Symlink("loop1", "loop2"))
		rev10sMust(t, os.Symlink("loop2", "loop1"))
		_, err := fs.MkdirSync("full", nil)
		rev10sMust(t, err)
		rev10sMust(t, fs.WriteFileSync("full/x", nil, nil))
		_, err = fs.MkdirSync("empty", nil)
		rev10sMust(t, err)
		rev10sMust(t, os.Symlink("full", "lnk"))
		show := rev10sErrFields
		undef := func(s string) string {
			if s == "" {
				return "undefined"
			}
			return s
		}
		exists := func(p string) bool { return fs.ExistsSync(p) }
		type step func(cb func(a ...any)) error
		steps := []step{
			func(cb func(...any)) error {
				return fs.Stat("loop1", func(e error, _ *nodefs.Stats) { cb("stat loop", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.ReadFile("loop1", func(e error, _ []byte) { cb("readFile loop", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.Readlink("f", func(e error, _ string) { cb("readlink file", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.Mkdir("m/a/b", &nodefs.MkdirOptions{Recursive: true}, func(e error, p string) { cb("mkdir recursive", show(e), undef(p)) })
			},
			func(cb func(...any)) error {
				return fs.Mkdir("m/a/b", &nodefs.MkdirOptions{Recursive: true}, func(e error, p string) { cb("mkdir recursive again", show(e), undef(p)) })
			},
			func(cb func(...any)) error {
				return fs.Mkdir("m/a", nil, func(e error, p string) { cb("mkdir exists", show(e), undef(p)) })
			},
			func(cb func(...any)) error {
				return fs.Rename("empty", "full", func(e error) { cb("rename onto non-empty", show(e)) })
			},
			func(cb func(...any)) error { return fs.Link("f", "f", func(e error) { cb("link exists", show(e)) }) },
			func(cb func(...any)) error {
				return fs.Truncate("f", -5, func(e error) {
					st, _ := fs.StatSync("f")
					cb("truncate negative", show(e), st.Size)
				})
			},
			func(cb func(...any)) error { return fs.Rmdir("full", func(e error) { cb("rmdir non-empty", show(e)) }) },
			func(cb func(...any)) error {
				return fs.Rm("lnk", &nodefs.RmOptions{Recursive: true}, func(e error) {
					cb("rm recursive symlink", show(e), exists("full/x"), exists("lnk"))
				})
			},
			func(cb func(...any)) error {
				return fs.ReaddirWithFileTypes(".", func(e error, ents []*nodefs.Dirent) {
					var names []string
					for _, d := range ents {
						k := "?"
						switch {
						case d.IsSymbolicLink():
							k = "l"
						case d.IsDirectory():
							k = "d"
						case d.IsFile():
							k = "f"
						}
						names = append(names, d.Name+":"+k)
					}
					sort.Strings(names)
					cb("readdir types", show(e), strings.Join(names, ","))
				})
			},
			func(cb func(...any)) error {
				return fs.Utimes("missing", time.Unix(1, 0), time.Unix(1, 0), func(e error) { cb("utimes missing", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.Open("f", "wx", 0o666, func(e error, _ int) { cb("open wx", show(e)) })
			},
			func(cb func(...any)) error { return fs.Rmdir("f", func(e error) { cb("rmdir file", show(e)) }) },
			func(cb func(...any)) error { return fs.Unlink("empty", func(e error) { cb("unlink dir", show(e)) }) },
			func(cb func(...any)) error {
				return fs.Symlink("f", "lnk2", func(e error) {
					fs.Readlink("lnk2", func(e2 error, target string) { cb("symlink+readlink", show(e), show(e2), target) })
				})
			},
			func(cb func(...any)) error {
				return fs.CopyFile("f", "empty", 0, func(e error) { cb("copyFile onto dir", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.Mkdtemp("tmp-", func(e error, p string) { cb("mkdtemp", show(e), len(p), strings.HasPrefix(p, "tmp-")) })
			},
			func(cb func(...any)) error {
				return fs.Rm("full", nil, func(e error) { cb("rm dir no recursive", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.Rmdir("nope/x", func(e error) { cb("rmdir missing parent", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.Realpath("loop1", func(e error, _ string) { cb("realpath loop", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.Access("loop1", nodefs.F_OK, func(e error) { cb("access loop", show(e)) })
			},
		}
		var next func()
		next = func() {
			if len(steps) == 0 {
				return
			}
			s := steps[0]
			steps = steps[1:]
			if err := s(func(a ...any) {
				parts := make([]string, len(a))
				for i, x := range a {
					parts[i] = fmt.Sprint(x)
				}
				log("%s", strings.Join(parts, " "))
				next()
			}); err != nil {
				log("threw %s", show(err))
				next()
			}
		}
		next()
	})
}

// The promise API rejects what the callback API throws (a NUL byte in a path, an unknown
// flag, a bad copyFile mode), and a FileHandle's calls after close reject with EBADF "file
// closed"; readFile from a handle reads from its position.
func TestRev10sPromisesRejections(t *testing.T) {
	const js = `
const fsp = fs.promises;
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ') : 'null'; }
(async () => {
  fs.writeFileSync('f', '0123456789');
  const tries = [
    ['open nul', () => fsp.open('a\0b', 'r')],
    ['readFile nul', () => fsp.readFile('a\0b')],
    ['open bad flag', () => fsp.open('f', 'zz')],
    ['mkdir recursive', () => fsp.mkdir('pm/a', { recursive: true })],
    ['rm dir', () => fsp.rm('pm')],
    ['copyFile bad mode', () => fsp.copyFile('f', 'g', 99)],
    ['readFile dir', () => fsp.readFile('pm')],
  ];
  for (const [n, f] of tries) {
    try {
      const v = await f();
      console.log(n, 'ok', typeof v === 'string' || v === undefined ? String(v) : typeof v);
    } catch (e) { console.log(n, 'rejected', showE(e)); }
  }
  const h = await fsp.open('f', 'r+');
  const r1 = await h.read(Buffer.alloc(4), 0, 4, null);
  console.log('read', r1.bytesRead);
  console.log('readFile rest', await h.readFile('utf8'));
  await h.truncate(3);
  console.log('size', (await h.stat()).size);
  console.log('write', (await h.write(Buffer.from('XY'), 0, 2, 0)).bytesWritten);
  await h.close();
  try { await h.stat(); } catch (e) { console.log('stat closed', showE(e)); }
  try { await h.truncate(1); } catch (e) { console.log('truncate closed', showE(e)); }
  console.log('content', JSON.stringify(fs.readFileSync('f', 'latin1')));
})();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		fsp := fs.Promises()
		show := rev10sErrFields
		promise.Async(l, func() (int, error) {
			rev10sMust(t, fs.WriteFileSync("f", []byte("0123456789"), nil))
			try := func(n string, v any, err error) {
				if err != nil {
					log("%s rejected %s", n, show(err))
					return
				}
				switch v := v.(type) {
				case string:
					log("%s ok %s", n, v)
				case nodefs.Void:
					log("%s ok undefined", n)
				default:
					log("%s ok object", n)
				}
			}
			h, err := promise.Await(fsp.Open("a\x00b", "r", 0o666))
			try("open nul", h, err)
			b, err := promise.Await(fsp.ReadFile("a\x00b"))
			try("readFile nul", b, err)
			h, err = promise.Await(fsp.Open("f", "zz", 0o666))
			try("open bad flag", h, err)
			first, err := promise.Await(fsp.Mkdir("pm/a", &nodefs.MkdirOptions{Recursive: true}))
			try("mkdir recursive", first, err)
			v, err := promise.Await(fsp.Rm("pm", nil))
			try("rm dir", v, err)
			v, err = promise.Await(fsp.CopyFile("f", "g", 99))
			try("copyFile bad mode", v, err)
			b, err = promise.Await(fsp.ReadFile("pm"))
			try("readFile dir", b, err)
			h, err = promise.Await(fsp.Open("f", "r+", 0o666))
			if err != nil {
				return 0, err
			}
			r1, err := promise.Await(h.Read(make([]byte, 4), 0, 4, -1))
			if err != nil {
				return 0, err
			}
			log("read %d", r1.BytesRead)
			rest, err := promise.Await(h.ReadFileString("utf8"))
			if err != nil {
				return 0, err
			}
			log("readFile rest %s", rest)
			if _, err := promise.Await(h.Truncate(3)); err != nil {
				return 0, err
			}
			st, err := promise.Await(h.Stat())
			if err != nil {
				return 0, err
			}
			log("size %d", st.Size)
			wr, err := promise.Await(h.Write([]byte("XY"), 0, 2, 0))
			if err != nil {
				return 0, err
			}
			log("write %d", wr.BytesWritten)
			if _, err := promise.Await(h.Close()); err != nil {
				return 0, err
			}
			if _, err := promise.Await(h.Stat()); err != nil {
				log("stat closed %s", show(err))
			}
			if _, err := promise.Await(h.Truncate(1)); err != nil {
				log("truncate closed %s", show(err))
			}
			c, _ := fs.ReadFileStringSync("f", "latin1")
			log("content %s", rev10sJSON(c))
			return 0, nil
		}).Catch(func(err error) (int, error) { log("body failed: %v", err); return 0, nil })
	})
}

// A NUL byte in any path argument is thrown (returned) at the call, naming the argument as
// node names it (readlink's is 'oldPath').
func TestRev10sNulPathArguments(t *testing.T) {
	const js = `
const nop = () => {};
const t = (n, f) => { try { f(); console.log(n, 'no throw'); } catch (e) { console.log(n, e.code, '|', e.message); } };
t('symlink target', () => fs.symlink('a\0', 'b', nop));
t('symlink path', () => fs.symlink('a', 'b\0', nop));
t('link existing', () => fs.link('a\0', 'b', nop));
t('link new', () => fs.link('a', 'b\0', nop));
t('copyFile src', () => fs.copyFile('a\0', 'b', nop));
t('copyFile dest', () => fs.copyFile('a', 'b\0', nop));
t('mkdtemp', () => fs.mkdtemp('p\0', nop));
t('readdir', () => fs.readdir('p\0', nop));
t('rm', () => fs.rm('p\0', nop));
t('truncate', () => fs.truncate('p\0', 0, nop));
t('utimes', () => fs.utimes('p\0', 1, 1, nop));
t('realpath', () => fs.realpath('p\0', nop));
t('access', () => fs.access('p\0', nop));
t('chmod', () => fs.chmod('p\0', 0o644, nop));
t('readlink', () => fs.readlink('p\0', nop));
t('appendFile', () => fs.appendFile('p\0', 'x', nop));
t('lstat', () => fs.lstat('p\0', nop));
t('unlink', () => fs.unlink('p\0', nop));
t('rmdir', () => fs.rmdir('p\0', nop));
t('mkdir rec', () => fs.mkdir('p\0', { recursive: true }, nop));
t('chown', () => fs.chown('p\0', 1, 1, nop));
t('rename old', () => fs.rename('a\0', 'b', nop));
t('writeFile', () => fs.writeFile('a\0', 'x', nop));
t('readFile', () => fs.readFile('a\0', nop));
t('open', () => fs.open('a\0', 'r', nop));
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		e1 := func(error) {}
		try := func(n string, err error) {
			if err == nil {
				log("%s no throw", n)
				return
			}
			var e *nodefs.Error
			if errors.As(err, &e) {
				log("%s %s | %s", n, e.Code, e.Message)
				return
			}
			log("%s %v", n, err)
		}
		try("symlink target", fs.Symlink("a\x00", "b", e1))
		try("symlink path", fs.Symlink("a", "b\x00", e1))
		try("link existing", fs.Link("a\x00", "b", e1))
		try("link new", fs.Link("a", "b\x00", e1))
		try("copyFile src", fs.CopyFile("a\x00", "b", 0, e1))
		try("copyFile dest", fs.CopyFile("a", "b\x00", 0, e1))
		try("mkdtemp", fs.Mkdtemp("p\x00", func(error, string) {}))
		try("readdir", fs.Readdir("p\x00", func(error, []string) {}))
		try("rm", fs.Rm("p\x00", nil, e1))
		try("truncate", fs.Truncate("p\x00", 0, e1))
		try("utimes", fs.Utimes("p\x00", time.Unix(1, 0), time.Unix(1, 0), e1))
		try("realpath", fs.Realpath("p\x00", func(error, string) {}))
		try("access", fs.Access("p\x00", nodefs.F_OK, e1))
		try("chmod", fs.Chmod("p\x00", 0o644, e1))
		try("readlink", fs.Readlink("p\x00", func(error, string) {}))
		try("appendFile", fs.AppendFile("p\x00", []byte("x"), nil, e1))
		try("lstat", fs.Lstat("p\x00", func(error, *nodefs.Stats) {}))
		try("unlink", fs.Unlink("p\x00", e1))
		try("rmdir", fs.Rmdir("p\x00", e1))
		try("mkdir rec", fs.Mkdir("p\x00", &nodefs.MkdirOptions{Recursive: true}, func(error, string) {}))
		try("chown", fs.Chown("p\x00", 1, 1, e1))
		try("rename old", fs.Rename("a\x00", "b", e1))
		try("writeFile", fs.WriteFile("a\x00", []byte("x"), nil, e1))
		try("readFile", fs.ReadFile("a\x00", func(error, []byte) {}))
		try("open", fs.Open("a\x00", "r", 0o666, func(error, int) {}))
	})
}

// copyFile's clone flags: COPYFILE_FICLONE falls back to a copy, COPYFILE_FICLONE_FORCE
// fails where the file system cannot clone (the twin runs on the same file system), and
// COPYFILE_EXCL with a clone flag still refuses an existing destination.
func TestRev10sCopyFileCloneFlags(t *testing.T) {
	const js = `
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ') : 'null'; }
fs.writeFileSync('cf', 'data');
fs.copyFile('cf', 'cf2', fs.constants.COPYFILE_FICLONE, (e) => {
  console.log('ficlone', showE(e), fs.readFileSync('cf2', 'utf8'));
  fs.copyFile('cf', 'cf3', fs.constants.COPYFILE_FICLONE_FORCE, (e) => {
    console.log('force', showE(e), fs.existsSync('cf3') ? fs.readFileSync('cf3', 'utf8') : 'none');
    fs.copyFile('cf', 'cf2', fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE, (e) => console.log('excl', showE(e)));
  });
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("cf", []byte("data"), nil))
		read := func(p string) string {
			if !fs.ExistsSync(p) {
				return "none"
			}
			b, _ := fs.ReadFileStringSync(p, "utf8")
			return b
		}
		rev10sMust(t, fs.CopyFile("cf", "cf2", nodefs.COPYFILE_FICLONE, func(e error) {
			log("ficlone %s %s", rev10sErrFields(e), read("cf2"))
			rev10sMust(t, fs.CopyFile("cf", "cf3", nodefs.COPYFILE_FICLONE_FORCE, func(e error) {
				log("force %s %s", rev10sErrFields(e), read("cf3"))
				rev10sMust(t, fs.CopyFile("cf", "cf2", nodefs.COPYFILE_EXCL|nodefs.COPYFILE_FICLONE, func(e error) {
					log("excl %s", rev10sErrFields(e))
				}))
			}))
		}))
	})
}
