package uvloop_test

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// The readiness paths on both backends (UVGO_BACKEND=io_uring, UVGO_BACKEND=epoll): closing
// or stopping lets go of the fd at once, an fd the kernel cannot poll is refused or reported
// with the kernel's error, as epoll and libuv do.

// TestUDPCloseFreesPort: Close closes a UDP handle's socket at once (uv__udp_close),
// so its port is free when Close returns: a rebind right after it, in the same callback,
// succeeds. Another Poll keeps the loop waiting in the kernel.
func TestUDPCloseFreesPort(t *testing.T) {
	l := newLoop(t)
	watchdog(t, l, 5*time.Second)
	a, _ := newSocketpair(t)
	other, err := l.NewPoll(a, func(*uvloop.Poll, uvloop.Events, error) {})
	mustOK(t, err)
	mustOK(t, other.Start(uvloop.Readable))
	u, addr := newBoundUDP(t, l)
	mustOK(t, u.RecvStart(func(*uvloop.UDP, []byte, netip.AddrPort, error) {}))
	var bindErr error
	tried := false
	tm := l.NewTimer(func(*uvloop.Timer) {
		mustOK(t, u.Close(nil))
		c, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(addr))
		if err == nil {
			c.Close()
		}
		bindErr, tried = err, true
		other.Close(nil)
	})
	mustOK(t, tm.Start(10*time.Millisecond, 0))
	runUntil(t, l, "the timer", func() bool { return tried })
	if bindErr != nil {
		t.Errorf("%s: binding the closed handle's port %v: %v (the socket is still open)", l.Backend(), addr, bindErr)
	}
	closeLoop(t, l)
}

// TestPollCloseGivesPeerEOF: a Poll handle is closed, then its fd (one end of a socket
// pair); the peer reads the end of the stream, as after any close.
func TestPollCloseGivesPeerEOF(t *testing.T) {
	l := newLoop(t)
	a, b := rawSocketpair(t)
	defer unix.Close(b)
	p, err := l.NewPoll(a, func(*uvloop.Poll, uvloop.Events, error) {})
	mustOK(t, err)
	mustOK(t, p.Start(uvloop.Readable))
	mustRunMode(t, l, uvloop.RunNoWait)
	mustRunMode(t, l, uvloop.RunNoWait)
	mustOK(t, p.Close(func() { unix.Close(a) }))
	var readErr error
	n := -1
	tm := l.NewTimer(func(*uvloop.Timer) {
		var buf [8]byte
		n, readErr = unix.Read(b, buf[:])
	})
	mustOK(t, tm.Start(20*time.Millisecond, 0))
	runUntil(t, l, "the timer", func() bool { return n != -1 || readErr != nil })
	if n != 0 || readErr != nil {
		t.Errorf("%s: peer's read after the close = %d, %v; want 0 (EOF)", l.Backend(), n, readErr)
	}
	closeLoop(t, l)
}

// TestPipeCloseGivesPeerEOF: a reading Pipe (one end of a Unix socket pair, Open) is
// closed and Run returns; the other end reads the end of the stream (uv_close closes the fd
// at once), before the loop is closed.
func TestPipeCloseGivesPeerEOF(t *testing.T) {
	l := newLoop(t)
	a, b := rawSocketpair(t)
	defer unix.Close(b)
	p, err := l.NewPipe()
	mustOK(t, err)
	mustOK(t, p.Open(a))
	mustOK(t, p.ReadStart(func([]byte, error) {}))
	mustRunMode(t, l, uvloop.RunNoWait)
	mustRunMode(t, l, uvloop.RunNoWait)
	closed := false
	mustOK(t, p.Close(func() { closed = true }))
	runLoop(t, l)
	if !closed {
		t.Fatal("close callback did not run")
	}
	var buf [8]byte
	if n, err := unix.Read(b, buf[:]); n != 0 || err != nil {
		t.Errorf("%s: peer's read after the pipe closed = %d, %v; want 0 (EOF)", l.Backend(), n, err)
	}
	closeLoop(t, l)
}

// TestPollUnpollableDevice: /dev/null cannot be polled (epoll_ctl refuses it with EPERM, as
// it refuses regular files); a Poll on it hears of that in its callback, with an error, once.
func TestPollUnpollableDevice(t *testing.T) {
	l := newLoop(t)
	fd, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	mustOK(t, err)
	defer unix.Close(fd)
	var got []string
	p, err := l.NewPoll(fd, func(p *uvloop.Poll, ev uvloop.Events, err error) {
		got = append(got, fmt.Sprintf("%v %v", ev, err))
		if len(got) == 3 {
			p.Stop()
		}
	})
	mustOK(t, err)
	mustOK(t, p.Start(uvloop.Readable))
	for range 3 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	if len(got) != 1 || !strings.Contains(got[0], "operation not permitted") {
		t.Errorf("%s: callbacks %q; want one with EPERM", l.Backend(), got)
	}
	closeLoop(t, l)
}

// TestPollOPathError: an fd the kernel cannot poll although fstat works on it (an
// O_PATH descriptor of a FIFO) gives the Poll's callback the kernel's error once, as epoll's
// EBADF, not Readable|Error with an invented EIO.
func TestPollOPathError(t *testing.T) {
	l := newLoop(t)
	path := filepath.Join(t.TempDir(), "fifo")
	mustOK(t, unix.Mkfifo(path, 0o600))
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	mustOK(t, err)
	defer unix.Close(fd)
	var got []string
	p, err := l.NewPoll(fd, func(p *uvloop.Poll, ev uvloop.Events, err error) {
		got = append(got, fmt.Sprintf("%v: %v", ev, err))
		if !errors.Is(err, unix.EBADF) {
			t.Errorf("%s: callback %v, %v; want an error wrapping EBADF", l.Backend(), ev, err)
		}
	})
	mustOK(t, err)
	mustOK(t, p.Start(uvloop.Readable))
	for range 3 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	if len(got) != 1 {
		t.Errorf("%s: callbacks %q; want one", l.Backend(), got)
	}
	closeLoop(t, l)
}

// TestPollStopThenCloseFd: libuv's order, uv_poll_stop and then close(fd): the fd is
// released at once (the peer reads the end of the stream: on io_uring the armed poll request
// holds the file until its removal is submitted), and the callback does not run after Stop,
// on either backend (a deferred EPOLL_CTL_DEL would fail with EBADF, which is not reported).
func TestPollStopThenCloseFd(t *testing.T) {
	l := newLoop(t)
	a, b := rawSocketpair(t)
	defer unix.Close(b)
	var after []string
	stopped := false
	p, err := l.NewPoll(a, func(_ *uvloop.Poll, ev uvloop.Events, err error) {
		if stopped {
			after = append(after, fmt.Sprintf("%v: %v", ev, err))
		}
	})
	mustOK(t, err)
	mustOK(t, p.Start(uvloop.Readable))
	mustRunMode(t, l, uvloop.RunNoWait)
	mustRunMode(t, l, uvloop.RunNoWait)
	keep := l.NewTimer(func(*uvloop.Timer) {}) // keeps the loop alive
	mustOK(t, keep.Start(time.Hour, 0))
	mustOK(t, p.Stop())
	stopped = true
	unix.Close(a)
	var buf [8]byte
	if n, err := unix.Read(b, buf[:]); n != 0 || err != nil {
		t.Errorf("%s: peer's read after Stop and close = %d, %v; want 0 (EOF)", l.Backend(), n, err)
	}
	for range 3 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	if len(after) > 0 {
		t.Errorf("%s: callbacks after Stop: %q", l.Backend(), after)
	}
	closeLoop(t, l)
}
