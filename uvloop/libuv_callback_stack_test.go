package uvloop_test

import (
	"errors"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Port of libuv's test/test-callback-stack.c: every callback starts on a fresh stack, never
// inside the call that scheduled it.

// TestCallbackStack ports libuv's "callback_stack" with poll handles on a socket pair instead
// of a TCP connection to an echo server: the client end waits to be writable ("connected"),
// writes a message, and starts a timer; the timer starts reading; the client reads the echo,
// shuts down its writing side once it has all of it, and closes itself at the end of the
// stream. The other end echoes what it reads and shuts down when the client did. Each call
// that schedules a callback is wrapped in nested++/nested--, and each callback checks that
// nested is 0. (libuv's write and shutdown requests complete synchronously here, as the socket
// calls are made directly; their callbacks have no counterpart.)
func TestCallbackStack(t *testing.T) {
	message := []byte("No fresh stack, no callback: the loop calls you, not the other way round.")
	l := newLoop(t)
	clientFd, serverFd := newSocketpair(t)
	nested := 0
	fresh := func(what string) {
		t.Helper()
		if nested != 0 {
			t.Errorf("%s called from inside the call that scheduled it", what)
		}
	}
	var connects, writes, timerCalls, shutdowns, closes, received int
	closeCb := func() {
		fresh("close callback")
		closes++
	}

	var client *uvloop.Poll
	tm := l.NewTimer(func(h *uvloop.Timer) {
		fresh("timer callback")
		nested++
		mustOK(t, client.Start(uvloop.Readable))
		nested--
		timerCalls++
		nested++
		mustOK(t, h.Close(closeCb))
		nested--
	})

	buf := make([]byte, 1024)
	clientCb := func(p *uvloop.Poll, ev uvloop.Events, err error) {
		fresh("client poll callback")
		if err != nil {
			t.Fatalf("client poll: %v", err)
		}
		if connects == 0 { // the first callback: writable, "connected"
			if ev&uvloop.Writable == 0 {
				t.Fatalf("first client callback with %v, want Writable", ev)
			}
			connects++
			nested++
			if n, err := unix.Write(clientFd, message); err != nil || n != len(message) {
				t.Fatalf("write: %d, %v", n, err)
			}
			writes++
			mustOK(t, p.Stop())
			mustOK(t, tm.Start(10*time.Millisecond, 0)) // libuv: 500ms
			nested--
			return
		}
		n, err := unix.Read(clientFd, buf)
		switch {
		case errors.Is(err, unix.EAGAIN):
			return
		case err != nil:
			t.Fatalf("read: %v", err)
		case n == 0: // the end of the stream
			nested++
			mustOK(t, p.Close(closeCb))
			nested--
			return
		}
		received += n
		if received == len(message) {
			nested++
			mustOK(t, unix.Shutdown(clientFd, unix.SHUT_WR))
			shutdowns++
			nested--
		}
	}
	var err error
	client, err = l.NewPoll(clientFd, clientCb)
	mustOK(t, err)

	echoBuf := make([]byte, 1024)
	server, err := l.NewPoll(serverFd, func(p *uvloop.Poll, ev uvloop.Events, err error) {
		fresh("server poll callback")
		if err != nil {
			t.Fatalf("server poll: %v", err)
		}
		n, err := unix.Read(serverFd, echoBuf)
		switch {
		case errors.Is(err, unix.EAGAIN):
			return
		case err != nil:
			t.Fatalf("server read: %v", err)
		case n == 0:
			nested++
			mustOK(t, unix.Shutdown(serverFd, unix.SHUT_WR))
			mustOK(t, p.Close(nil))
			nested--
			return
		}
		if m, err := unix.Write(serverFd, echoBuf[:n]); err != nil || m != n {
			t.Fatalf("echo: %d of %d, %v", m, n, err)
		}
	})
	mustOK(t, err)
	mustOK(t, server.Start(uvloop.Readable))

	nested++
	mustOK(t, client.Start(uvloop.Writable)) // "connect"
	nested--

	mustRunMode(t, l, uvloop.RunDefault)
	if nested != 0 {
		t.Errorf("nested is %d at the end", nested)
	}
	if connects != 1 || writes != 1 || timerCalls != 1 || shutdowns != 1 {
		t.Errorf("connect %d, write %d, timer %d, shutdown %d; want 1 each", connects, writes, timerCalls, shutdowns)
	}
	if received != len(message) {
		t.Errorf("received %d bytes, want %d", received, len(message))
	}
	if closes != 2 {
		t.Errorf("%d close callbacks, want 2", closes)
	}
	closeLoop(t, l)
}

// TestCallbackStackScheduling extends libuv's "callback_stack" to every way of scheduling a
// callback in uvgo: none of them calls it before returning, and each callback runs with
// nothing of the scheduling call on its stack.
func TestCallbackStackScheduling(t *testing.T) {
	tests := []struct {
		name     string
		schedule func(t *testing.T, l *uvloop.Loop, cb func()) // schedules cb once
	}{
		{"Timer.Start 0", func(t *testing.T, l *uvloop.Loop, cb func()) {
			mustOK(t, l.NewTimer(func(h *uvloop.Timer) { cb(); h.Close(nil) }).Start(0, 0))
		}},
		{"Idle.Start", func(t *testing.T, l *uvloop.Loop, cb func()) {
			mustOK(t, l.NewIdle(func(h *uvloop.Idle) { cb(); h.Close(nil) }).Start())
		}},
		{"Prepare.Start", func(t *testing.T, l *uvloop.Loop, cb func()) {
			mustOK(t, l.NewPrepare(func(h *uvloop.Prepare) { cb(); h.Close(nil) }).Start())
		}},
		{"Check.Start", func(t *testing.T, l *uvloop.Loop, cb func()) {
			mustOK(t, l.NewCheck(func(h *uvloop.Check) { cb(); h.Close(nil) }).Start())
			// A check handle does not keep poll from blocking (as in libuv): a timer ends
			// the wait.
			mustOK(t, l.NewTimer(func(h *uvloop.Timer) { h.Close(nil) }).Start(time.Millisecond, 0))
		}},
		{"Async.Send on the loop goroutine", func(t *testing.T, l *uvloop.Loop, cb func()) {
			mustOK(t, l.NewAsync(func(h *uvloop.Async) { cb(); h.Close(nil) }).Send())
		}},
		{"Close", func(t *testing.T, l *uvloop.Loop, cb func()) {
			mustOK(t, l.NewIdle(func(*uvloop.Idle) {}).Close(cb))
		}},
		{"Poll.Start on a readable fd", func(t *testing.T, l *uvloop.Loop, cb func()) {
			a, b := newSocketpair(t)
			if _, err := unix.Write(b, []byte("x")); err != nil {
				t.Fatal(err)
			}
			p, err := l.NewPoll(a, func(p *uvloop.Poll, _ uvloop.Events, _ error) { cb(); p.Close(nil) })
			mustOK(t, err)
			mustOK(t, p.Start(uvloop.Readable))
		}},
		{"Post", func(t *testing.T, l *uvloop.Loop, cb func()) { mustOK(t, l.Post(cb)) }},
		{"SetTimeout 0", func(t *testing.T, l *uvloop.Loop, cb func()) { l.SetTimeout(cb, 0) }},
		{"SetImmediate", func(t *testing.T, l *uvloop.Loop, cb func()) { l.SetImmediate(cb) }},
		{"NextTick", func(t *testing.T, l *uvloop.Loop, cb func()) { l.NextTick(cb) }},
		{"QueueMicrotask", func(t *testing.T, l *uvloop.Loop, cb func()) { l.QueueMicrotask(cb) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Schedule once before Run and once from a callback.
			for _, fromCallback := range []bool{false, true} {
				l := newLoop(t)
				nested, calls := 0, 0
				cb := func() {
					if nested != 0 {
						t.Errorf("callback ran inside the call that scheduled it (from callback %v)", fromCallback)
					}
					calls++
				}
				schedule := func() {
					nested++
					tc.schedule(t, l, cb)
					nested--
				}
				if fromCallback {
					mustOK(t, l.NewTimer(func(h *uvloop.Timer) { schedule(); h.Close(nil) }).Start(0, 0))
				} else {
					schedule()
				}
				mustRunMode(t, l, uvloop.RunDefault)
				if calls != 1 {
					t.Errorf("callback ran %d times, want 1 (from callback %v)", calls, fromCallback)
				}
				closeLoop(t, l)
			}
		})
	}
}
