package poller_test

import (
	"os"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
)

// listener opens a listening Unix stream socket with an autobound abstract name and returns
// it with its address.
func (f *testFds) listener() (int, unix.Sockaddr) {
	f.t.Helper()
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		f.t.Fatalf("socket: %v", err)
	}
	f.open[fd] = true
	if err := unix.Bind(fd, &unix.SockaddrUnix{}); err != nil {
		f.t.Fatalf("bind: %v", err)
	}
	if err := unix.Listen(fd, 128); err != nil {
		f.t.Fatalf("listen: %v", err)
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		f.t.Fatalf("getsockname: %v", err)
	}
	return fd, sa
}

// dial connects a new socket to sa.
func (f *testFds) dial(sa unix.Sockaddr) int {
	f.t.Helper()
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		f.t.Fatalf("socket: %v", err)
	}
	f.open[fd] = true
	if err := unix.Connect(fd, sa); err != nil {
		f.t.Fatalf("connect: %v", err)
	}
	return fd
}

// acceptN waits until n connections were accepted on ln with tag and returns their fds, each
// checked to be non-blocking and close-on-exec and handed to f to close.
func acceptN(t *testing.T, f *testFds, p *poller.Poller, ln int, tag uint32, n int) []int {
	t.Helper()
	var fds []int
	for len(fds) < n {
		evs, _ := wait(t, p, soon)
		if len(evs) == 0 {
			t.Fatalf("nothing accepted within %v; have %d of %d", soon, len(fds), n)
		}
		for i := range evs {
			ev := &evs[i]
			fd, err := ev.AcceptedFd()
			if !ev.Accepted() || ev.Fd != int32(ln) || ev.Tag != tag || ev.Events != 0 || err != nil || fd < 0 {
				t.Fatalf("event %+v (fd %d, %v), want a connection accepted on %d with tag %d", *ev, fd, err, ln, tag)
			}
			f.open[fd] = true
			fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
			if err != nil || fl&unix.O_NONBLOCK == 0 {
				t.Errorf("accepted fd %d: flags %#x, %v; want O_NONBLOCK", fd, fl, err)
			}
			if fdfl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil || fdfl&unix.FD_CLOEXEC == 0 {
				t.Errorf("accepted fd %d: fd flags %#x, %v; want FD_CLOEXEC", fd, fdfl, err)
			}
			fds = append(fds, fd)
		}
	}
	if len(fds) != n {
		t.Fatalf("accepted %d, want %d", len(fds), n)
	}
	return fds
}

func TestAccept(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	if !p.CanAccept() {
		if err := p.AcceptStart(0, 0); err == nil {
			t.Fatal("AcceptStart succeeded where CanAccept is false")
		}
		t.Skipf("the %v backend does not accept for its caller (epoll, or a kernel before 5.19)", p.Backend())
	}
	ln, sa := f.listener()
	if err := p.AcceptStart(ln, 3); err != nil {
		t.Fatal(err)
	}
	wantNone(t, p)
	for range 3 {
		f.dial(sa)
	}
	for _, fd := range acceptN(t, f, p, ln, 3, 3) {
		f.close(fd)
	}

	// Stopped, the listener accepts nothing more (what was accepted before is still reported);
	// started again, it takes what queued meanwhile.
	if err := p.AcceptStop(ln); err != nil {
		t.Fatal(err)
	}
	wantNone(t, p) // the cancellation reaches the kernel
	f.dial(sa)
	wantNone(t, p)
	if err := p.AcceptStart(ln, 4); err != nil {
		t.Fatal(err)
	}
	f.close(acceptN(t, f, p, ln, 4, 1)[0])

	// A stop and a start between two waits change nothing.
	p.AcceptStop(ln)
	p.AcceptStart(ln, 4)
	f.dial(sa)
	f.close(acceptN(t, f, p, ln, 4, 1)[0])

	sa2 := sa
	if n := testing.AllocsPerRun(50, func() {
		c, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			panic(err)
		}
		if err := unix.Connect(c, sa2); err != nil {
			panic(err)
		}
		for {
			evs, _, err := p.Wait(soon)
			if err == poller.ErrInterrupted {
				continue
			}
			if err != nil || len(evs) != 1 {
				panic("no accept")
			}
			fd, err := evs[0].AcceptedFd()
			if err != nil {
				panic(err)
			}
			unix.Close(fd)
			break
		}
		unix.Close(c)
	}); n != 0 {
		t.Errorf("a connection and its accept allocate %v times, want 0", n)
	}

	if err := p.AcceptForget(ln); err != nil {
		t.Fatal(err)
	}
	f.dial(sa)
	wantNone(t, p)
	f.close(ln)
	wantNone(t, p)
}

// A connection the kernel accepts for a listener that was forgotten (its completion reaped
// after AcceptForget) is closed by the poller: it is neither reported nor leaked, and its
// client sees the connection end.
func TestAcceptForgetClosesLateFd(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	if !p.CanAccept() {
		t.Skipf("the %v backend does not accept for its caller", p.Backend())
	}
	ln, sa := f.listener()
	if err := p.AcceptStart(ln, 1); err != nil {
		t.Fatal(err)
	}
	wantNone(t, p) // armed
	before := countFds(t)
	c := f.dial(sa) // accepted by the kernel; its completion waits in the ring
	if err := p.AcceptForget(ln); err != nil {
		t.Fatal(err)
	}
	wantNone(t, p)
	f.close(ln)
	if got := countFds(t); got != before { // the client opened, the listener closed
		t.Errorf("%d fds open, want %d: the late connection leaked", got, before)
	}
	var b [1]byte
	unix.SetNonblock(c, false)
	// The end of the connection: EOF, or a reset (the closed socket may have had the
	// connection's handshake data unread); x/sys returns n = -1 with the error.
	if n, err := unix.Read(c, b[:]); err == nil && n != 0 || err != nil && err != unix.ECONNRESET {
		t.Errorf("client read: %d, %v; want the end of the connection", n, err)
	}
}

// Closing the poller closes the connections the kernel accepted and no one took.
func TestAcceptCloseNoLeak(t *testing.T) {
	f := newFds(t)
	p, err := poller.Open(backend)
	if err != nil {
		t.Fatal(err)
	}
	if !p.CanAccept() {
		p.Close()
		t.Skipf("the %v backend does not accept for its caller", p.Backend())
	}
	ln, sa := f.listener()
	if err := p.AcceptStart(ln, 1); err != nil {
		t.Fatal(err)
	}
	wantNone(t, p)
	before := countFds(t)
	for range 2 {
		f.dial(sa)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	// The poller's own fds are gone too (the ring, the eventfd): count against a floor.
	if got := countFds(t); got > before { // +2 clients, -2 of the poller
		t.Errorf("%d fds open after Close, want at most %d", got, before)
	}
}

// Open probes multishot receives and accepts by arming them; a kernel without them (before
// 6.0 and 5.19) leaves the ring on readiness for reads and accepts, which still works.
func TestMissingMultishot(t *testing.T) {
	if backend != poller.BackendIOURing {
		t.Skipf("io_uring only (this run: %v)", backend)
	}
	if p := newPoller(t); !p.CanRecv() || !p.CanAccept() {
		t.Logf("this kernel: CanRecv %v, CanAccept %v", p.CanRecv(), p.CanAccept())
	}
	restore := poller.MissMultishot(true, true)
	p, err := poller.Open(poller.BackendIOURing)
	restore()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.CanRecv() || p.CanAccept() {
		t.Fatalf("CanRecv %v, CanAccept %v on a kernel without multishot requests", p.CanRecv(), p.CanAccept())
	}
	f := newFds(t)
	ln, sa := f.listener()
	if err := p.Add(ln, poller.Readable, 8); err != nil {
		t.Fatal(err)
	}
	f.dial(sa)
	wantOne(t, p, poller.Event{Fd: int32(ln), Tag: 8, Events: poller.Readable})
}

// countFds counts the open fds of the process.
func countFds(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count fds: %v", err)
	}
	return len(ents) - 1 // ReadDir's own
}

// Rebind from another thread moves the multishot receives and accepts there without losing
// or reordering bytes or connections, and without reporting their cancellation.
func TestRebindMultishots(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	if !p.CanAccept() || !p.CanRecv() {
		t.Skipf("the %v backend has no multishot receives and accepts here", p.Backend())
	}
	runtime.LockOSThread() // so that the goroutine below runs on another thread
	defer runtime.UnlockOSThread()
	a, b := f.socketpair()
	ln, sa := f.listener()
	if err := p.Rebind(); err != nil {
		t.Fatal(err)
	}
	if err := p.RecvStart(a, 1); err != nil {
		t.Fatal(err)
	}
	if err := p.AcceptStart(ln, 2); err != nil {
		t.Fatal(err)
	}
	wantNone(t, p)
	f.write(b, "ab")
	f.dial(sa)
	done := make(chan struct{})
	var got string
	accepted := 0
	go func() {
		defer close(done)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := p.Rebind(); err != nil {
			t.Error(err)
			return
		}
		f.write(b, "cd")
		for got != "abcd" || accepted < 1 {
			evs, _, err := p.Wait(soon)
			if err == poller.ErrInterrupted {
				continue
			}
			if err != nil || len(evs) == 0 {
				t.Errorf("Wait: %v, %d events; have %q and %d connections", err, len(evs), got, accepted)
				return
			}
			for i := range evs {
				ev := &evs[i]
				switch {
				case ev.Received():
					data, err := p.RecvData(ev)
					if err != nil || data == nil {
						t.Errorf("received %q, %v", data, err)
						return
					}
					got += string(data)
				case ev.Accepted():
					fd, err := ev.AcceptedFd()
					if err != nil {
						t.Errorf("accept: %v", err)
						return
					}
					unix.Close(fd)
					accepted++
				default:
					t.Errorf("event %+v", *ev)
					return
				}
			}
		}
	}()
	<-done
	if got != "abcd" || accepted != 1 {
		t.Fatalf("after Rebind: received %q, accepted %d; want abcd and 1", got, accepted)
	}
	// Still armed, from the new thread: more arrives.
	f.dial(sa)
	c := acceptN(t, f, p, ln, 2, 1)
	f.close(c[0])
	f.write(b, "e")
	if s, _ := recvAll(t, p, a, 1, "e"); s != "e" {
		t.Fatalf("received %q, want e", s)
	}
	p.RecvForget(a)
	p.AcceptForget(ln)
}
