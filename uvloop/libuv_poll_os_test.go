package uvloop_test

import (
	"errors"
	"runtime"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/ostest"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the system-specific parts of libuv's test/test-poll.c, and fixes pinned on one
// system. Each test skips itself elsewhere: uvloop has no build-tagged files.

// onlyOn skips the test unless it runs on goos.
func onlyOn(t *testing.T, goos, why string) {
	t.Helper()
	if runtime.GOOS != goos {
		t.Skip(why)
	}
}

// TestPollBadFdtype ports libuv's "poll_bad_fdtype": epoll cannot watch a directory. libuv's
// uv_poll_init fails at once; uvgo hands interest to the poller just before it waits, so
// NewPoll and Start succeed and the refusal arrives in the poll phase, as a callback with
// Error and an error wrapping EPERM, after which the handle is stopped.
func TestPollBadFdtype(t *testing.T) {
	onlyOn(t, "linux", "epoll refuses a directory; kqueue watches it")
	l := newLoop(t)
	fd, err := unix.Open(".", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	mustOK(t, err)
	defer unix.Close(fd)
	calls := 0
	p, err := l.NewPoll(fd, func(p *uvloop.Poll, ev uvloop.Events, err error) {
		calls++
		if ev&uvloop.Error == 0 || !errors.Is(err, syscall.EPERM) {
			t.Errorf("callback with %v, %v; want Error and EPERM", ev, err)
		}
		if p.IsActive() {
			t.Error("the handle is still active after the error")
		}
	})
	mustOK(t, err)
	mustOK(t, p.Start(uvloop.Readable))
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after the handle stopped")
	}
	if calls != 1 {
		t.Errorf("%d callbacks, want 1", calls)
	}
	closeLoop(t, l)
}

// TestPollNested ports libuv's "poll_nested_epoll" (Linux) and "poll_nested_kqueue" (the
// BSDs and macOS): a poll handle can watch another epoll instance or kqueue; an idle one
// reports nothing, and RunNoWait says the loop is alive.
func TestPollNested(t *testing.T) {
	l := newLoop(t)
	fd, err := ostest.KernelQueue()
	mustOK(t, err)
	defer unix.Close(fd)
	p, err := l.NewPoll(fd, func(_ *uvloop.Poll, ev uvloop.Events, err error) {
		t.Errorf("an empty kernel queue reported %v, %v", ev, err)
	})
	mustOK(t, err)
	mustOK(t, p.Start(uvloop.Readable))
	if !mustRunMode(t, l, uvloop.RunNoWait) {
		t.Error("RunNoWait reports the loop not alive with an active poll handle")
	}
	mustOK(t, p.Close(nil))
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after the handle was closed")
	}
	closeLoop(t, l)
}

// TestPollHalfCloseNotWritable has no libuv counterpart; it pins a fix. When the peer shuts
// down its writing side, epoll can report EPOLLRDHUP, but this end's send buffer may still be
// full. A handle waiting only for Writable must not hear of it at all (as libuv reports a
// disconnect only to those who ask): neither a Writable its write would answer with EAGAIN,
// nor a Hangup every iteration that would spin the loop. A handle that reads gets
// Readable|Hangup, and its read sees EOF.
func TestPollHalfCloseNotWritable(t *testing.T) {
	onlyOn(t, "linux", "pins an epoll fix (EPOLLRDHUP)")
	l := newLoop(t)
	a, b := newSocketpair(t)
	mustOK(t, unix.SetsockoptInt(a, unix.SOL_SOCKET, unix.SO_SNDBUF, 8192))
	chunk := make([]byte, 1024)
	for {
		if _, err := unix.Write(a, chunk); errors.Is(err, unix.EAGAIN) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	mustOK(t, unix.Shutdown(b, unix.SHUT_WR))

	var got []uvloop.Events
	p, err := l.NewPoll(a, func(p *uvloop.Poll, ev uvloop.Events, err error) {
		if err != nil {
			t.Errorf("callback error %v", err)
		}
		got = append(got, ev)
	})
	mustOK(t, err)
	mustOK(t, p.Start(uvloop.Writable))
	for range 3 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	if len(got) != 0 {
		t.Errorf("write-only handle got %v; want no callback (the buffer is full)", got)
	}
	mustOK(t, p.Start(uvloop.Readable))
	mustRunMode(t, l, uvloop.RunNoWait)
	if len(got) != 1 || got[0] != uvloop.Readable|uvloop.Hangup {
		t.Errorf("reading handle got %v; want [Readable|Hangup]", got)
	}
	closeLoop(t, l)
}
