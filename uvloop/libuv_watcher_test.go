package uvloop_test

import (
	"slices"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test/test-idle.c, test-loop-handles.c, test-active.c and
// test-close-order.c.

// TestIdleStarvation ports libuv's "idle_starvation": an active idle handle keeps the poll
// phase from blocking but does not starve a timer, whose callback closes the idle, check and
// timer handles; their three close callbacks end the run.
func TestIdleStarvation(t *testing.T) {
	l := newLoop(t)
	var idleCalls, checkCalls, timerCalls, closes int
	var idle *uvloop.Idle
	var check *uvloop.Check
	var tm *uvloop.Timer
	idle = l.NewIdle(func(h *uvloop.Idle) {
		if h != idle {
			t.Error("idle callback got another handle")
		}
		idleCalls++
	})
	check = l.NewCheck(func(h *uvloop.Check) {
		if h != check {
			t.Error("check callback got another handle")
		}
		checkCalls++
	})
	tm = l.NewTimer(func(h *uvloop.Timer) {
		if h != tm {
			t.Error("timer callback got another handle")
		}
		for _, c := range []uvloop.Handle{idle, check, tm} {
			closeHandle(t, c, &closes)
		}
		timerCalls++
	})
	mustOK(t, idle.Start())
	mustOK(t, check.Start())
	mustOK(t, tm.Start(50*time.Millisecond, 0))
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after every handle was closed")
	}
	if idleCalls == 0 || checkCalls == 0 {
		t.Errorf("idle called %d times, check %d times; want both > 0", idleCalls, checkCalls)
	}
	if timerCalls != 1 || closes != 3 {
		t.Errorf("timer called %d times, %d close callbacks; want 1 and 3", timerCalls, closes)
	}
	closeLoop(t, l)
}

// TestIdleCheck ports libuv's "idle_check": an idle handle that stops itself in the first
// iteration does not keep RunOnce from returning (alive, as a check handle is active) after one
// check callback; closing both lets the next RunOnce run their two close callbacks.
func TestIdleCheck(t *testing.T) {
	l := newLoop(t)
	checkCalls, closes := 0, 0
	idle := l.NewIdle(func(h *uvloop.Idle) { mustOK(t, h.Stop()) })
	check := l.NewCheck(func(*uvloop.Check) { checkCalls++ })
	mustOK(t, idle.Start())
	mustOK(t, check.Start())
	if !mustRunMode(t, l, uvloop.RunOnce) {
		t.Error("RunOnce reports the loop not alive with an active check handle")
	}
	if checkCalls != 1 {
		t.Errorf("check called %d times, want 1", checkCalls)
	}
	closeHandle(t, idle, &closes)
	closeHandle(t, check, &closes)
	if mustRunMode(t, l, uvloop.RunOnce) {
		t.Error("RunOnce reports the loop alive after the close callbacks ran")
	}
	if closes != 2 {
		t.Errorf("%d close callbacks, want 2", closes)
	}
	closeLoop(t, l)
}

// TestLoopHandles ports libuv's "loop_handles", the rules for idle, prepare and check handles:
// a handle may stop or close itself in its callback and is not called afterwards; closing
// stops it and runs its close callback once; a handle started by another of its kind during
// their phase is called in the next iteration, not this one; prepare and check run once per
// iteration; and an unref'd repeating timer keeps the loop polling without keeping it alive.
//
// prepare1 counts iterations and starts prepare2 on every other one; prepare2 stops itself and
// checks it was not called in the iteration that started it. check starts a varying number of
// idle1 handles, which stop themselves every fifth call in total and start idle2 once; idle2
// closes itself. After 21 iterations, check closes everything but the timer.
func TestLoopHandles(t *testing.T) {
	const (
		idleCount  = 7
		iterations = 21
		period     = 10 * time.Millisecond // libuv: 100ms
	)
	l := newLoop(t)
	var (
		iteration               int
		prep1Calls, prep1Closes int
		prep2Calls, prep2Closes int
		checkCalls, checkCloses int
		idle1Calls, idle1Closes int
		idles1Active            int
		idle2Calls, idle2Closes int
		idle2Started            int
		idle2Active             bool
		prep1, prep2            *uvloop.Prepare
		check                   *uvloop.Check
		idle1                   [idleCount]*uvloop.Idle
		idle2                   *uvloop.Idle
	)

	idle2Closed := func() {
		if !idle2Active {
			t.Error("idle2's close callback ran for an idle2 not started")
		}
		idle2Closes++
		idle2Active = false
	}
	idle2Cb := func(h *uvloop.Idle) {
		if h != idle2 {
			t.Error("idle2 callback got another handle")
		}
		idle2Calls++
		mustOK(t, h.Close(idle2Closed))
	}
	idle1Cb := func(h *uvloop.Idle) {
		if idles1Active <= 0 {
			t.Error("an idle1 handle ran while none was started")
		}
		// Start idle2 unless it is running or was closed (IsClosing stays true after the
		// close callback, so this happens once, as in libuv).
		if !idle2Active && (idle2 == nil || !idle2.IsClosing()) {
			idle2 = l.NewIdle(idle2Cb)
			mustOK(t, idle2.Start())
			idle2Active = true
			idle2Started++
		}
		if idle1Calls++; idle1Calls%5 == 0 {
			mustOK(t, h.Stop())
			idles1Active--
		}
	}
	checkCb := func(h *uvloop.Check) {
		if h != check {
			t.Error("check callback got another handle")
		}
		if iteration < iterations {
			for i := range 1 + iteration%idleCount {
				mustOK(t, idle1[i].Start()) // a no-op if it is active, counted anyway as in libuv
				idles1Active++
			}
		} else {
			mustOK(t, prep1.Close(func() { prep1Closes++ }))
			mustOK(t, check.Close(func() { checkCloses++ }))
			mustOK(t, prep2.Close(func() { prep2Closes++ }))
			for _, h := range idle1 {
				mustOK(t, h.Close(func() { idle1Closes++ }))
			}
			if idle2Active {
				mustOK(t, idle2.Close(idle2Closed))
			}
		}
		checkCalls++
	}
	prep2Cb := func(h *uvloop.Prepare) {
		if h != prep2 {
			t.Error("prepare2 callback got another handle")
		}
		// prepare1 starts prepare2 when the count is even and then increments it; prepare2
		// runs an iteration later, when the count is odd.
		if iteration%2 == 0 {
			t.Errorf("prepare2 ran in the iteration that started it (iteration %d)", iteration)
		}
		mustOK(t, h.Stop())
		prep2Calls++
	}
	prep1Cb := func(h *uvloop.Prepare) {
		if h != prep1 {
			t.Error("prepare1 callback got another handle")
		}
		if iteration%2 == 0 {
			mustOK(t, prep2.Start())
		}
		prep1Calls++
		iteration++
	}

	prep1 = l.NewPrepare(prep1Cb)
	mustOK(t, prep1.Start())
	check = l.NewCheck(checkCb)
	mustOK(t, check.Start())
	prep2 = l.NewPrepare(prep2Cb) // started by prepare1
	for i := range idle1 {
		idle1[i] = l.NewIdle(idle1Cb) // started by check
	}
	tm := l.NewTimer(func(*uvloop.Timer) {})
	mustOK(t, tm.Start(period, period))
	tm.Unref()

	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive with only an unref'd timer left")
	}
	if iteration != iterations || prep1Calls != iterations || checkCalls != iterations {
		t.Errorf("iterations %d, prepare1 calls %d, check calls %d; want %d each",
			iteration, prep1Calls, checkCalls, iterations)
	}
	if prep2Calls != iterations/2 {
		t.Errorf("prepare2 calls %d, want %d", prep2Calls, iterations/2)
	}
	if prep1Closes != 1 || prep2Closes != 1 || checkCloses != 1 {
		t.Errorf("close callbacks: prepare1 %d, prepare2 %d, check %d; want 1 each",
			prep1Closes, prep2Closes, checkCloses)
	}
	if idle1Calls == 0 || idle1Closes != idleCount {
		t.Errorf("idle1: %d calls, %d close callbacks; want > 0 and %d", idle1Calls, idle1Closes, idleCount)
	}
	if idle2Started == 0 || idle2Calls == 0 || idle2Closes != idle2Started || idle2Active {
		t.Errorf("idle2: started %d, called %d, closed %d, active at the end %v",
			idle2Started, idle2Calls, idle2Closes, idle2Active)
	}
	closeLoop(t, l)
}

// TestActive ports libuv's "active": a timer is active between Start and Stop or Close, and
// closing from Close on; closing makes it inactive, and the close callback runs once, while
// the timer callback never runs.
func TestActive(t *testing.T) {
	l := newLoop(t)
	tm := l.NewTimer(func(*uvloop.Timer) { t.Error("the timer fired") })
	state := func(step string, active, closing bool) {
		t.Helper()
		if tm.IsActive() != active || tm.IsClosing() != closing {
			t.Errorf("%s: active %v, closing %v; want %v, %v", step, tm.IsActive(), tm.IsClosing(), active, closing)
		}
	}
	state("new", false, false)
	mustOK(t, tm.Start(time.Second, 0))
	state("started", true, false)
	mustOK(t, tm.Stop())
	state("stopped", false, false)
	mustOK(t, tm.Start(time.Second, 0))
	state("restarted", true, false)
	closes := 0
	closeHandle(t, tm, &closes)
	state("closed", false, true)
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive")
	}
	if closes != 1 {
		t.Errorf("%d close callbacks, want 1", closes)
	}
	state("after its close callback", false, true)
	closeLoop(t, l)
}

// TestCloseOrder ports libuv's "close_order": a check callback runs before the close callbacks
// of the handles closed before the close phase (one in a timer callback, two in the check
// callback). uvgo adds what its documentation promises and libuv also does: the close
// callbacks run last-closed first.
func TestCloseOrder(t *testing.T) {
	l := newLoop(t)
	var checkCalls, timerCalls int
	var order []string
	closeCb := func(name string) func() {
		return func() { order = append(order, name) }
	}
	var check *uvloop.Check
	var timer1, timer2 *uvloop.Timer
	timerCb := func(h *uvloop.Timer) {
		name := "timer1"
		if h == timer2 {
			name = "timer2"
		}
		mustOK(t, h.Close(closeCb(name)))
		timerCalls++
	}
	check = l.NewCheck(func(h *uvloop.Check) {
		if checkCalls != 0 || timerCalls != 1 || len(order) != 0 {
			t.Errorf("check: %d check calls, %d timer calls, %d close callbacks; want 0, 1, 0",
				checkCalls, timerCalls, len(order))
		}
		mustOK(t, h.Close(closeCb("check")))
		mustOK(t, timer2.Close(closeCb("timer2")))
		checkCalls++
	})
	timer1, timer2 = l.NewTimer(timerCb), l.NewTimer(timerCb)
	mustOK(t, check.Start())
	mustOK(t, timer1.Start(0, 0))
	mustOK(t, timer2.Start(100*time.Second, 0))
	if checkCalls != 0 || timerCalls != 0 || len(order) != 0 {
		t.Fatal("callbacks ran before Run")
	}
	mustRunMode(t, l, uvloop.RunDefault)
	if checkCalls != 1 || timerCalls != 1 || len(order) != 3 {
		t.Errorf("%d check calls, %d timer calls, %d close callbacks; want 1, 1, 3",
			checkCalls, timerCalls, len(order))
	}
	if want := []string{"timer2", "check", "timer1"}; !slices.Equal(order, want) {
		t.Errorf("close callbacks ran in the order %v, want last closed first %v", order, want)
	}
	closeLoop(t, l)
}

// TestQueueForeachDelete ports libuv's "queue_foreach_delete" for idle, prepare and check
// handles: of three started handles of a kind, the last started runs first and closes itself
// and the one that would run next; that one is not called, the first started still is, and
// RunNoWait reports the loop alive.
func TestQueueForeachDelete(t *testing.T) {
	type watcher interface {
		uvloop.Handle
		Start() error
	}
	kinds := []struct {
		name string
		make func(l *uvloop.Loop, cb func()) watcher
	}{
		{"idle", func(l *uvloop.Loop, cb func()) watcher { return l.NewIdle(func(*uvloop.Idle) { cb() }) }},
		{"prepare", func(l *uvloop.Loop, cb func()) watcher { return l.NewPrepare(func(*uvloop.Prepare) { cb() }) }},
		{"check", func(l *uvloop.Loop, cb func()) watcher { return l.NewCheck(func(*uvloop.Check) { cb() }) }},
	}
	l := newLoop(t)
	calls := make([][3]int, len(kinds))
	for k, kind := range kinds {
		var hs [3]watcher
		hs[0] = kind.make(l, func() { calls[k][0]++ })
		hs[1] = kind.make(l, func() {
			calls[k][1]++
			t.Errorf("%s #1 ran after #2 closed it", kind.name)
		})
		hs[2] = kind.make(l, func() {
			calls[k][2]++
			mustOK(t, hs[2].Close(nil))
			mustOK(t, hs[1].Close(nil))
		})
		for _, h := range hs {
			mustOK(t, h.Start())
		}
	}
	if !mustRunMode(t, l, uvloop.RunNoWait) {
		t.Error("RunNoWait reports the loop not alive with handles #0 active")
	}
	for k, kind := range kinds {
		if calls[k] != [3]int{1, 0, 1} {
			t.Errorf("%s: calls per handle %v, want [1 0 1]", kind.name, calls[k])
		}
	}
	closeLoop(t, l)
}
