package uvloop_test

import (
	"errors"
	"os"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// A descriptor beyond the int32 range is not a descriptor: the kernel reads the low 32 bits,
// so 1<<32-100 is AT_FDCWD (fstat succeeds and reports the working directory) and 1<<32|fd
// is fd (close closes it). Both fail with EBADF for libuv (uv_file is an int) and for Node
// (ERR_OUT_OF_RANGE; nodefs checks). Both backends, the request on the ring where it can run.
func TestFsFdBeyondInt32(t *testing.T) {
	l := fsOnRingLoop(t)
	defer closeLoop(t, l)
	r := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFstat(r, 1<<32-100, cb) })
	if !errors.Is(r.Err(), syscall.EBADF) {
		t.Errorf("fstat of fd 1<<32-100: err %v, mode %o (a directory: the working one), want EBADF", r.Err(), r.Stat().Mode)
	}
	p := pipeFds(t, false)
	defer syscall.Close(p[1])
	r = fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSClose(r, 1<<32|p[0], cb) })
	if !errors.Is(r.Err(), syscall.EBADF) {
		t.Errorf("close of fd 1<<32|%d: err %v, want EBADF", p[0], r.Err())
	}
	if _, err := syscall.Write(p[1], []byte("x")); err != nil {
		t.Errorf("fd %d was closed by a close of 1<<32|%d: %v", p[0], p[0], err)
	} else {
		syscall.Close(p[0])
	}
}

// Every request on a descriptor fails with EBADF, wrapped as the call's other errors are (an
// *os.SyscallError), for a descriptor outside 0..MaxInt32, before any system call runs: the
// open pipe end whose number the bad descriptor holds in its low 32 bits stays open, and so
// unchanged. With a callback and synchronously, on both backends.
func TestFsEveryFdCallRejectsBeyondInt32(t *testing.T) {
	l := fsOnRingLoop(t)
	defer closeLoop(t, l)
	p := pipeFds(t, false)
	defer syscall.Close(p[0])
	defer syscall.Close(p[1])
	buf := []byte("x")
	now := time.Now()
	calls := []struct {
		name  string // the call's name in its error (readv's is read)
		start func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error
	}{
		{"close", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error { return l.FSClose(r, fd, cb) }},
		{"read", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error { return l.FSRead(r, fd, buf, -1, cb) }},
		{"read", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error {
			return l.FSReadv(r, fd, [][]byte{buf, buf}, 0, cb)
		}},
		{"write", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error { return l.FSWrite(r, fd, buf, -1, cb) }},
		{"write", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error {
			return l.FSWritev(r, fd, [][]byte{buf, buf}, -1, cb)
		}},
		{"fstat", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error { return l.FSFstat(r, fd, cb) }},
		{"fchmod", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error { return l.FSFchmod(r, fd, 0o600, cb) }},
		{"fchown", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error { return l.FSFchown(r, fd, -1, -1, cb) }},
		{"futime", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error { return l.FSFutime(r, fd, now, now, cb) }},
		{"fsync", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error { return l.FSFsync(r, fd, cb) }},
		{"fdatasync", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error { return l.FSFdatasync(r, fd, cb) }},
		{"ftruncate", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error { return l.FSFtruncate(r, fd, 0, cb) }},
		{"sendfile", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error { // out
			return l.FSSendfile(r, fd, p[0], 0, 1, cb)
		}},
		{"sendfile", func(r *uvloop.FSReq, fd int, cb func(*uvloop.FSReq)) error { // in
			return l.FSSendfile(r, p[1], fd, 0, 1, cb)
		}},
	}
	for i, c := range calls {
		for _, fd := range []int{1<<32 | p[0], 1<<32 | p[1], 1 << 31, -1, -1 << 32} {
			check := func(mode string, r *uvloop.FSReq, err error) {
				var se *os.SyscallError
				if !errors.Is(err, syscall.EBADF) || !errors.As(err, &se) || se.Syscall != c.name || r.Result() != -1 {
					t.Errorf("call %d, %s of fd %#x (%s): result %d err %v, want -1 and an *os.SyscallError %q wrapping EBADF",
						i, c.name, fd, mode, r.Result(), err, c.name)
				}
			}
			r := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return c.start(r, fd, cb) })
			check("callback", r, r.Err())
			var sync uvloop.FSReq
			err := c.start(&sync, fd, nil)
			check("synchronous", &sync, err)
		}
	}
	for _, fd := range p {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil {
			t.Errorf("pipe end %d: %v after the requests on aliases of it", fd, err)
		}
	}
	if _, err := syscall.Write(p[1], buf); err != nil {
		t.Errorf("pipe: %v", err)
	}
}
