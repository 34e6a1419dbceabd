package uvloop_test

import (
	"errors"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Misuse of the loop and its handles returns an error wrapping one of the package's sentinels
// and leaves the loop working: after each misuse the loop still fires a timer and closes
// cleanly.

// loopStillWorks fires a 0ms timer with RunOnce, checks that it ran, and runs its close
// callback with RunNoWait.
func loopStillWorks(t *testing.T, l *uvloop.Loop) {
	t.Helper()
	fired := false
	tm := l.NewTimer(func(h *uvloop.Timer) {
		fired = true
		mustOK(t, h.Close(nil))
	})
	mustOK(t, tm.Start(0, 0))
	if _, err := l.Run(uvloop.RunOnce); err != nil {
		t.Fatalf("Run after the misuse: %v", err)
	}
	if !fired {
		t.Fatal("a 0ms timer did not fire after the misuse")
	}
	if _, err := l.Run(uvloop.RunNoWait); err != nil { // the timer's close phase
		t.Fatalf("Run after the misuse: %v", err)
	}
}

// fromAnotherGoroutine calls fn on a new goroutine while l is running (blocked in poll until
// fn has returned and sent an Async) and returns fn's error.
func fromAnotherGoroutine(t *testing.T, l *uvloop.Loop, fn func() error) error {
	t.Helper()
	var got error
	done := make(chan struct{})
	async := l.NewAsync(func(h *uvloop.Async) { mustOK(t, h.Close(nil)) })
	prepare := l.NewPrepare(func(h *uvloop.Prepare) {
		mustOK(t, h.Close(nil))
		go func() {
			defer close(done)
			got = fn()
			if err := async.Send(); err != nil {
				t.Errorf("Send: %v", err)
			}
		}()
	})
	mustOK(t, prepare.Start())
	mustRunMode(t, l, uvloop.RunDefault)
	<-done
	return got
}

// fromCallback calls fn from a timer callback and returns its error.
func fromCallback(t *testing.T, l *uvloop.Loop, fn func() error) error {
	t.Helper()
	var got error
	ran := false
	tm := l.NewTimer(func(h *uvloop.Timer) {
		got = fn()
		ran = true
		mustOK(t, h.Close(nil))
	})
	mustOK(t, tm.Start(0, 0))
	mustRunMode(t, l, uvloop.RunDefault)
	if !ran {
		t.Fatal("the timer did not fire")
	}
	return got
}

// closed returns h closed, with its close callback run if ran is set.
func closed[H uvloop.Handle](t *testing.T, h H, ran bool) H {
	t.Helper()
	mustOK(t, h.Close(nil))
	if ran {
		mustRunMode(t, h.Loop(), uvloop.RunDefault)
	}
	return h
}

func noopTimer(*uvloop.Timer)                     {}
func noopIdle(*uvloop.Idle)                       {}
func noopPrepare(*uvloop.Prepare)                 {}
func noopCheck(*uvloop.Check)                     {}
func noopPoll(*uvloop.Poll, uvloop.Events, error) {}

// newPollT returns a stopped poll handle on one end of a new socket pair.
func newPollT(t *testing.T, l *uvloop.Loop) *uvloop.Poll {
	t.Helper()
	a, _ := newSocketpair(t)
	p, err := l.NewPoll(a, noopPoll)
	mustOK(t, err)
	return p
}

// TestMisuse: each misuse returns an error wrapping its sentinel, and the loop goes on.
func TestMisuse(t *testing.T) {
	tests := []struct {
		name   string
		misuse func(t *testing.T, l *uvloop.Loop) error
		want   error
	}{
		// Re-entrancy and goroutines.
		{
			name: "Run from a callback",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				return fromCallback(t, l, func() error { _, err := l.Run(uvloop.RunDefault); return err })
			},
			want: uvloop.ErrRunning,
		},
		{
			name: "RunNoWait from a callback",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				return fromCallback(t, l, func() error { _, err := l.Run(uvloop.RunNoWait); return err })
			},
			want: uvloop.ErrRunning,
		},
		{
			name: "Close from a callback",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				return fromCallback(t, l, l.Close)
			},
			want: uvloop.ErrRunning,
		},
		{
			name: "Run from another goroutine while running",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				return fromAnotherGoroutine(t, l, func() error { _, err := l.Run(uvloop.RunNoWait); return err })
			},
			want: uvloop.ErrRunning,
		},
		{
			name: "Close from another goroutine while running",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				return fromAnotherGoroutine(t, l, l.Close)
			},
			want: uvloop.ErrRunning,
		},
		{
			name: "invalid RunMode above",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				_, err := l.Run(uvloop.RunNoWait + 1)
				return err
			},
			want: uvloop.ErrInvalidMode,
		},
		{
			name: "invalid RunMode below",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				_, err := l.Run(uvloop.RunDefault - 1)
				return err
			},
			want: uvloop.ErrInvalidMode,
		},

		// Closing and closed handles.
		{
			name:   "Timer.Start on a closing timer",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return closed(t, l.NewTimer(noopTimer), false).Start(0, 0) },
			want:   uvloop.ErrClosed,
		},
		{
			name:   "Timer.Start on a closed timer",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return closed(t, l.NewTimer(noopTimer), true).Start(0, 0) },
			want:   uvloop.ErrClosed,
		},
		{
			name: "Timer.Again on a closing timer",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				tm := l.NewTimer(noopTimer)
				mustOK(t, tm.Start(time.Hour, time.Hour))
				return closed(t, tm, false).Again()
			},
			want: uvloop.ErrClosed,
		},
		{
			name:   "Idle.Start on a closed idle",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return closed(t, l.NewIdle(noopIdle), false).Start() },
			want:   uvloop.ErrClosed,
		},
		{
			name:   "Prepare.Start on a closed prepare",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return closed(t, l.NewPrepare(noopPrepare), true).Start() },
			want:   uvloop.ErrClosed,
		},
		{
			name:   "Check.Start on a closed check",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return closed(t, l.NewCheck(noopCheck), false).Start() },
			want:   uvloop.ErrClosed,
		},
		{
			name: "Poll.Start on a closed poll",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				return closed(t, newPollT(t, l), false).Start(uvloop.Readable)
			},
			want: uvloop.ErrClosed,
		},
		{
			name:   "Async.Send after Close",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return closed(t, l.NewAsync(nil), false).Send() },
			want:   uvloop.ErrClosed,
		},
		{
			name:   "Async.Send after the close callback",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return closed(t, l.NewAsync(nil), true).Send() },
			want:   uvloop.ErrClosed,
		},
		{
			name:   "Close twice: timer",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return closed(t, l.NewTimer(noopTimer), false).Close(nil) },
			want:   uvloop.ErrClosed,
		},
		{
			name:   "Close twice: idle",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return closed(t, l.NewIdle(noopIdle), false).Close(nil) },
			want:   uvloop.ErrClosed,
		},
		{
			name: "Close twice: prepare",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				return closed(t, l.NewPrepare(noopPrepare), false).Close(nil)
			},
			want: uvloop.ErrClosed,
		},
		{
			name:   "Close twice: check",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return closed(t, l.NewCheck(noopCheck), false).Close(nil) },
			want:   uvloop.ErrClosed,
		},
		{
			name:   "Close twice: async",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return closed(t, l.NewAsync(nil), false).Close(nil) },
			want:   uvloop.ErrClosed,
		},
		{
			name:   "Close twice: poll",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return closed(t, newPollT(t, l), false).Close(nil) },
			want:   uvloop.ErrClosed,
		},
		{
			name: "Close after the close callback ran",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				h := closed(t, l.NewIdle(noopIdle), true)
				return h.Close(func() { t.Error("a second close callback ran") })
			},
			want: uvloop.ErrClosed,
		},

		// Timers.
		{
			name:   "Again on a never-started timer",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return l.NewTimer(noopTimer).Again() },
			want:   uvloop.ErrNeverStarted,
		},
		{
			name: "negative timeout",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				return startUnchanged(t, l, -time.Millisecond, 0)
			},
			want: uvloop.ErrNegativeDuration,
		},
		{
			name: "negative repeat",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				return startUnchanged(t, l, time.Millisecond, -time.Millisecond)
			},
			want: uvloop.ErrNegativeDuration,
		},

		// Callbacks.
		{
			name:   "Timer without a callback",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return l.NewTimer(nil).Start(0, 0) },
			want:   uvloop.ErrNilCallback,
		},
		{
			name:   "Idle without a callback",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return l.NewIdle(nil).Start() },
			want:   uvloop.ErrNilCallback,
		},
		{
			name:   "Prepare without a callback",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return l.NewPrepare(nil).Start() },
			want:   uvloop.ErrNilCallback,
		},
		{
			name:   "Check without a callback",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return l.NewCheck(nil).Start() },
			want:   uvloop.ErrNilCallback,
		},
		{
			name: "Poll without a callback",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				a, _ := newSocketpair(t)
				_, err := l.NewPoll(a, nil)
				return err
			},
			want: uvloop.ErrNilCallback,
		},
		{
			name:   "Post without a function",
			misuse: func(t *testing.T, l *uvloop.Loop) error { return l.Post(nil) },
			want:   uvloop.ErrNilCallback,
		},

		// File descriptors.
		{
			name: "Poll of a negative fd",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				_, err := l.NewPoll(-1, noopPoll)
				return err
			},
			want: uvloop.ErrBadFd,
		},
		{
			name: "two Polls of one fd",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				p := newPollT(t, l)
				mustOK(t, p.Start(uvloop.Readable))
				_, err := l.NewPoll(p.Fd(), noopPoll)
				return err
			},
			want: uvloop.ErrFdInUse,
		},

		// Closing the loop too early.
		{
			name: "Close with an open handle",
			misuse: func(t *testing.T, l *uvloop.Loop) error {
				l.NewIdle(noopIdle)
				return l.Close()
			},
			want: uvloop.ErrBusy,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newLoop(t)
			err := tc.misuse(t, l)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want an error wrapping %v", err, tc.want)
			}
			loopStillWorks(t, l)
			closeLoop(t, l)
		})
	}
}

// startUnchanged starts a timer with timeout and repeat after arming it for an hour, and
// checks that the failed Start left it as it was.
func startUnchanged(t *testing.T, l *uvloop.Loop, timeout, repeat time.Duration) error {
	t.Helper()
	tm := l.NewTimer(func(*uvloop.Timer) { t.Error("the timer fired") })
	mustOK(t, tm.Start(time.Hour, time.Minute))
	due := tm.DueIn()
	err := tm.Start(timeout, repeat)
	if !tm.IsActive() || tm.DueIn() != due || tm.Repeat() != time.Minute {
		t.Errorf("a failed Start changed the timer: active %v, due in %v (was %v), repeat %v",
			tm.IsActive(), tm.DueIn(), due, tm.Repeat())
	}
	return err
}

// TestMisuseAfterClose: a closed loop refuses everything with ErrClosed.
func TestMisuseAfterClose(t *testing.T) {
	tests := []struct {
		name   string
		misuse func(t *testing.T, l *uvloop.Loop) error
	}{
		{"RunDefault", func(t *testing.T, l *uvloop.Loop) error { _, err := l.Run(uvloop.RunDefault); return err }},
		{"RunOnce", func(t *testing.T, l *uvloop.Loop) error { _, err := l.Run(uvloop.RunOnce); return err }},
		{"RunNoWait", func(t *testing.T, l *uvloop.Loop) error { _, err := l.Run(uvloop.RunNoWait); return err }},
		{"Close", func(t *testing.T, l *uvloop.Loop) error { return l.Close() }},
		{"Post", func(t *testing.T, l *uvloop.Loop) error { return l.Post(func() { t.Error("ran") }) }},
		{"Post from another goroutine", func(t *testing.T, l *uvloop.Loop) error {
			errc := make(chan error)
			go func() { errc <- l.Post(func() { t.Error("ran") }) }()
			return <-errc
		}},
		{"Timer.Start", func(t *testing.T, l *uvloop.Loop) error { return l.NewTimer(noopTimer).Start(0, 0) }},
		{"Idle.Start", func(t *testing.T, l *uvloop.Loop) error { return l.NewIdle(noopIdle).Start() }},
		{"Prepare.Start", func(t *testing.T, l *uvloop.Loop) error { return l.NewPrepare(noopPrepare).Start() }},
		{"Check.Start", func(t *testing.T, l *uvloop.Loop) error { return l.NewCheck(noopCheck).Start() }},
		{"Async.Send", func(t *testing.T, l *uvloop.Loop) error { return l.NewAsync(nil).Send() }},
		{"NewPoll", func(t *testing.T, l *uvloop.Loop) error {
			a, _ := newSocketpair(t)
			_, err := l.NewPoll(a, noopPoll)
			return err
		}},
		{"handle Close", func(t *testing.T, l *uvloop.Loop) error { return l.NewIdle(noopIdle).Close(nil) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newLoop(t)
			mustOK(t, l.Close())
			if err := tc.misuse(t, l); !errors.Is(err, uvloop.ErrClosed) {
				t.Errorf("got %v, want an error wrapping ErrClosed", err)
			}
			if l.SetTimeout(func() {}, 0) != nil || l.SetImmediate(func() {}) != nil {
				t.Error("SetTimeout or SetImmediate on a closed loop returned a value")
			}
		})
	}
}

// TestCloseBusy: Close fails with ErrBusy while a handle is open, active or not, and while a
// closed handle waits for its close callback; once the callbacks have run it succeeds, and a
// second Close fails with ErrClosed.
func TestCloseBusy(t *testing.T) {
	l := newLoop(t)
	idle := l.NewIdle(noopIdle)
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Close with an inactive handle: %v, want ErrBusy", err)
	}
	tm := l.NewTimer(noopTimer)
	mustOK(t, tm.Start(time.Hour, 0))
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Close with an active timer: %v, want ErrBusy", err)
	}
	closes := 0
	closeHandle(t, idle, &closes)
	closeHandle(t, tm, &closes)
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Close before the close callbacks ran: %v, want ErrBusy", err)
	}
	loopStillWorks(t, l)
	if closes != 2 {
		t.Fatalf("%d close callbacks, want 2", closes)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("Close after the close callbacks ran: %v", err)
	}
	if err := l.Close(); !errors.Is(err, uvloop.ErrClosed) {
		t.Errorf("second Close: %v, want ErrClosed", err)
	}
}

// TestTolerated: operations that libuv accepts as no-ops are no-ops in uvgo too, not errors.
func TestTolerated(t *testing.T) {
	l := newLoop(t)
	tm := l.NewTimer(noopTimer)
	mustOK(t, tm.Stop()) // never started
	tm.SetRepeat(-time.Second)
	if tm.Repeat() != 0 {
		t.Errorf("a negative repeat became %v, want 0", tm.Repeat())
	}
	mustOK(t, tm.Start(time.Hour, 0))
	mustOK(t, tm.Again()) // repeat 0: nothing to do
	if !tm.IsActive() {
		t.Error("Again with repeat 0 stopped the timer")
	}
	idle := l.NewIdle(noopIdle)
	mustOK(t, idle.Start())
	mustOK(t, idle.Start()) // already active
	p := newPollT(t, l)
	mustOK(t, p.Start(0)) // the same as Stop
	if p.IsActive() {
		t.Error("Start(0) left the poll handle active")
	}
	for _, h := range []uvloop.Handle{tm, idle, p} {
		mustOK(t, h.Close(nil))
	}
	// Stopping a closed handle does nothing.
	mustOK(t, tm.Stop())
	mustOK(t, idle.Stop())
	mustOK(t, p.Stop())
	loopStillWorks(t, l)
	closeLoop(t, l)
}
