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
			func(cb func(...any)) error { return fs.Stat("loop1", func(e error, _ *nodefs.Stats) { cb("stat loop", show(e)) }) },
			func(cb func(...any)) error { return fs.ReadFile("loop1", func(e error, _ []byte) { cb("readFile loop", show(e)) }) },
			func(cb func(...any)) error { return fs.Readlink("f", func(e error, _ string) { cb("readlink file", show(e)) }) },
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
			func(cb func(...any)) error { return fs.Open("f", "wx", 0o666, func(e error, _ int) { cb("open wx", show(e)) }) },
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
			func(cb func(...any)) error { return fs.Rm("full", nil, func(e error) { cb("rm dir no recursive", show(e)) }) },
			func(cb func(...any)) error { return fs.Rmdir("nope/x", func(e error) { cb("rmdir missing parent", show(e)) }) },
			func(cb func(...any)) error {
				return fs.Realpath("loop1", func(e error, _ string) { cb("realpath loop", show(e)) })
			},
			func(cb func(...any)) error { return fs.Access("loop1", nodefs.F_OK, func(e error) { cb("access loop", show(e)) }) },
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
