package uvloop_test

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// The hot paths allocate nothing once warm: an iteration with nothing to do, each kind of
// callback the loop calls every iteration, a timer restarted and fired (a new one costs only
// its handle), an Async sent and run,
// and the nextTick/microtask drain. SetImmediate allocates its *Immediate and nothing else.

const allocRuns = 1000

// checkAllocs runs iteration once to warm up, then checks that it allocates at most max times
// on average over allocRuns more runs (plus the one AllocsPerRun makes to warm up). The race
// detector adds no allocation of its own on these paths, so the check holds under -race too.
func checkAllocs(t *testing.T, max float64, iteration func()) {
	t.Helper()
	iteration()
	if got := testing.AllocsPerRun(allocRuns, iteration); got > max {
		t.Errorf("%v allocations per iteration, want at most %v", got, max)
	}
}

// noWait is one RunNoWait that must not fail.
func noWait(t *testing.T, l *uvloop.Loop) {
	if _, err := l.Run(uvloop.RunNoWait); err != nil {
		t.Fatal(err)
	}
}

func TestAllocEmptyIteration(t *testing.T) {
	l := newLoop(t)
	a := l.NewAsync(nil) // keeps the loop alive without giving it anything to do
	checkAllocs(t, 0, func() { noWait(t, l) })
	a.Unref() // now the loop is not alive: Run returns at once
	checkAllocs(t, 0, func() { noWait(t, l) })
	closeLoop(t, l)
}

// TestAllocTimerOneShot: a new Timer started, fired and closed costs one allocation, the
// handle itself.
func TestAllocTimerOneShot(t *testing.T) {
	l := newLoop(t)
	fired := 0
	cb := func(tm *uvloop.Timer) { fired++; tm.Close(nil) }
	checkAllocs(t, 1, func() {
		if err := l.NewTimer(cb).Start(0, 0); err != nil {
			t.Fatal(err)
		}
		noWait(t, l)
		noWait(t, l) // the close phase after the timers phase that fired it
	})
	if fired != allocRuns+2 {
		t.Errorf("%d timers fired", fired)
	}
	closeLoop(t, l)
}

func TestAllocTimerRestart(t *testing.T) {
	l := newLoop(t)
	fired := 0
	tm := l.NewTimer(func(*uvloop.Timer) { fired++ })
	checkAllocs(t, 0, func() {
		if err := tm.Start(0, 0); err != nil {
			t.Fatal(err)
		}
		noWait(t, l)
	})
	if fired != allocRuns+2 {
		t.Errorf("the timer fired %d times", fired)
	}
	closeLoop(t, l)
}

func TestAllocRepeatingTimer(t *testing.T) {
	l := newLoop(t)
	fired := 0
	tm := l.NewTimer(func(*uvloop.Timer) { fired++ })
	mustOK(t, tm.Start(time.Nanosecond, time.Nanosecond))
	time.Sleep(time.Millisecond)
	checkAllocs(t, 0, func() { noWait(t, l) })
	if fired == 0 {
		t.Error("the repeating timer never fired")
	}
	closeLoop(t, l)
}

func TestAllocIdle(t *testing.T) {
	l := newLoop(t)
	calls := 0
	mustOK(t, l.NewIdle(func(*uvloop.Idle) { calls++ }).Start())
	checkAllocs(t, 0, func() { noWait(t, l) })
	if calls == 0 {
		t.Error("the idle callback never ran")
	}
	closeLoop(t, l)
}

func TestAllocPrepareCheck(t *testing.T) {
	l := newLoop(t)
	prepares, checks := 0, 0
	mustOK(t, l.NewPrepare(func(*uvloop.Prepare) { prepares++ }).Start())
	mustOK(t, l.NewCheck(func(*uvloop.Check) { checks++ }).Start())
	checkAllocs(t, 0, func() { noWait(t, l) })
	if prepares == 0 || prepares != checks {
		t.Errorf("%d prepare and %d check callbacks", prepares, checks)
	}
	closeLoop(t, l)
}

func TestAllocAsync(t *testing.T) {
	l := newLoop(t)
	calls := 0
	a := l.NewAsync(func(*uvloop.Async) { calls++ })
	checkAllocs(t, 0, func() {
		if err := a.Send(); err != nil {
			t.Fatal(err)
		}
		noWait(t, l)
	})
	if calls != allocRuns+2 {
		t.Errorf("the Async callback ran %d times", calls)
	}
	closeLoop(t, l)
}

func TestAllocPoll(t *testing.T) {
	l := newLoop(t)
	a, b := newSocketpair(t)
	if _, err := unix.Write(b, []byte("x")); err != nil {
		t.Fatal(err)
	}
	calls := 0
	p, err := l.NewPoll(a, func(*uvloop.Poll, uvloop.Events, error) { calls++ }) // never reads: level-triggered
	mustOK(t, err)
	mustOK(t, p.Start(uvloop.Readable))
	checkAllocs(t, 0, func() { noWait(t, l) })
	if calls == 0 {
		t.Error("the poll callback never ran")
	}
	closeLoop(t, l)
}

func TestAllocPost(t *testing.T) {
	l := newLoop(t)
	calls := 0
	fn := func() { calls++ }
	checkAllocs(t, 0, func() {
		if err := l.Post(fn); err != nil {
			t.Fatal(err)
		}
		noWait(t, l)
	})
	if calls == 0 {
		t.Error("the posted function never ran")
	}
	closeLoop(t, l)
}

func TestAllocSetImmediate(t *testing.T) {
	l := newLoop(t)
	calls := 0
	fn := func() { calls++ }
	checkAllocs(t, 1, func() {
		l.SetImmediate(fn)
		noWait(t, l)
	})
	if calls == 0 {
		t.Error("the immediate never ran")
	}
	closeLoop(t, l)
}

func TestAllocNextTick(t *testing.T) {
	l := newLoop(t)
	ticks, micros := 0, 0
	tick := func() { ticks++ }
	micro := func() { micros++ }
	checkAllocs(t, 0, func() {
		l.NextTick(tick)
		l.QueueMicrotask(micro)
		noWait(t, l) // Run drains what was queued before it first
	})
	if ticks == 0 || ticks != micros {
		t.Errorf("%d ticks and %d microtasks ran", ticks, micros)
	}
	closeLoop(t, l)
}
