package uvloop_test

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// Ports of Node's test/parallel/test-next-tick-*.js.

// TestNextTickOrdering: a tick queued by the main script runs before 30 timeouts of 0..29 ms.
// Node checks only that the tick is first; the timeouts' order is deterministic too (each
// duration has its own list, and list i expires at its start + i ms, later for every i; 0
// ms is 1 ms, so timeouts 0 and 1 share a list in creation order), so it is checked as well.
func TestNextTickOrdering(t *testing.T) {
	l := newLoop(t)
	const n = 30
	var done nodeLog
	l.NextTick(done.rec("nextTick"))
	for i := range n {
		l.SetTimeout(done.rec(fmt.Sprint(i)), time.Duration(i)*time.Millisecond)
	}
	nodeRun(t, l)
	want := []string{"nextTick"}
	for i := range n {
		want = append(want, fmt.Sprint(i))
	}
	nodeCheck(t, done, want...)
	closeLoop(t, l)
}

// TestNextTickOrdering2: a tick queued by a tick runs before a 0 ms timeout queued before it.
func TestNextTickOrdering2(t *testing.T) {
	l := newLoop(t)
	var order nodeLog
	l.NextTick(func() {
		l.SetTimeout(order.rec("setTimeout"), 0)
		l.NextTick(order.rec("nextTick"))
	})
	nodeRun(t, l)
	nodeCheck(t, order, "nextTick", "setTimeout")
	closeLoop(t, l)
}

// TestNextTickErrors: a tick that panics (throws) runs once and leaves the queue; the tick
// after it runs once the panic is handled (Run called again, as a Node process goes on after
// process.on('uncaughtException')). Node's process.nextTick throws a TypeError for a
// non-function; in Go only nil gets through the types, and NextTick ignores it.
func TestNextTickErrors(t *testing.T) {
	l := newLoop(t)
	var order nodeLog
	l.NextTick(func() {
		order.add("A")
		panic(errors.New("what is not defined"))
	})
	l.NextTick(order.rec("C"))
	l.NextTick(nil)

	handled := false
	caught := nodeRunCatching(t, l, 2, func(v any) {
		if !handled {
			handled = true
			order.add("B")
		} else {
			order.add("OOPS!") // the first tick ran twice
		}
	})
	if caught != 1 {
		t.Errorf("%d panics caught, want 1", caught)
	}
	nodeCheck(t, order, "A", "B", "C")
	closeLoop(t, l)
}

// TestNextTickIntentionalStarvation: a tick that queues itself keeps the loop out of every
// phase, timers included, for as long as it goes on (here 100 ms, past the 50 ms timeout);
// the timeout runs once the ticks stop.
func TestNextTickIntentionalStarvation(t *testing.T) {
	l := newLoop(t)
	start := time.Now()
	var ran, starved, timerRan bool
	var spin func()
	spin = func() {
		ran = true
		if time.Since(start) > 100*time.Millisecond {
			starved = true // the timer is starving, just as planned; now let it out
			return
		}
		l.NextTick(spin)
	}
	spin()
	l.SetTimeout(func() {
		if !starved {
			t.Error("the timer escaped: it ran while the ticks went on")
		}
		timerRan = true
	}, 50*time.Millisecond)
	nodeRun(t, l)
	if !ran || !starved || !timerRan {
		t.Errorf("ran %v, starved %v, timerRan %v; want all true", ran, starved, timerRan)
	}
	closeLoop(t, l)
}
