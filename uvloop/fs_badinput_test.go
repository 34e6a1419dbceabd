package uvloop_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Bad input, one request each (issue 11 item 6): every one ends in libuv's errno (or, where
// libuv's call succeeds, its result), never a panic, and the loop runs on: a timer queued
// before them fires after.
func TestFsBadInputTable(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	mustOK(t, os.WriteFile(file, []byte("0123456789"), 0o600))
	f, err := os.Open(file)
	mustOK(t, err)
	defer f.Close()
	rfd := int(f.Fd())
	const closedFd = 1<<20 - 3 // not open: above any descriptor this test opens, below RLIMIT_NOFILE's cap
	type start = func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error
	cases := []struct {
		name   string
		start  start
		errno  syscall.Errno // 0: succeeds
		result int64         // when it succeeds
	}{
		{"open empty path", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSOpen(r, "", os.O_RDONLY, 0, cb) }, syscall.ENOENT, 0},
		{"open dir O_RDWR", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSOpen(r, dir, os.O_RDWR, 0, cb) }, syscall.EISDIR, 0},
		{"open file as dir", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSOpen(r, file, os.O_RDONLY|syscall.O_DIRECTORY, 0, cb)
		}, syscall.ENOTDIR, 0},
		{"open through a file", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSOpen(r, filepath.Join(file, "x"), os.O_RDONLY, 0, cb)
		}, syscall.ENOTDIR, 0},
		{"open O_EXCL existing", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSOpen(r, file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600, cb)
		}, syscall.EEXIST, 0},
		{"read closed fd", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRead(r, closedFd, make([]byte, 4), 0, cb)
		}, syscall.EBADF, 0},
		{"read a directory", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			d, err := os.Open(dir)
			mustOK(t, err)
			t.Cleanup(func() { d.Close() })
			return l.FSRead(r, int(d.Fd()), make([]byte, 4), 0, cb)
		}, syscall.EISDIR, 0},
		{"read nil buffer", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRead(r, rfd, nil, 0, cb) }, 0, 0},
		{"readv no buffers", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSReadv(r, rfd, nil, 0, cb) }, syscall.EINVAL, 0},
		{"read buffer too small", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRead(r, rfd, make([]byte, 3), 0, cb) }, 0, 3},
		{"read past the end", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRead(r, rfd, make([]byte, 3), 1<<40, cb)
		}, 0, 0},
		{"read negative offset is the file position", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRead(r, rfd, make([]byte, 4), -7, cb)
		}, 0, 4},
		{"write read-only fd", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSWrite(r, rfd, []byte("x"), 0, cb) }, syscall.EBADF, 0},
		{"fstat negative fd", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFstat(r, -1, cb) }, syscall.EBADF, 0},
		{"close closed fd", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSClose(r, closedFd, cb) }, syscall.EBADF, 0},
		{"ftruncate negative", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFtruncate(r, rfd, -1, cb) }, syscall.EINVAL, 0},
		{"stat empty path", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSStat(r, "", cb) }, syscall.ENOENT, 0},
		{"lstat NUL", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSLstat(r, "x\x00", cb) }, syscall.EINVAL, 0},
		{"scandir a file", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSScandir(r, file, cb) }, syscall.ENOTDIR, 0},
		{"rmdir a file", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRmdir(r, file, cb) }, syscall.ENOTDIR, 0},
		{"rmdir non-empty", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRmdir(r, dir, cb) }, syscall.ENOTEMPTY, 0},
		{"rename empty", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRename(r, "", "", cb) }, syscall.ENOENT, 0},
		{"rename dir onto file", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			sub := filepath.Join(dir, "sub")
			mustOK(t, os.Mkdir(sub, 0o700))
			return l.FSRename(r, sub, file, cb)
		}, syscall.ENOTDIR, 0},
		{"mkdtemp without XXXXXX", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSMkdtemp(r, filepath.Join(dir, "t"), cb)
		}, syscall.EINVAL, 0},
		{"copyfile unknown flag", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSCopyfile(r, file, filepath.Join(dir, "copy"), 64, cb)
		}, syscall.EINVAL, 0},
		{"copyfile a directory", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSCopyfile(r, dir, filepath.Join(dir, "copy2"), 0, cb)
		}, syscall.EISDIR, 0},
		{"access unknown mode", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSAccess(r, file, 64, cb) }, syscall.EINVAL, 0},
		{"sendfile negative offset", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSSendfile(r, rfd, rfd, -1, 1, cb) }, syscall.EINVAL, 0},
		{"readlink a file", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSReadlink(r, file, cb) }, syscall.EINVAL, 0},
		{"symlink onto existing", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSSymlink(r, "x", file, cb) }, syscall.EEXIST, 0},
		{"utime missing", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSUtime(r, filepath.Join(dir, "missing"), time.Unix(0, 0), time.Unix(-1, 0), cb)
		}, syscall.ENOENT, 0},
	}
	fired := false
	l.SetTimeout(func() { fired = true }, 0)
	for _, c := range cases {
		req := fsRun(t, l, c.start)
		if c.errno == 0 {
			if req.Err() != nil || req.Result() != c.result {
				t.Errorf("%s: err %v result %d, want result %d", c.name, req.Err(), req.Result(), c.result)
			}
			continue
		}
		if !errors.Is(req.Err(), c.errno) || req.Result() != -1 {
			t.Errorf("%s: err %v result %d, want %v", c.name, req.Err(), req.Result(), c.errno)
		}
	}
	if !fired {
		t.Fatal("the loop did not run on")
	}
	// Misuse of the request itself: nil request without a callback, a request in flight.
	if err := l.FSStat(nil, file, nil); !errors.Is(err, uvloop.ErrNilCallback) {
		t.Errorf("nil request, no callback: %v", err)
	}
	var req uvloop.FSReq
	mustOK(t, l.FSStat(&req, file, func(*uvloop.FSReq) {}))
	if err := l.FSRead(&req, rfd, nil, 0, func(*uvloop.FSReq) {}); !errors.Is(err, uvloop.ErrBusy) {
		t.Errorf("reuse in flight: %v", err)
	}
	mustRunMode(t, l, uvloop.RunDefault)
	// The synchronous mode reports the same errors.
	if err := l.FSRead(&req, closedFd, make([]byte, 1), 0, nil); !errors.Is(err, syscall.EBADF) {
		t.Errorf("sync read of a closed fd: %v", err)
	}
}
