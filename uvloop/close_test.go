package uvloop_test

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// TestCloseEveryKind: every kind of handle closes the same way (uv_close, then
// uv__finish_close in the close phase). Close stops the handle and releases what the kind
// releases at once; until the close phase the handle is closing, still ref'd and still walked;
// from its close callback on it is closed, unref'd (HasRef false, as libuv's
// uv__finish_close unrefs it) and no longer walked.
func TestCloseEveryKind(t *testing.T) {
	tests := []struct {
		name string
		// open makes an active handle of the kind.
		open func(t *testing.T, l *uvloop.Loop) uvloop.Handle
		// released checks, right after Close, what the kind releases at once.
		released func(t *testing.T, h uvloop.Handle)
	}{
		{
			name: "timer",
			open: func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
				tm := l.NewTimer(noopTimer)
				mustOK(t, tm.Start(time.Hour, time.Hour))
				return tm
			},
			released: func(t *testing.T, h uvloop.Handle) {
				if d := h.(*uvloop.Timer).DueIn(); d != 0 {
					t.Errorf("a closed timer is still due in %v", d)
				}
			},
		},
		{
			name: "idle",
			open: func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
				h := l.NewIdle(noopIdle)
				mustOK(t, h.Start())
				return h
			},
		},
		{
			name: "prepare",
			open: func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
				h := l.NewPrepare(func(*uvloop.Prepare) {})
				mustOK(t, h.Start())
				return h
			},
		},
		{
			name: "check",
			open: func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
				h := l.NewCheck(func(*uvloop.Check) {})
				mustOK(t, h.Start())
				return h
			},
		},
		{
			name: "async",
			open: func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
				return l.NewAsync(func(*uvloop.Async) { t.Error("the async callback ran after Close") })
			},
			released: func(t *testing.T, h uvloop.Handle) {
				if err := h.(*uvloop.Async).Send(); !errors.Is(err, uvloop.ErrClosed) {
					t.Errorf("Send after Close: %v, want ErrClosed", err)
				}
			},
		},
		{
			name: "poll",
			open: func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
				a, _ := newSocketpair(t)
				p, err := l.NewPoll(a, func(*uvloop.Poll, uvloop.Events, error) {})
				mustOK(t, err)
				mustOK(t, p.Start(uvloop.Readable))
				return p
			},
			released: func(t *testing.T, h uvloop.Handle) {
				// The fd is forgotten at once: another handle may watch it.
				p, err := h.Loop().NewPoll(h.(*uvloop.Poll).Fd(), func(*uvloop.Poll, uvloop.Events, error) {})
				mustOK(t, err)
				mustOK(t, p.Close(nil))
			},
		},
		{
			name: "udp",
			open: func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
				u, _ := newBoundUDP(t, l)
				mustOK(t, u.RecvStart(func(*uvloop.UDP, []byte, netip.AddrPort, error) {}))
				return u
			},
			released: func(t *testing.T, h uvloop.Handle) {
				if fd := h.(*uvloop.UDP).Fd(); fd != -1 {
					t.Errorf("Fd = %d after Close, want -1 (closed at once)", fd)
				}
			},
		},
		{
			name: "tcp",
			open: func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
				s, _ := listenTCP(t, l, func(*uvloop.TCP, error) {})
				return s
			},
			released: func(t *testing.T, h uvloop.Handle) {
				if fd := h.(*uvloop.TCP).Fd(); fd != -1 {
					t.Errorf("Fd = %d after Close, want -1 (closed at once)", fd)
				}
			},
		},
		{
			name: "pipe",
			open: func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
				p, err := l.NewPipe()
				mustOK(t, err)
				mustOK(t, p.Bind(pipePath(t)))
				mustOK(t, p.Listen(8, func(error) {}))
				return p
			},
			released: func(t *testing.T, h uvloop.Handle) {
				p := h.(*uvloop.Pipe)
				if fd := p.Fd(); fd != -1 {
					t.Errorf("Fd = %d after Close, want -1 (closed at once)", fd)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkFds(t)
			l := newLoop(t)
			h := tc.open(t, l)
			if !h.IsActive() || !h.HasRef() || h.IsClosing() {
				t.Fatalf("before Close: active %v, ref'd %v, closing %v", h.IsActive(), h.HasRef(), h.IsClosing())
			}
			var path string
			if p, ok := h.(*uvloop.Pipe); ok {
				path, _ = p.LocalAddr()
			}
			var log []string
			mustOK(t, h.Close(func() {
				log = append(log, "close")
				if h.HasRef() || h.IsActive() || !h.IsClosing() {
					t.Errorf("in the close callback: ref'd %v, active %v, closing %v; want false, false, true",
						h.HasRef(), h.IsActive(), h.IsClosing())
				}
				if walked(l, h) {
					t.Error("Walk visits the handle in its close callback")
				}
			}))
			if h.IsActive() || !h.IsClosing() || !h.HasRef() {
				t.Errorf("after Close: active %v, closing %v, ref'd %v; want false, true, true",
					h.IsActive(), h.IsClosing(), h.HasRef())
			}
			if !walked(l, h) {
				t.Error("Walk does not visit a closing handle")
			}
			if !l.Alive() {
				t.Error("a closing handle does not keep the loop alive")
			}
			if path != "" {
				if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the pipe's path outlived Close: %v", err)
				}
			}
			if tc.released != nil {
				tc.released(t, h)
			}
			if err := h.Close(nil); !errors.Is(err, uvloop.ErrClosed) {
				t.Errorf("second Close: %v, want ErrClosed", err)
			}
			mustRunMode(t, l, uvloop.RunDefault)
			if !slices.Equal(log, []string{"close"}) {
				t.Fatalf("close callbacks %v, want one", log)
			}
			if h.HasRef() || !h.IsClosing() {
				t.Errorf("after the close phase: ref'd %v, closing %v", h.HasRef(), h.IsClosing())
			}
			if err := l.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
		})
	}
}

// walked reports whether Walk visits h.
func walked(l *uvloop.Loop, h uvloop.Handle) bool {
	found := false
	l.Walk(func(w uvloop.Handle) { found = found || w == h })
	return found
}

// TestCloseCancelsNodeScheduling: what is left of Node's scheduling API does not make Close
// fail: Close clears the timeouts and intervals and drops the immediates, nextTick callbacks,
// microtasks and posted functions, none of which runs. Afterwards they queue nothing.
func TestCloseCancelsNodeScheduling(t *testing.T) {
	l := newLoop(t)
	ran := func(what string) func() {
		return func() { t.Errorf("the %s ran after Close", what) }
	}
	iv := l.SetInterval(ran("interval"), time.Millisecond)
	to := l.SetTimeout(ran("timeout"), time.Hour)
	l.SetTimeout(ran("unref'd timeout"), time.Minute).Unref()
	im := l.SetImmediate(ran("immediate"))
	unrefIm := l.SetImmediate(ran("unref'd immediate")).Unref()
	l.NextTick(ran("tick"))
	l.QueueMicrotask(ran("microtask"))
	mustOK(t, l.Post(ran("posted function")))

	if err := l.Close(); err != nil {
		t.Fatalf("Close with Node timeouts, immediates, ticks and posts queued: %v", err)
	}
	if im.HasRef() || unrefIm.HasRef() {
		t.Error("an immediate is still queued (ref'd) after Close")
	}
	// Clearing or refreshing what Close cleared does nothing.
	l.ClearInterval(iv)
	l.ClearTimeout(to)
	iv.Refresh()
	l.ClearImmediate(im)
	// Nothing new is queued.
	if l.SetTimeout(ran("late timeout"), 0) != nil || l.SetInterval(ran("late interval"), 0) != nil ||
		l.SetImmediate(ran("late immediate")) != nil {
		t.Error("SetTimeout, SetInterval or SetImmediate on a closed loop returned a value")
	}
	l.NextTick(ran("late tick"))
	l.QueueMicrotask(ran("late microtask"))
	if err := l.Post(ran("late post")); !errors.Is(err, uvloop.ErrClosed) {
		t.Errorf("Post after Close: %v, want ErrClosed", err)
	}
	if _, err := l.Run(uvloop.RunDefault); !errors.Is(err, uvloop.ErrClosed) {
		t.Errorf("Run after Close: %v, want ErrClosed", err)
	}
}

// TestCloseCancelsAfterRun: the same after the loop ran (an interval fired, immediates and
// timeouts are left, one of them outstanding after a panic).
func TestCloseCancelsAfterRun(t *testing.T) {
	l := newLoop(t)
	fired := 0
	var iv *uvloop.Timeout
	iv = l.SetInterval(func() {
		if fired++; fired == 2 {
			l.SetImmediate(func() { panic(boom) })
			l.SetImmediate(func() { t.Error("an immediate left by the panic ran after Close") })
			l.SetTimeout(func() { t.Error("a timeout ran after Close") }, time.Hour)
		}
	}, time.Millisecond)
	_, err := l.Run(uvloop.RunDefault)
	wantPanic(t, err)
	if err := l.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if fired != 2 {
		t.Errorf("the interval fired %d times, want 2", fired)
	}
	iv.Refresh()
}

// TestCloseBusyKeepsNodeScheduling: Close that fails with ErrBusy (a handle open, work in
// flight) cancels nothing: the timeouts, immediates and ticks run when the loop runs again.
func TestCloseBusyKeepsNodeScheduling(t *testing.T) {
	l := newLoop(t)
	var log []string
	note := func(s string) func() { return func() { log = append(log, s) } }
	l.SetTimeout(note("timeout"), time.Millisecond)
	l.SetImmediate(note("immediate"))
	l.NextTick(note("tick"))
	release := make(chan struct{})
	_, err := l.QueueWork(func() { <-release }, func(err error) { mustOK(t, err); log = append(log, "work") })
	mustOK(t, err)
	idle := l.NewIdle(noopIdle)
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Close with a handle open and work in flight: %v, want ErrBusy", err)
	}
	mustOK(t, idle.Close(nil))
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Close with work in flight: %v, want ErrBusy", err)
	}
	close(release)
	mustRunMode(t, l, uvloop.RunDefault)
	for _, want := range []string{"tick", "immediate", "timeout", "work"} {
		if !slices.Contains(log, want) {
			t.Errorf("the %s did not run after a busy Close (ran %v)", want, log)
		}
	}
	closeLoop(t, l)
}

// Close cancels what Node's scheduling API left: an interval still set does not keep Close
// from succeeding, and its callback never runs again.
func ExampleLoop_Close() {
	l, _ := uvloop.New()
	ticks := 0
	l.SetInterval(func() {
		ticks++
		if ticks == 3 {
			l.Stop()
		}
	}, time.Millisecond)
	l.Run(uvloop.RunDefault)
	fmt.Println("ticks:", ticks)
	fmt.Println("close:", l.Close())
	// Output:
	// ticks: 3
	// close: <nil>
}
