package uvloop_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// pipeFds returns a new pipe's read and write ends, close-on-exec, and non-blocking if
// nonblock says so.
func pipeFds(t *testing.T, nonblock bool) [2]int {
	t.Helper()
	var p [2]int
	syscall.ForkLock.RLock()
	err := unix.Pipe(p[:])
	if err == nil {
		unix.CloseOnExec(p[0])
		unix.CloseOnExec(p[1])
	}
	syscall.ForkLock.RUnlock()
	mustOK(t, err)
	for _, fd := range p {
		if nonblock {
			mustOK(t, unix.SetNonblock(fd, true))
		}
	}
	return p
}

// Reads and writes of a descriptor that is not a regular file (a pipe here) behave as on the
// pool, as libuv's and Node's do, on either backend: only a regular file's reads and writes
// go to the io_uring backend's ring, whose reads and writes of a pipe would ignore the offset
// and O_NONBLOCK and complete a blocking write short. Each test but the default-policy one
// runs with every file request the ring can run sent to it (FSOnRing; on epoll that changes
// nothing), so that running the tests once per backend (UVGO_BACKEND) compares the two paths.

// fsOnRingLoop is a loop of the backend UVGO_BACKEND names that sends every file request the
// ring can run to the ring.
func fsOnRingLoop(t *testing.T) *uvloop.Loop {
	t.Helper()
	l := newLoop(t)
	uvloop.FSOnRing(l, true)
	t.Logf("backend %v", l.Backend())
	return l
}

// A positioned read or write (offset >= 0) of a pipe fails with ESPIPE, as pread(2) and
// pwrite(2) do on the pool, as libuv's uv_fs_read with an offset does and as Node's
// fs.read(fd, buf, 0, n, 0) does on a pipe.
func TestFsRingPipeOffsetESPIPE(t *testing.T) {
	l := fsOnRingLoop(t)
	defer closeLoop(t, l)
	p := pipeFds(t, false)
	defer syscall.Close(p[0])
	defer syscall.Close(p[1])
	if _, err := syscall.Write(p[1], []byte("abc")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	r := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRead(r, p[0], buf, 0, cb) })
	if !errors.Is(r.Err(), syscall.ESPIPE) {
		t.Errorf("read of a pipe at offset 0: result %d err %v, want ESPIPE", r.Result(), r.Err())
	}
	r = fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
		return l.FSWrite(r, p[1], []byte("xyz"), 0, cb)
	})
	if !errors.Is(r.Err(), syscall.ESPIPE) {
		t.Errorf("write of a pipe at offset 0: result %d err %v, want ESPIPE", r.Result(), r.Err())
	}
}

// A read at the position of an empty non-blocking pipe fails with EAGAIN at once, as read(2)
// does on the pool, as libuv's uv_fs_read does and as Node's fs.read of a non-blocking stdin
// does (EAGAIN). A timer writes a byte into the pipe after a while so that a read that waits
// for data instead (it must not) ends, and the test fails rather than hangs.
func TestFsRingNonblockEmptyPipe(t *testing.T) {
	l := fsOnRingLoop(t)
	defer closeLoop(t, l)
	p := pipeFds(t, true)
	defer syscall.Close(p[0])
	defer syscall.Close(p[1])
	buf := make([]byte, 8)
	unblock := l.SetTimeout(func() { syscall.Write(p[1], []byte("!")) }, 5*time.Second)
	r := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
		return l.FSRead(r, p[0], buf, -1, func(r *uvloop.FSReq) { l.ClearTimeout(unblock); cb(r) })
	})
	if !errors.Is(r.Err(), syscall.EAGAIN) {
		t.Errorf("read of an empty non-blocking pipe: result %d err %v, want EAGAIN at once", r.Result(), r.Err())
	}
}

// Many more requests in flight than the ring has entries (1024 SQEs, 2048 CQEs): each
// completes once with its own result.
func TestFsRingManyInFlight(t *testing.T) {
	l := fsOnRingLoop(t)
	defer closeLoop(t, l)
	const n = 5000
	p := filepath.Join(t.TempDir(), "f")
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i * 7)
	}
	mustOK(t, os.WriteFile(p, data, 0o600))
	f, err := os.Open(p)
	mustOK(t, err)
	defer f.Close()
	reqs := make([]uvloop.FSReq, n)
	bufs := make([]byte, n)
	calls := make([]int, n)
	for i := range reqs {
		mustOK(t, l.FSRead(&reqs[i], int(f.Fd()), bufs[i:i+1], int64(i), func(r *uvloop.FSReq) {
			calls[i]++
			if r.Err() != nil || r.Result() != 1 {
				t.Errorf("read %d: %v %d", i, r.Err(), r.Result())
			}
		}))
	}
	t.Logf("%d on the ring", uvloop.FSRingInFlight(l))
	mustRunMode(t, l, uvloop.RunDefault)
	for i := range calls {
		if calls[i] != 1 {
			t.Fatalf("read %d: %d callbacks", i, calls[i])
		}
		if bufs[i] != data[i] {
			t.Fatalf("read %d: got %d, want %d", i, bufs[i], data[i])
		}
	}
}

// The same fault as TestFsRingPipeOffsetESPIPE without FSOnRing: under the default
// policy a read goes to the ring whenever other work is in flight (here a work item that
// waits for the read's callback); a positioned read of a pipe must still fail.
func TestFsRingPipeOffsetDefaultPolicy(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	p := pipeFds(t, false)
	defer syscall.Close(p[0])
	defer syscall.Close(p[1])
	if _, err := syscall.Write(p[1], []byte("abc")); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	_, err := l.QueueWork(func() { <-release }, func(error) {})
	mustOK(t, err)
	buf := make([]byte, 8)
	r := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
		return l.FSRead(r, p[0], buf, 0, func(r *uvloop.FSReq) { close(release); cb(r) })
	})
	t.Logf("backend %v", l.Backend())
	if !errors.Is(r.Err(), syscall.ESPIPE) {
		t.Errorf("read of a pipe at offset 0 with work in flight: result %d err %v, want ESPIPE", r.Result(), r.Err())
	}
}

// A write at the position of a blocking pipe writes the whole buffer, as write(2) does on
// the pool (it blocks until a reader has taken it), and as libuv's uv_fs_write and Node's
// fs.write report (bytesWritten == length); the ring's write would complete with a short
// count (the pipe's capacity).
func TestFsRingBlockingPipeWriteWhole(t *testing.T) {
	l := fsOnRingLoop(t)
	defer closeLoop(t, l)
	p := pipeFds(t, false)
	rf := os.NewFile(uintptr(p[0]), "pipe")
	drained := make(chan int64)
	go func() { n, _ := io.Copy(io.Discard, rf); drained <- n }()
	big := make([]byte, 1<<20)
	r := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSWrite(r, p[1], big, -1, cb) })
	syscall.Close(p[1])
	<-drained
	rf.Close()
	if r.Err() != nil || r.Result() != int64(len(big)) {
		t.Errorf("write of 1 MiB to a blocking pipe: result %d err %v, want %d", r.Result(), r.Err(), len(big))
	}
}
