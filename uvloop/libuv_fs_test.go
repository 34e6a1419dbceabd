package uvloop_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test-fs.c (the cases that apply; each test names the one it ports) and
// of threadpool_cancel_fs, then uvgo's own: error shapes, bad input, allocations.

// fsRun starts one request with start, runs the loop until it is done, and returns the
// request as its callback saw it.
func fsRun(t *testing.T, l *uvloop.Loop, start func(req *uvloop.FSReq, cb func(*uvloop.FSReq)) error) *uvloop.FSReq {
	t.Helper()
	req := new(uvloop.FSReq)
	called := 0
	mustOK(t, start(req, func(r *uvloop.FSReq) {
		if r != req {
			t.Errorf("callback got another request")
		}
		if r.InFlight() {
			t.Errorf("request in flight inside its callback")
		}
		called++
	}))
	if !req.InFlight() {
		t.Fatalf("request not in flight after start")
	}
	mustRunMode(t, l, uvloop.RunDefault)
	if called != 1 {
		t.Fatalf("callback ran %d times", called)
	}
	return req
}

// fs_file_noent: opening a file that does not exist fails with ENOENT, in the callback and
// in synchronous mode, as a *fs.PathError that matches fs.ErrNotExist.
func TestFsFileNoent(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	missing := filepath.Join(t.TempDir(), "does_not_exist")
	req := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
		return l.FSOpen(r, missing, os.O_RDONLY, 0, cb)
	})
	err := req.Err()
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "open" || pe.Path != missing {
		t.Fatalf("err = %#v", err)
	}
	if !errors.Is(err, syscall.ENOENT) || !errors.Is(err, fs.ErrNotExist) || req.Result() != -1 {
		t.Fatalf("err = %v, result %d", err, req.Result())
	}
	var sync uvloop.FSReq
	if err := l.FSOpen(&sync, missing, os.O_RDONLY, 0, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("sync open: %v", err)
	}
}

// fs_file_async: create, write, read back, rename, fstat and unlink a file, each step from
// the previous one's callback, reusing one request.
func TestFsFileAsync(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	dir := t.TempDir()
	p, p2 := filepath.Join(dir, "test_file"), filepath.Join(dir, "test_file2")
	text := []byte("test-buffer\n")
	req := new(uvloop.FSReq)
	buf := make([]byte, 32)
	var steps []string
	fail := func(r *uvloop.FSReq) bool {
		if r.Err() != nil {
			t.Errorf("%s: %v", r.Op(), r.Err())
			return true
		}
		steps = append(steps, r.Op())
		return false
	}
	fd := -1
	mustOK(t, l.FSOpen(req, p, os.O_WRONLY|os.O_CREATE, 0o600, func(r *uvloop.FSReq) {
		if fail(r) {
			return
		}
		fd = int(r.Result())
		mustOK(t, l.FSWrite(r, fd, text, -1, func(r *uvloop.FSReq) {
			if fail(r) || r.Result() != int64(len(text)) {
				return
			}
			mustOK(t, l.FSClose(r, fd, func(r *uvloop.FSReq) {
				if fail(r) {
					return
				}
				mustOK(t, l.FSRename(r, p, p2, func(r *uvloop.FSReq) {
					if fail(r) {
						return
					}
					mustOK(t, l.FSOpen(r, p2, os.O_RDONLY, 0, func(r *uvloop.FSReq) {
						if fail(r) {
							return
						}
						fd = int(r.Result())
						mustOK(t, l.FSRead(r, fd, buf, 0, func(r *uvloop.FSReq) {
							if fail(r) || !bytes.Equal(buf[:r.Result()], text) {
								t.Errorf("read %q", buf[:max(r.Result(), 0)])
								return
							}
							mustOK(t, l.FSFstat(r, fd, func(r *uvloop.FSReq) {
								if st := r.Stat(); fail(r) || st.Size != int64(len(text)) || !st.IsRegular() || st.Mode&0o777 != 0o600 {
									t.Errorf("fstat %+v", r.Stat())
									return
								}
								mustOK(t, l.FSClose(r, fd, func(r *uvloop.FSReq) {
									if fail(r) {
										return
									}
									mustOK(t, l.FSUnlink(r, p2, func(r *uvloop.FSReq) { fail(r) }))
								}))
							}))
						}))
					}))
				}))
			}))
		}))
	}))
	mustRunMode(t, l, uvloop.RunDefault)
	want := "open write close rename open read fstat close unlink"
	if got := joinWords(steps); got != want {
		t.Fatalf("steps %q, want %q", got, want)
	}
}

func joinWords(s []string) string {
	var b bytes.Buffer
	for i, w := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// fs_async_dir: mkdir, scandir (sorted, typed), stat and lstat of a directory, rmdir of a
// non-empty and then an empty directory.
func TestFsAsyncDir(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	dir := filepath.Join(t.TempDir(), "test_dir")
	req := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSMkdir(r, dir, 0o755, cb) })
	mustOK(t, req.Err())
	mustOK(t, os.WriteFile(filepath.Join(dir, "file2"), nil, 0o600))
	mustOK(t, os.WriteFile(filepath.Join(dir, "file1"), nil, 0o600))
	mustOK(t, os.Mkdir(filepath.Join(dir, "sub"), 0o700))
	req = fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSScandir(r, dir, cb) })
	mustOK(t, req.Err())
	want := []uvloop.Dirent{{Name: "file1", Type: uvloop.DirentFile}, {Name: "file2", Type: uvloop.DirentFile}, {Name: "sub", Type: uvloop.DirentDir}}
	if got := req.Dirents(); len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("scandir: %v", got)
	}
	for _, op := range []func(*uvloop.FSReq, string, func(*uvloop.FSReq)) error{l.FSStat, l.FSLstat} {
		req = fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return op(r, dir, cb) })
		if st := req.Stat(); req.Err() != nil || !st.IsDir() || !st.FileMode().IsDir() {
			t.Fatalf("%s: %+v %v", req.Op(), st, req.Err())
		}
	}
	req = fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRmdir(r, dir, cb) })
	if !errors.Is(req.Err(), syscall.ENOTEMPTY) && !errors.Is(req.Err(), syscall.EEXIST) {
		t.Fatalf("rmdir non-empty: %v", req.Err())
	}
	mustOK(t, os.RemoveAll(filepath.Join(dir, "sub")))
	mustOK(t, os.Remove(filepath.Join(dir, "file1")))
	mustOK(t, os.Remove(filepath.Join(dir, "file2")))
	req = fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRmdir(r, dir, cb) })
	mustOK(t, req.Err())
}

// fs_scandir_file / fs_scandir_non_existent_dir: ENOTDIR, ENOENT.
func TestFsScandirErrors(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	mustOK(t, os.WriteFile(file, nil, 0o600))
	for _, c := range []struct {
		path string
		want syscall.Errno
	}{{file, syscall.ENOTDIR}, {filepath.Join(dir, "none"), syscall.ENOENT}} {
		req := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSScandir(r, c.path, cb) })
		var pe *fs.PathError
		if !errors.Is(req.Err(), c.want) || !errors.As(req.Err(), &pe) || pe.Op != "scandir" || pe.Path != c.path {
			t.Fatalf("scandir %s: %v", c.path, req.Err())
		}
	}
}

// fs_mkdtemp: two directories from one template differ, are directories, and the template
// must end in XXXXXX.
func TestFsMkdtemp(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	tpl := filepath.Join(t.TempDir(), "test_dir_XXXXXX")
	var names []string
	for range 2 {
		req := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSMkdtemp(r, tpl, cb) })
		mustOK(t, req.Err())
		name := req.ResultPath()
		if len(name) != len(tpl) || name[:len(tpl)-6] != tpl[:len(tpl)-6] {
			t.Fatalf("mkdtemp: %q", name)
		}
		if st, err := os.Stat(name); err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 {
			t.Fatalf("mkdtemp made %v %v", st, err)
		}
		names = append(names, name)
	}
	if names[0] == names[1] {
		t.Fatalf("mkdtemp twice: %q", names[0])
	}
	req := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSMkdtemp(r, "no-template", cb) })
	if !errors.Is(req.Err(), syscall.EINVAL) {
		t.Fatalf("bad template: %v", req.Err())
	}
}

// fs_copyfile: copy a file, copy onto an existing file (truncating it), onto itself
// (nothing changes), with CopyfileExcl onto an existing file (EEXIST), from a missing file
// (ENOENT, as an *os.LinkError with both paths), and with unknown flags (EINVAL).
func TestFsCopyfile(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src"), filepath.Join(dir, "dst")
	mustOK(t, os.WriteFile(src, []byte("source contents"), 0o640))
	copyfile := func(from, to string, flags int) error {
		return fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSCopyfile(r, from, to, flags, cb) }).Err()
	}
	mustOK(t, copyfile(src, dst, 0))
	if b, _ := os.ReadFile(dst); string(b) != "source contents" {
		t.Fatalf("copy: %q", b)
	}
	if st, _ := os.Stat(dst); st.Mode().Perm() != 0o640 {
		t.Fatalf("copy mode %v", st.Mode())
	}
	mustOK(t, os.WriteFile(dst, []byte("a much longer destination file"), 0o600))
	mustOK(t, copyfile(src, dst, 0))
	if b, _ := os.ReadFile(dst); string(b) != "source contents" {
		t.Fatalf("copy over: %q", b)
	}
	mustOK(t, copyfile(src, src, 0))
	if b, _ := os.ReadFile(src); string(b) != "source contents" {
		t.Fatalf("copy onto itself: %q", b)
	}
	err := copyfile(src, dst, uvloop.CopyfileExcl)
	var le *os.LinkError
	if !errors.Is(err, fs.ErrExist) || !errors.As(err, &le) || le.Op != "copyfile" || le.Old != src || le.New != dst {
		t.Fatalf("excl: %#v", err)
	}
	if err := copyfile(filepath.Join(dir, "none"), dst, 0); !errors.Is(err, syscall.ENOENT) {
		t.Fatalf("missing source: %v", err)
	}
	if err := copyfile(src, dst, 1<<10); !errors.Is(err, syscall.EINVAL) {
		t.Fatalf("bad flags: %v", err)
	}
	mustOK(t, copyfile(src, filepath.Join(dir, "ficlone"), uvloop.CopyfileFicloneTry))
}

// fs_symlink, fs_readlink, fs_realpath, fs_link: links and what resolves them.
func TestFsSymlinkReadlinkRealpath(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	target, link, hard := filepath.Join(dir, "target"), filepath.Join(dir, "link"), filepath.Join(dir, "hard")
	mustOK(t, os.WriteFile(target, []byte("x"), 0o600))
	run := func(start func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error) *uvloop.FSReq {
		return fsRun(t, l, start)
	}
	mustOK(t, run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSSymlink(r, "target", link, cb) }).Err())
	if req := run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSReadlink(r, link, cb) }); req.Err() != nil || req.ResultPath() != "target" {
		t.Fatalf("readlink: %q %v", req.ResultPath(), req.Err())
	}
	if req := run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRealpath(r, dir+"/./link", cb) }); req.Err() != nil || req.ResultPath() != target {
		t.Fatalf("realpath: %q %v", req.ResultPath(), req.Err())
	}
	if req := run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSLstat(r, link, cb) }); !req.Stat().IsSymlink() {
		t.Fatalf("lstat of a link: %+v", req.Stat())
	}
	if req := run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSReadlink(r, target, cb) }); !errors.Is(req.Err(), syscall.EINVAL) {
		t.Fatalf("readlink of a file: %v", req.Err())
	}
	mustOK(t, run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSLink(r, target, hard, cb) }).Err())
	if req := run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSStat(r, hard, cb) }); req.Stat().Nlink != 2 {
		t.Fatalf("nlink %d", req.Stat().Nlink)
	}
	err := run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSSymlink(r, "target", link, cb) }).Err()
	var le *os.LinkError
	if !errors.Is(err, fs.ErrExist) || !errors.As(err, &le) || le.Op != "symlink" {
		t.Fatalf("symlink over a file: %v", err)
	}
	if err := run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRealpath(r, dir+"/none/x", cb) }).Err(); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("realpath of a missing path: %v", err)
	}
}

// fs_chmod, fs_utime, fs_futime, fs_fsync, fs_fdatasync, fs_ftruncate, fs_access, fs_chown
// (to the owner it has).
func TestFsMetadata(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	p := filepath.Join(t.TempDir(), "f")
	mustOK(t, os.WriteFile(p, []byte("0123456789"), 0o600))
	run := func(start func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error) {
		t.Helper()
		req := fsRun(t, l, start)
		if req.Err() != nil {
			t.Fatalf("%s: %v", req.Op(), req.Err())
		}
	}
	run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSChmod(r, p, 0o640, cb) })
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 {
		t.Fatalf("chmod: %v", st.Mode())
	}
	at, mt := time.Unix(400497753, 0), time.Unix(400497754, 500000000)
	run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSUtime(r, p, at, mt, cb) })
	var req uvloop.FSReq
	mustOK(t, l.FSStat(&req, p, nil))
	if st := req.Stat(); !st.Atime.Time().Equal(at) || !st.Mtime.Time().Equal(mt) {
		t.Fatalf("utime: %v %v", st.Atime.Time(), st.Mtime.Time())
	}
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	mustOK(t, err)
	defer f.Close()
	fd := int(f.Fd())
	run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFchmod(r, fd, 0o600, cb) })
	run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFutime(r, fd, mt, at, cb) })
	run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFsync(r, fd, cb) })
	run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFdatasync(r, fd, cb) })
	mustOK(t, l.FSFstat(&req, fd, nil))
	if st := req.Stat(); st.Mode&0o777 != 0o600 || !st.Mtime.Time().Equal(at) {
		t.Fatalf("fstat after fchmod, futime: %+v", st)
	}
	run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFtruncate(r, fd, 4, cb) })
	mustOK(t, l.FSFstat(&req, fd, nil))
	if st := req.Stat(); st.Size != 4 {
		t.Fatalf("fstat after ftruncate: %+v", st)
	}
	run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
		return l.FSAccess(r, p, uvloop.AccessRead|uvloop.AccessWrite, cb)
	})
	run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSChown(r, p, -1, -1, cb) })
	run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFchown(r, fd, -1, -1, cb) })
	run(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSLchown(r, p, -1, -1, cb) })
	if err := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFtruncate(r, fd, -1, cb) }).Err(); !errors.Is(err, syscall.EINVAL) {
		t.Fatalf("ftruncate -1: %v", err)
	}
}

// fs_write_multiple_bufs, fs_read_bufs, fs_sendfile: vectored I/O at positions, and
// sendfile between files.
func TestFsVectoredAndSendfile(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	dir := t.TempDir()
	var req uvloop.FSReq
	mustOK(t, l.FSOpen(&req, filepath.Join(dir, "v"), os.O_RDWR|os.O_CREATE, 0o600, nil))
	fd := int(req.Result())
	wr := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
		return l.FSWritev(r, fd, [][]byte{[]byte("hello "), []byte("vectored "), []byte("world")}, 0, cb)
	})
	if wr.Err() != nil || wr.Result() != 20 {
		t.Fatalf("writev: %d %v", wr.Result(), wr.Err())
	}
	a, b := make([]byte, 6), make([]byte, 100)
	rd := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSReadv(r, fd, [][]byte{a, b}, 0, cb) })
	if rd.Err() != nil || rd.Result() != 20 || string(a) != "hello " || string(b[:14]) != "vectored world" {
		t.Fatalf("readv: %d %v %q %q", rd.Result(), rd.Err(), a, b[:14])
	}
	mustOK(t, l.FSOpen(&req, filepath.Join(dir, "out"), os.O_WRONLY|os.O_CREATE, 0o600, nil))
	out := int(req.Result())
	sf := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSSendfile(r, out, fd, 6, 100, cb) })
	if sf.Err() != nil || sf.Result() != 14 {
		t.Fatalf("sendfile: %d %v", sf.Result(), sf.Err())
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "out")); string(got) != "vectored world" {
		t.Fatalf("sendfile wrote %q", got)
	}
	mustOK(t, l.FSClose(&req, out, nil))
	mustOK(t, l.FSClose(&req, fd, nil))
}

// fs_read_bad_fd (bad input): a closed descriptor gives EBADF as an *os.SyscallError named
// after the call; a directory where a file is expected gives EISDIR; a negative sendfile
// length EINVAL; and the loop goes on.
func TestFsBadInput(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	dir := t.TempDir()
	buf := make([]byte, 4)
	cases := []struct {
		name  string
		start func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error
		op    string
		errno syscall.Errno
	}{
		{"read closed fd", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRead(r, 1<<20, buf, 0, cb) }, "read", syscall.EBADF},
		{"write negative fd", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSWrite(r, -1, buf, 0, cb) }, "write", syscall.EBADF},
		{"fstat bad fd", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFstat(r, -5, cb) }, "fstat", syscall.EBADF},
		{"close bad fd", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSClose(r, 1<<20, cb) }, "close", syscall.EBADF},
		{"open dir for writing", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSOpen(r, dir, os.O_WRONLY, 0, cb)
		}, "open", syscall.EISDIR},
		{"empty path", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSStat(r, "", cb) }, "stat", syscall.ENOENT},
		{"NUL in path", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSStat(r, "a\x00b", cb) }, "stat", syscall.EINVAL},
		{"unlink dir", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSUnlink(r, dir, cb) }, "unlink", syscall.EISDIR},
		{"sendfile negative length", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSSendfile(r, 1, 0, 0, -1, cb) }, "sendfile", syscall.EINVAL},
		{"mkdir existing", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSMkdir(r, dir, 0o755, cb) }, "mkdir", syscall.EEXIST},
		{"open bad flags", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSOpen(r, filepath.Join(dir, "x"), os.O_RDONLY|os.O_EXCL, 0, cb)
		}, "open", syscall.ENOENT},
	}
	for _, c := range cases {
		req := fsRun(t, l, c.start)
		if req.Op() != c.op || !errors.Is(req.Err(), c.errno) || req.Result() != -1 {
			t.Errorf("%s: op %q err %v result %d, want %s %v", c.name, req.Op(), req.Err(), req.Result(), c.op, c.errno)
		}
	}
	if errors.Is(fsRun(t, l, cases[0].start).Err(), fs.ErrNotExist) {
		t.Errorf("EBADF matches fs.ErrNotExist")
	}
}

// threadpool_cancel_fs: requests queued behind busy workers can be cancelled; each callback
// then gets ECANCELED (with its path), and the loop ends.
func TestFsCancel(t *testing.T) {
	l, err := uvloop.New(uvloop.WithWorkers(1))
	mustOK(t, err)
	defer closeLoop(t, l)
	uvloop.FSOnRing(l, false) // queued on the pool, on io_uring too (TestFsRingCancel: the ring's)
	done := 0
	release := blockWorkers(t, l, 1, &done)
	p := filepath.Join(t.TempDir(), "x")
	reqs := make([]uvloop.FSReq, 4)
	canceled := 0
	cb := func(r *uvloop.FSReq) {
		var pe *fs.PathError
		if !errors.Is(r.Err(), syscall.ECANCELED) || !errors.As(r.Err(), &pe) || pe.Path != p {
			t.Errorf("%s: %v", r.Op(), r.Err())
		}
		canceled++
	}
	mustOK(t, l.FSStat(&reqs[0], p, cb))
	mustOK(t, l.FSMkdir(&reqs[1], p, 0o700, cb))
	mustOK(t, l.FSUnlink(&reqs[2], p, cb))
	mustOK(t, l.FSOpen(&reqs[3], p, os.O_RDONLY, 0, cb))
	if err := l.FSStat(&reqs[0], p, cb); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("restart in flight: %v", err)
	}
	for i := range reqs {
		mustOK(t, reqs[i].Cancel())
	}
	if err := reqs[0].Cancel(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("second cancel: %v", err)
	}
	release()
	mustRunMode(t, l, uvloop.RunDefault)
	if canceled != 4 || done != 1 {
		t.Fatalf("canceled %d, blockers done %d", canceled, done)
	}
	var idle uvloop.FSReq
	if err := idle.Cancel(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("cancel of an idle request: %v", err)
	}
}

// A request keeps the loop alive and Close busy; nil requests; requests after Close.
func TestFsRequestLifetime(t *testing.T) {
	l := newLoop(t)
	ran := false
	mustOK(t, l.FSStat(nil, ".", func(r *uvloop.FSReq) { ran = r.Err() == nil && r.Stat().IsDir() }))
	if !l.Alive() {
		t.Fatal("loop not alive with a request in flight")
	}
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("close with a request in flight: %v", err)
	}
	mustRunMode(t, l, uvloop.RunDefault)
	if !ran {
		t.Fatal("callback did not run")
	}
	if err := l.FSStat(nil, ".", nil); !errors.Is(err, uvloop.ErrNilCallback) {
		t.Fatalf("sync with a nil request: %v", err)
	}
	closeLoop(t, l)
	var req uvloop.FSReq
	if err := l.FSStat(&req, ".", func(*uvloop.FSReq) {}); !errors.Is(err, uvloop.ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

// isLinux: the zero-allocation pins hold where the path reaches the kernel without a copy.
const isLinux = runtime.GOOS == "linux"

// A reused request allocates nothing per stat, per read, per open+close.
func TestFsAllocs(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	p := filepath.Join(t.TempDir(), "f")
	mustOK(t, os.WriteFile(p, []byte("small file"), 0o600))
	f, err := os.Open(p)
	mustOK(t, err)
	defer f.Close()
	rfd := int(f.Fd())
	var req uvloop.FSReq
	buf := make([]byte, 64)
	opened := -1
	var failed error
	statCb := func(r *uvloop.FSReq) { failed = r.Err() }
	openCb := func(r *uvloop.FSReq) { failed, opened = r.Err(), int(r.Result()) }
	run := func(start func() error) {
		if err := start(); err != nil {
			t.Fatal(err)
		}
		mustRunMode(t, l, uvloop.RunDefault)
		if failed != nil {
			t.Fatalf("%s: %v", req.Op(), failed)
		}
	}
	for _, c := range []struct {
		name string
		fn   func()
	}{
		{"stat", func() { run(func() error { return l.FSStat(&req, p, statCb) }) }},
		{"read", func() { run(func() error { return l.FSRead(&req, rfd, buf, 0, statCb) }) }},
		{"open+close", func() {
			run(func() error { return l.FSOpen(&req, p, os.O_RDONLY, 0, openCb) })
			run(func() error { return l.FSClose(&req, opened, statCb) })
		}},
	} {
		c.fn()
		if n := testing.AllocsPerRun(200, c.fn); n != 0 && isLinux {
			t.Errorf("%s: %v allocations per request", c.name, n)
		}
	}
}
