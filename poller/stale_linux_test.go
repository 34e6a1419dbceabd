package poller_test

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
)

// TestStaleAcceptCancelledAgain: a multishot accept that the poller forgot but the kernel
// kept (its cancellation refused: ForgetUncancelled) holds the listener open after the
// caller closed it. Its next completion (a connection, closed as stale) has it cancelled
// again, and then the listener is gone: connecting is refused.
func TestStaleAcceptCancelledAgain(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	if !p.CanAccept() {
		t.Skipf("the %v backend does not accept for its caller", p.Backend())
	}
	ln, sa := f.listener()
	if err := p.AcceptStart(ln, 1); err != nil {
		t.Fatal(err)
	}
	wantNone(t, p) // armed
	poller.ForgetUncancelled(p, ln, true)
	f.close(ln)
	for i := 0; ; i++ {
		c, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		err = unix.Connect(c, sa)
		unix.Close(c)
		if err == unix.ECONNREFUSED {
			return
		}
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		if i == 20 {
			t.Fatal("after 20 waits the closed listener still takes connections: its forgotten accept goes on")
		}
		if evs, _ := wait(t, p, 100*time.Millisecond); len(evs) > 0 {
			t.Fatalf("a forgotten accept reported %+v", evs)
		}
	}
}

// TestStaleRecvCancelledAgain: a multishot receive that the poller forgot but the kernel
// kept reads (and drops) the socket's data; its next completion has it cancelled again, and
// later data stays in the socket for its owner.
func TestStaleRecvCancelledAgain(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	if !p.CanRecv() {
		t.Skipf("the %v backend does not read for its caller", p.Backend())
	}
	a, b := f.socketpair()
	if err := p.RecvStart(a, 5); err != nil {
		t.Fatal(err)
	}
	wantNone(t, p) // armed
	poller.ForgetUncancelled(p, a, false)
	f.write(b, "one") // read by the forgotten receive
	for range 3 {
		if evs, _ := wait(t, p, 50*time.Millisecond); len(evs) > 0 {
			t.Fatalf("a forgotten receive reported %+v", evs)
		}
	}
	f.write(b, "two")
	wantNone(t, p)
	var buf [8]byte
	if n, err := unix.Read(a, buf[:]); err != nil || string(buf[:n]) != "two" {
		t.Fatalf("read %q, %v: want two, left in the socket once the forgotten receive is cancelled", buf[:max(n, 0)], err)
	}
}
