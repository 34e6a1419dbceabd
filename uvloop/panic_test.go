package uvloop_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// The panic policy: a panic in a callback makes Run return a *PanicError; the callback counts
// as run, everything else stays queued and runs in the next Run; and the loop still closes
// cleanly.

const boom = "boom"

// panicOnce returns a function that panics with boom the first time it is called.
func panicOnce() func() {
	done := false
	return func() {
		if !done {
			done = true
			panic(boom)
		}
	}
}

// wantPanic checks that err is a *PanicError carrying boom and a stack.
func wantPanic(t *testing.T, err error) {
	t.Helper()
	var pe *uvloop.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("Run returned %v, want a *PanicError", err)
	}
	if pe.Value != boom || len(pe.Stack) == 0 || !strings.Contains(pe.Error(), boom) {
		t.Fatalf("PanicError{Value: %v, %d bytes of stack}: %q", pe.Value, len(pe.Stack), pe.Error())
	}
}

func TestPanic(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, l *uvloop.Loop, note func(string)) // queues the callbacks
		first []string                                              // what has run when Run returns the panic
		rest  []string                                              // what the next RunDefault runs
	}{
		{
			name: "timer",
			setup: func(t *testing.T, l *uvloop.Loop, note func(string)) {
				var t1, t2 *uvloop.Timer
				p := panicOnce()
				t1 = l.NewTimer(func(*uvloop.Timer) {
					note("t1")
					l.NextTick(func() { note("tick") })
					p()
				})
				t2 = l.NewTimer(func(*uvloop.Timer) {
					note("t2")
					if !t1.IsActive() || t1.DueIn() <= 0 {
						t.Error("the repeating timer that panicked was not re-armed")
					}
					mustOK(t, t1.Close(nil))
					mustOK(t, t2.Close(nil))
				})
				mustOK(t, t1.Start(0, time.Hour))
				mustOK(t, t2.Start(0, 0))
			},
			first: []string{"t1"},
			rest:  []string{"tick", "t2"},
		},
		{
			name: "idle",
			setup: func(t *testing.T, l *uvloop.Loop, note func(string)) {
				var a, b *uvloop.Idle
				p := panicOnce()
				b = l.NewIdle(func(*uvloop.Idle) {
					note("b")
					mustOK(t, a.Close(nil))
					mustOK(t, b.Close(nil))
				})
				a = l.NewIdle(func(*uvloop.Idle) { note("a"); p() })
				mustOK(t, b.Start())
				mustOK(t, a.Start()) // started last, runs first
			},
			first: []string{"a"},
			rest:  []string{"a", "b"},
		},
		{
			name: "check",
			setup: func(t *testing.T, l *uvloop.Loop, note func(string)) {
				var a, b *uvloop.Check
				p := panicOnce()
				b = l.NewCheck(func(*uvloop.Check) {
					note("b")
					mustOK(t, a.Close(nil))
					mustOK(t, b.Close(nil))
				})
				a = l.NewCheck(func(*uvloop.Check) { note("a"); p() })
				mustOK(t, b.Start())
				mustOK(t, a.Start())
				l.SetImmediate(func() { note("immediate") }) // runs after the check handles
			},
			first: []string{"a"},
			rest:  []string{"a", "b", "immediate"},
		},
		{
			name: "async",
			setup: func(t *testing.T, l *uvloop.Loop, note func(string)) {
				p := panicOnce()
				a1 := l.NewAsync(func(*uvloop.Async) { note("a1"); p() })
				var a2 *uvloop.Async
				a2 = l.NewAsync(func(*uvloop.Async) {
					note("a2")
					mustOK(t, a1.Close(nil))
					mustOK(t, a2.Close(nil))
				})
				mustOK(t, a1.Send())
				mustOK(t, a2.Send())
				mustOK(t, l.Post(func() { note("post") })) // runs after the Async callbacks
			},
			first: []string{"a1"},
			rest:  []string{"a2", "post"},
		},
		{
			name: "posted function",
			setup: func(t *testing.T, l *uvloop.Loop, note func(string)) {
				mustOK(t, l.Post(func() { note("p1"); panic(boom) }))
				mustOK(t, l.Post(func() { note("p2") }))
				mustOK(t, l.Post(func() { note("p3") }))
			},
			first: []string{"p1"},
			rest:  []string{"p2", "p3"},
		},
		{
			name: "close callback",
			setup: func(t *testing.T, l *uvloop.Loop, note func(string)) {
				mustOK(t, l.NewIdle(noopIdle).Close(func() { note("c1") }))
				mustOK(t, l.NewIdle(noopIdle).Close(func() { note("c2") }))
				mustOK(t, l.NewIdle(noopIdle).Close(func() { note("c3"); panic(boom) })) // closed last, runs first
			},
			first: []string{"c3"},
			rest:  []string{"c2", "c1"},
		},
		{
			name: "immediate",
			setup: func(t *testing.T, l *uvloop.Loop, note func(string)) {
				l.SetImmediate(func() {
					note("i1")
					l.SetImmediate(func() { note("i4") }) // waits for the rest of the batch
					panic(boom)
				})
				l.SetImmediate(func() { note("i2") })
				l.SetImmediate(func() { note("i3") })
			},
			first: []string{"i1"},
			rest:  []string{"i2", "i3", "i4"},
		},
		{
			name: "nextTick",
			setup: func(t *testing.T, l *uvloop.Loop, note func(string)) {
				l.QueueMicrotask(func() { note("m1") })
				l.NextTick(func() {
					note("t1")
					l.NextTick(func() { note("t3") })
					panic(boom)
				})
				l.NextTick(func() { note("t2") })
			},
			first: []string{"t1"},
			rest:  []string{"t2", "t3", "m1"},
		},
		{
			name: "microtask",
			setup: func(t *testing.T, l *uvloop.Loop, note func(string)) {
				l.QueueMicrotask(func() { note("m1"); panic(boom) })
				l.QueueMicrotask(func() { note("m2") })
				l.SetImmediate(func() { note("immediate") })
			},
			first: []string{"m1"},
			rest:  []string{"m2", "immediate"},
		},
		{
			name: "nextTick after a timer",
			setup: func(t *testing.T, l *uvloop.Loop, note func(string)) {
				for _, name := range []string{"t1", "t2"} {
					tm := l.NewTimer(func(h *uvloop.Timer) {
						note(name)
						if name == "t1" {
							l.NextTick(func() { note("tick"); panic(boom) })
						}
						mustOK(t, h.Close(nil))
					})
					mustOK(t, tm.Start(0, 0))
				}
			},
			first: []string{"t1", "tick"},
			rest:  []string{"t2"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newLoop(t)
			var log []string
			tc.setup(t, l, func(s string) { log = append(log, s) })
			_, err := l.Run(uvloop.RunDefault)
			wantPanic(t, err)
			if !slices.Equal(log, tc.first) {
				t.Fatalf("ran %v before the panic ended Run, want %v", log, tc.first)
			}
			log = nil
			mustRunMode(t, l, uvloop.RunDefault)
			if !slices.Equal(log, tc.rest) {
				t.Errorf("the next Run ran %v, want %v", log, tc.rest)
			}
			closeLoop(t, l)
		})
	}
}

// TestPanicErrorUnwrap: a panic with an error value is seen through the *PanicError.
func TestPanicErrorUnwrap(t *testing.T) {
	l := newLoop(t)
	sentinel := errors.New("callback failed")
	l.SetImmediate(func() { panic(sentinel) })
	_, err := l.Run(uvloop.RunDefault)
	var pe *uvloop.PanicError
	if !errors.As(err, &pe) || !errors.Is(err, sentinel) {
		t.Fatalf("Run returned %v, want a *PanicError wrapping the panic's error", err)
	}
	closeLoop(t, l)
}

// TestPanicStopFlagCleared: a callback that calls Stop and then panics does not leave the
// next Run stopped.
func TestPanicStopFlagCleared(t *testing.T) {
	l := newLoop(t)
	l.SetImmediate(func() { l.Stop(); panic(boom) })
	_, err := l.Run(uvloop.RunDefault)
	wantPanic(t, err)
	fired := false
	mustOK(t, l.NewTimer(func(h *uvloop.Timer) { fired = true; h.Close(nil) }).Start(0, 0))
	mustRunMode(t, l, uvloop.RunDefault)
	if !fired {
		t.Error("the Run after the panic was stopped")
	}
	closeLoop(t, l)
}

// TestPanicPollKeepsWakeup: an I/O callback that panics in the poll phase where a wake-up
// also arrived must not lose the wake-up: the Async that sent it runs in the next Run.
func TestPanicPollKeepsWakeup(t *testing.T) {
	l := newLoop(t)
	a, b := newSocketpair(t)
	if _, err := unix.Write(b, []byte("x")); err != nil {
		t.Fatal(err)
	}
	var log []string
	p := panicOnce()
	poll, err := l.NewPoll(a, func(h *uvloop.Poll, _ uvloop.Events, _ error) {
		log = append(log, "poll")
		p()
		mustOK(t, h.Close(nil))
	})
	mustOK(t, err)
	mustOK(t, poll.Start(uvloop.Readable))
	async := l.NewAsync(func(h *uvloop.Async) {
		log = append(log, "async")
		mustOK(t, h.Close(nil))
	})
	mustOK(t, async.Send())

	_, err = l.Run(uvloop.RunDefault)
	wantPanic(t, err)
	if !slices.Equal(log, []string{"poll"}) {
		t.Fatalf("ran %v before the panic, want [poll]", log)
	}
	// RunNoWait, a few times, so that a lost wake-up fails the test instead of blocking it.
	for range 3 {
		if _, err := l.Run(uvloop.RunNoWait); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Contains(log, "async") {
		t.Errorf("the Async sent before the panic never ran (ran %v)", log)
	}
	closeLoop(t, l)
}
