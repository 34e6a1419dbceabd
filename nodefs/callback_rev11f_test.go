package nodefs_test

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// The callback API's descriptor calls and less common path calls, one after the other:
// writeFile's and appendFile's mode (only when they create the file), fsync, fdatasync,
// fchmod, futimes, ftruncate (growing, negative), write with an offset and a position and a
// string at the file's position, read at a position and at the file's position, chown of
// an own file and of a missing one, truncate shrinking and growing, copyFile and its
// COPYFILE_EXCL, mkdtemp's prefix (a file name, a directory), mkdir's mode, a directory
// symlink, a hard link to a directory (EPERM), rename, rm recursive with force, rmdir of a
// missing path: results and errors are node's.
func TestRev11fCallbackFdAndPathCalls(t *testing.T) {
	const js = `
function showE(e) { return e ? [e.code, e.errno, e.syscall, e.path, e.dest, '|', e.message].join(' ') : 'null'; }
let fd;
fs.writeFileSync('f', '0123456789', { mode: 0o600 });
fs.writeFileSync('f', 'x', { mode: 0o777 });
fs.appendFileSync('a', 'y', { mode: 0o640 });
fs.writeFileSync('w', 'z', { mode: 0o777 });
console.log('modes', ...['f', 'a', 'w'].map((p) => (fs.statSync(p).mode & 0o777).toString(8)));
fs.writeFileSync('f', '0123456789');
const steps = [
  (cb) => fs.open('f', 'r+', (e, d) => { fd = d; cb('open', showE(e)); }),
  (cb) => fs.fsync(fd, (e) => cb('fsync', showE(e))),
  (cb) => fs.fdatasync(fd, (e) => cb('fdatasync', showE(e))),
  (cb) => fs.fchmod(fd, 0o604, (e) => cb('fchmod', showE(e), (fs.statSync('f').mode & 0o777).toString(8))),
  (cb) => fs.futimes(fd, 5, 7.5, (e) => fs.fstat(fd, (e2, s) => cb('futimes', showE(e), s.atimeMs, s.mtimeMs))),
  (cb) => fs.ftruncate(fd, 20, (e) => cb('ftruncate grow', showE(e), fs.statSync('f').size)),
  (cb) => fs.ftruncate(fd, -1, (e) => cb('ftruncate neg', showE(e), fs.statSync('f').size)),
  (cb) => fs.write(fd, Buffer.from('hello'), 1, 3, 2, (e, n, b) => cb('write', showE(e), n, b.toString())),
  (cb) => fs.write(fd, 'héllo', null, 'latin1', (e, n, s) => cb('write str', showE(e), n, s)),
  (cb) => fs.read(fd, Buffer.alloc(6), 0, 6, 0, (e, n, b) => cb('read', showE(e), n, JSON.stringify(b.toString('latin1')))),
  (cb) => fs.read(fd, Buffer.alloc(6), 0, 6, null, (e, n, b) => cb('read cur', showE(e), n, JSON.stringify(b.toString('latin1')))),
  (cb) => fs.close(fd, (e) => cb('close', showE(e))),
  (cb) => fs.chown('f', process.getuid(), process.getgid(), (e) => cb('chown own', showE(e))),
  (cb) => fs.chown('nope', 0, 0, (e) => cb('chown missing', showE(e))),
  (cb) => fs.truncate('f', 3, (e) => cb('truncate', showE(e), fs.readFileSync('f', 'latin1'))),
  (cb) => fs.truncate('f', 6, (e) => cb('truncate grow', showE(e), JSON.stringify(fs.readFileSync('f', 'latin1')))),
  (cb) => fs.copyFile('f', 'g', (e) => fs.copyFile('f', 'g', fs.constants.COPYFILE_EXCL, (e2) => cb('copyFile', showE(e), showE(e2), (fs.statSync('g').mode & 0o777).toString(8)))),
  (cb) => fs.mkdtemp('f', (e, p) => cb('mkdtemp file prefix', showE(e), p.length, p.startsWith('f'))),
  (cb) => fs.mkdir('m', { mode: 0o700 }, (e) => cb('mkdir mode', showE(e), (fs.statSync('m').mode & 0o777).toString(8))),
  (cb) => fs.mkdtemp('m/', (e, p) => cb('mkdtemp dir prefix', showE(e), p.length, p.startsWith('m/'), (fs.statSync(p).mode & 0o777).toString(8))),
  (cb) => fs.symlink('m', 'ml', 'dir', (e) => fs.lstat('ml', (e2, s) => cb('symlink dir', showE(e), s.isSymbolicLink()))),
  (cb) => fs.link('m', 'mh', (e) => cb('link dir', showE(e))),
  (cb) => fs.link('nope', 'nh', (e) => cb('link missing', showE(e))),
  (cb) => fs.rename('m', 'f', (e) => cb('rename dir over file', showE(e))),
  (cb) => fs.rename('f', 'f2', (e) => cb('rename', showE(e), fs.existsSync('f'), fs.existsSync('f2'))),
  (cb) => fs.rm('m', { recursive: true, force: true }, (e) => cb('rm rec', showE(e), fs.existsSync('m'), fs.existsSync('ml'))),
  (cb) => fs.rm('nope/deeper', { recursive: true, force: true }, (e) => cb('rm rec force missing', showE(e))),
  (cb) => fs.rmdir('nope', (e) => cb('rmdir missing', showE(e))),
  (cb) => fs.readdir('.', (e, n) => cb('readdir', showE(e), n.filter((x) => !x.endsWith('.js') && !x.startsWith('f') || x === 'f2').sort().join(','))),
];
function next() { const s = steps.shift(); if (!s) return; s((...a) => { console.log(a.join(' ')); next(); }); }
next();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		show := rev10sErrFields
		mode := func(p string) string { s, _ := fs.StatSync(p); return strconv.FormatUint(s.Mode&0o777, 8) }
		size := func(p string) int64 { s, _ := fs.StatSync(p); return s.Size }
		ms := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
		rev10sMust(t, fs.WriteFileSync("f", []byte("0123456789"), &nodefs.WriteOptions{Mode: 0o600}))
		rev10sMust(t, fs.WriteFileSync("f", []byte("x"), &nodefs.WriteOptions{Mode: 0o777}))
		rev10sMust(t, fs.AppendFileSync("a", []byte("y"), &nodefs.WriteOptions{Mode: 0o640}))
		rev10sMust(t, fs.WriteFileSync("w", []byte("z"), &nodefs.WriteOptions{Mode: 0o777}))
		log("modes %s %s %s", mode("f"), mode("a"), mode("w"))
		rev10sMust(t, fs.WriteFileSync("f", []byte("0123456789"), nil))
		var fd int
		latin1 := func(b []byte) string { s, _ := nodefs.Encode(b, "latin1"); return rev10sJSON(s) }
		steps := []func(cb func(a ...any)) error{
			func(cb func(...any)) error {
				return fs.Open("f", "r+", 0o666, func(e error, d int) { fd = d; cb("open", show(e)) })
			},
			func(cb func(...any)) error { return fs.Fsync(fd, func(e error) { cb("fsync", show(e)) }) },
			func(cb func(...any)) error { return fs.Fdatasync(fd, func(e error) { cb("fdatasync", show(e)) }) },
			func(cb func(...any)) error {
				return fs.Fchmod(fd, 0o604, func(e error) { cb("fchmod", show(e), mode("f")) })
			},
			func(cb func(...any)) error {
				return fs.Futimes(fd, time.Unix(5, 0), time.Unix(7, 500e6), func(e error) {
					fs.Fstat(fd, func(e2 error, s *nodefs.Stats) { cb("futimes", show(e), ms(s.AtimeMs), ms(s.MtimeMs)) })
				})
			},
			func(cb func(...any)) error {
				return fs.Ftruncate(fd, 20, func(e error) { cb("ftruncate grow", show(e), size("f")) })
			},
			func(cb func(...any)) error {
				return fs.Ftruncate(fd, -1, func(e error) { cb("ftruncate neg", show(e), size("f")) })
			},
			func(cb func(...any)) error {
				return fs.Write(fd, []byte("hello"), 1, 3, 2, func(e error, n int, b []byte) { cb("write", show(e), n, string(b)) })
			},
			func(cb func(...any)) error {
				return fs.WriteString(fd, "héllo", -1, "latin1", func(e error, n int, s string) { cb("write str", show(e), n, s) })
			},
			func(cb func(...any)) error {
				return fs.Read(fd, make([]byte, 6), 0, 6, 0, func(e error, n int, b []byte) { cb("read", show(e), n, latin1(b)) })
			},
			func(cb func(...any)) error {
				return fs.Read(fd, make([]byte, 6), 0, 6, -1, func(e error, n int, b []byte) { cb("read cur", show(e), n, latin1(b)) })
			},
			func(cb func(...any)) error { return fs.Close(fd, func(e error) { cb("close", show(e)) }) },
			func(cb func(...any)) error {
				return fs.Chown("f", syscall.Getuid(), syscall.Getgid(), func(e error) { cb("chown own", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.Chown("nope", 0, 0, func(e error) { cb("chown missing", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.Truncate("f", 3, func(e error) { c, _ := fs.ReadFileStringSync("f", "latin1"); cb("truncate", show(e), c) })
			},
			func(cb func(...any)) error {
				return fs.Truncate("f", 6, func(e error) {
					c, _ := fs.ReadFileStringSync("f", "latin1")
					cb("truncate grow", show(e), rev10sJSON(c))
				})
			},
			func(cb func(...any)) error {
				return fs.CopyFile("f", "g", 0, func(e error) {
					fs.CopyFile("f", "g", nodefs.COPYFILE_EXCL, func(e2 error) { cb("copyFile", show(e), show(e2), mode("g")) })
				})
			},
			func(cb func(...any)) error {
				return fs.Mkdtemp("f", func(e error, p string) { cb("mkdtemp file prefix", show(e), len(p), strings.HasPrefix(p, "f")) })
			},
			func(cb func(...any)) error {
				return fs.Mkdir("m", &nodefs.MkdirOptions{Mode: 0o700}, func(e error, _ string) { cb("mkdir mode", show(e), mode("m")) })
			},
			func(cb func(...any)) error {
				return fs.Mkdtemp("m/", func(e error, p string) {
					cb("mkdtemp dir prefix", show(e), len(p), strings.HasPrefix(p, "m/"), mode(p))
				})
			},
			func(cb func(...any)) error {
				return fs.Symlink("m", "ml", func(e error) {
					fs.Lstat("ml", func(e2 error, s *nodefs.Stats) { cb("symlink dir", show(e), s.IsSymbolicLink()) })
				})
			},
			func(cb func(...any)) error { return fs.Link("m", "mh", func(e error) { cb("link dir", show(e)) }) },
			func(cb func(...any)) error {
				return fs.Link("nope", "nh", func(e error) { cb("link missing", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.Rename("m", "f", func(e error) { cb("rename dir over file", show(e)) })
			},
			func(cb func(...any)) error {
				return fs.Rename("f", "f2", func(e error) { cb("rename", show(e), fs.ExistsSync("f"), fs.ExistsSync("f2")) })
			},
			func(cb func(...any)) error {
				return fs.Rm("m", &nodefs.RmOptions{Recursive: true, Force: true}, func(e error) {
					cb("rm rec", show(e), fs.ExistsSync("m"), fs.ExistsSync("ml"))
				})
			},
			func(cb func(...any)) error {
				return fs.Rm("nope/deeper", &nodefs.RmOptions{Recursive: true, Force: true}, func(e error) { cb("rm rec force missing", show(e)) })
			},
			func(cb func(...any)) error { return fs.Rmdir("nope", func(e error) { cb("rmdir missing", show(e)) }) },
			func(cb func(...any)) error {
				return fs.Readdir(".", func(e error, names []string) {
					var keep []string
					for _, n := range names {
						if !strings.HasPrefix(n, "f") || n == "f2" {
							keep = append(keep, n)
						}
					}
					sort.Strings(keep)
					cb("readdir", show(e), strings.Join(keep, ","))
				})
			},
		}
		rev11fChain(log, show, steps)
	})
}

// rev11fChain runs the steps one after the other, as the twins' next(): each logs its
// callback's arguments joined by spaces; a step that throws logs it and the next one runs.
func rev11fChain(log func(string, ...any), show func(error) string, steps []func(cb func(a ...any)) error) {
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
}
