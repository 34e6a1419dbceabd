package uvloop_test

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// TestRingPollStopAfterQuietWritable: Poll.Stop promises that "the
// poller lets go of [the fd] at once, so that the caller may close it next". A Poll waiting
// for Writable on a socket whose peer shut down its writing side is watched, on io_uring, by
// a multishot poll (quietPoll); the report that the socket became writable cancels that
// request, queued only, and marks the fd unarmed. Stop in that callback then removes nothing
// (Remove finds the fd unarmed and submits nothing), so the multishot poll still holds the
// socket when the callback closes the fd: the peer reads no end of stream. On epoll it does.
func TestRingPollStopAfterQuietWritable(t *testing.T) {
	l := newLoop(t)
	watchdog(t, l, 5*time.Second)
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	mustOK(t, err)
	a, b := fds[0], fds[1]
	defer unix.Close(b)
	chunk := make([]byte, 64<<10)
	for {
		if _, err := unix.Write(a, chunk); err != nil {
			break
		}
	}
	mustOK(t, unix.Shutdown(b, unix.SHUT_WR))
	n, readErr, called := -1, error(nil), false
	p, err := l.NewPoll(a, func(p *uvloop.Poll, ev uvloop.Events, err error) {
		if called {
			return
		}
		called = true
		p.Stop()
		unix.Close(a)
		var buf [8]byte
		n, readErr = unix.Read(b, buf[:])
		p.Close(nil)
	})
	mustOK(t, err)
	mustOK(t, p.Start(uvloop.Writable))
	for range 5 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	if called {
		t.Fatal("writable before the peer read")
	}
	for { // the peer reads: a becomes writable
		if _, err := unix.Read(b, chunk); err != nil {
			break
		}
	}
	runUntil(t, l, "the writable callback", func() bool { return called })
	if n != 0 || readErr != nil {
		t.Errorf("%s: peer's read right after Stop and close = %d, %v; want 0 (EOF): the poll request still holds the socket", l.Backend(), n, readErr)
	}
	closeLoop(t, l)
}
