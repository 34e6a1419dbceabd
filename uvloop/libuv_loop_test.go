package uvloop_test

import (
	"errors"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test/test-loop-alive.c, test-loop-stop.c, test-loop-close.c,
// test-run-once.c, test-run-nowait.c and test-walk-handles.c.

// TestLoopAlive ports libuv's "loop_alive": a new loop is not alive, an active timer makes it
// alive, and it is not alive once the timer has fired. libuv's second half uses a work
// request; the loop core has no work pool, so a posted function, which keeps the loop alive
// until it has run, stands in for the request.
func TestLoopAlive(t *testing.T) {
	l := newLoop(t)
	if l.Alive() {
		t.Error("a new loop is alive")
	}
	tm := l.NewTimer(func(*uvloop.Timer) {})
	mustOK(t, tm.Start(10*time.Millisecond, 0))
	if !l.Alive() {
		t.Error("a loop with an active timer is not alive")
	}
	if mustRunMode(t, l, uvloop.RunDefault) || l.Alive() {
		t.Error("the loop is alive after its only timer fired")
	}

	ran := false
	mustOK(t, l.Post(func() { ran = true }))
	if !l.Alive() {
		t.Error("a loop with a posted function waiting is not alive")
	}
	if mustRunMode(t, l, uvloop.RunDefault) || l.Alive() {
		t.Error("the loop is alive after the posted function ran")
	}
	if !ran {
		t.Error("the posted function did not run")
	}
	closeLoop(t, l)
}

// TestLoopStop ports libuv's "loop_stop": Stop from a timer callback makes RunDefault return
// alive after that iteration; RunNoWait then runs one more iteration; RunDefault then runs
// until the prepare handle and the repeating timer have stopped themselves after ten calls.
// (libuv's period is 100ms; 10ms will do.)
func TestLoopStop(t *testing.T) {
	const ticks = 10
	l := newLoop(t)
	var prepareCalls, timerCalls int
	var prepare *uvloop.Prepare
	var tm *uvloop.Timer
	prepare = l.NewPrepare(func(h *uvloop.Prepare) {
		if h != prepare {
			t.Error("prepare callback got another handle")
		}
		if prepareCalls++; prepareCalls == ticks {
			mustOK(t, h.Stop())
		}
	})
	tm = l.NewTimer(func(h *uvloop.Timer) {
		if h != tm {
			t.Error("timer callback got another handle")
		}
		timerCalls++
		switch timerCalls {
		case 1:
			l.Stop()
		case ticks:
			mustOK(t, h.Stop())
		}
	})
	mustOK(t, prepare.Start())
	mustOK(t, tm.Start(10*time.Millisecond, 10*time.Millisecond))

	if !mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run stopped by Stop reports the loop not alive")
	}
	if timerCalls != 1 {
		t.Errorf("timer called %d times before Stop took effect, want 1", timerCalls)
	}
	if !mustRunMode(t, l, uvloop.RunNoWait) {
		t.Error("RunNoWait reports the loop not alive")
	}
	if prepareCalls <= 1 {
		t.Errorf("prepare called %d times after RunNoWait, want more than 1", prepareCalls)
	}
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after both handles stopped")
	}
	if timerCalls != ticks || prepareCalls != ticks {
		t.Errorf("timer %d calls, prepare %d; want %d each", timerCalls, prepareCalls, ticks)
	}
	closeLoop(t, l)
}

// TestLoopStopBeforeRun ports libuv's "loop_stop_before_run": Stop before Run makes Run return
// alive without running a due timer.
func TestLoopStopBeforeRun(t *testing.T) {
	l := newLoop(t)
	tm := l.NewTimer(func(*uvloop.Timer) { t.Error("the timer fired in a stopped run") })
	mustOK(t, tm.Start(0, 0))
	l.Stop()
	if !mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run after Stop reports the loop not alive, with a due timer")
	}
	// Stop lasts for one Run only: the next one fires the timer.
	fired := false
	tm2 := l.NewTimer(func(*uvloop.Timer) { fired = true })
	mustOK(t, tm.Close(nil))
	mustOK(t, tm2.Start(0, 0))
	mustRunMode(t, l, uvloop.RunDefault)
	if !fired {
		t.Error("Stop before a Run lasted beyond it")
	}
	closeLoop(t, l)
}

// TestLoopClose ports libuv's "loop_close": Close fails with ErrBusy (libuv: EBUSY) while a
// timer is active; once the timer is closed and its close callback has run, Close succeeds.
func TestLoopClose(t *testing.T) {
	l := newLoop(t)
	tm := l.NewTimer(func(h *uvloop.Timer) { h.Loop().Stop() })
	mustOK(t, tm.Start(10*time.Millisecond, 10*time.Millisecond))
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Close with an active timer: %v, want ErrBusy", err)
	}
	mustRunMode(t, l, uvloop.RunDefault)
	mustOK(t, tm.Close(nil))
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after the timer was closed")
	}
	if err := l.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// TestLoopInstantClose ports libuv's "loop_instant_close", which queues work on a new loop and
// leaves it. The loop core has no work pool; the nearest uvgo case is a function posted to a
// loop that is closed before it ever runs: Close succeeds (uvgo's documented behaviour is that
// posted functions not yet run are discarded), the function never runs, and Post then fails
// with ErrClosed.
func TestLoopInstantClose(t *testing.T) {
	l := newLoop(t)
	mustOK(t, l.Post(func() { t.Error("a posted function ran after Close") }))
	if err := l.Close(); err != nil {
		t.Fatalf("Close with a posted function waiting: %v", err)
	}
	if err := l.Post(func() {}); !errors.Is(err, uvloop.ErrClosed) {
		t.Errorf("Post after Close: %v, want ErrClosed", err)
	}
	if _, err := l.Run(uvloop.RunDefault); !errors.Is(err, uvloop.ErrClosed) {
		t.Errorf("Run after Close: %v, want ErrClosed", err)
	}
}

// TestRunOnce ports libuv's "run_once": RunOnce in a loop runs an idle handle once per call
// until it stops itself, and then reports the loop not alive.
func TestRunOnce(t *testing.T) {
	const ticks = 64
	l := newLoop(t)
	calls := 0
	var idle *uvloop.Idle
	idle = l.NewIdle(func(h *uvloop.Idle) {
		if h != idle {
			t.Error("idle callback got another handle")
		}
		if calls++; calls == ticks {
			mustOK(t, h.Stop())
		}
	})
	mustOK(t, idle.Start())
	runs := 0
	for mustRunMode(t, l, uvloop.RunOnce) {
		runs++
	}
	if calls != ticks {
		t.Errorf("idle called %d times, want %d", calls, ticks)
	}
	if runs != ticks-1 {
		t.Errorf("RunOnce reported alive %d times, want %d (one idle call each)", runs, ticks-1)
	}
	closeLoop(t, l)
}

// TestRunNowait ports libuv's "run_nowait": RunNoWait does not wait for a timer that is not
// due, and reports the loop alive.
func TestRunNowait(t *testing.T) {
	l := newLoop(t)
	tm := l.NewTimer(func(*uvloop.Timer) { t.Error("a timer fired before it was due") })
	mustOK(t, tm.Start(time.Hour, time.Hour))
	if !mustRunMode(t, l, uvloop.RunNoWait) {
		t.Error("RunNoWait reports the loop not alive with an active timer")
	}
	closeLoop(t, l)
}

// TestWalkHandles ports libuv's "walk_handles": Walk from a callback sees the one handle of the
// loop, and sees nothing once that handle is closed and the loop has run out. The loop's own
// handles (the one behind SetTimeout) are never walked.
func TestWalkHandles(t *testing.T) {
	l := newLoop(t)
	walked := 0
	l.Walk(func(uvloop.Handle) { walked++ })
	if walked != 0 {
		t.Errorf("Walk of a new loop saw %d handles", walked)
	}

	seen := 0
	var tm *uvloop.Timer
	tm = l.NewTimer(func(h *uvloop.Timer) {
		if h != tm {
			t.Error("timer callback got another handle")
		}
		l.Walk(func(w uvloop.Handle) {
			if w != uvloop.Handle(tm) {
				t.Errorf("Walk saw an unexpected %s handle", w.Kind())
				return
			}
			seen++
		})
		mustOK(t, h.Close(nil))
	})
	mustOK(t, tm.Start(time.Millisecond, 0))
	l.SetTimeout(func() {}, time.Millisecond) // arms the loop's own timer, which Walk hides
	mustRunMode(t, l, uvloop.RunDefault)
	if seen != 1 {
		t.Errorf("Walk from the callback saw the timer %d times, want 1", seen)
	}
	seen = 0
	l.Walk(func(uvloop.Handle) { seen++ })
	if seen != 0 {
		t.Errorf("Walk after the run saw %d handles, want 0", seen)
	}
	closeLoop(t, l)
}

// TestLoopUpdateTime ports libuv's "loop_update_time": Run updates the loop time even when
// the loop is not alive, so a loop of RunNoWait calls on an empty loop, each returning false,
// sees Now advance (20ms here; libuv waits for a second).
func TestLoopUpdateTime(t *testing.T) {
	l := newLoop(t)
	start := l.Now()
	for l.Now()-start < 20*time.Millisecond {
		if mustRunMode(t, l, uvloop.RunNoWait) {
			t.Fatal("RunNoWait reports an empty loop alive")
		}
	}
	closeLoop(t, l)
}
