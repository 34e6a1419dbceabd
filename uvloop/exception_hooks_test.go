package uvloop_test

import (
	"errors"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// After a panic in a timeout, DeferDrain and a no-op immediate (what nodeprocess does for a
// handled uncaught exception) let the rest of the due timeouts run before the queues, as
// Node does; without DeferDrain the queues drain first.
func TestDeferDrain(t *testing.T) {
	for _, deferDrain := range []bool{true, false} {
		l := newLoop(t)
		var log nodeLog
		l.SetTimeout(func() {
			log.add("t1")
			l.NextTick(log.rec("tick from t1"))
			panic("t1")
		}, time.Millisecond)
		l.SetTimeout(log.rec("t2"), time.Millisecond)
		nodeBusyWait(2 * time.Millisecond)
		var pe *uvloop.PanicError
		if _, err := l.Run(uvloop.RunDefault); !errors.As(err, &pe) || pe.Value != "t1" {
			t.Fatalf("Run: %v", err)
		}
		if deferDrain {
			l.SetImmediate(func() {})
			l.DeferDrain()
		}
		mustRunMode(t, l, uvloop.RunDefault)
		if deferDrain {
			nodeCheck(t, log, "t1", "t2", "tick from t1")
		} else {
			nodeCheck(t, log, "t1", "tick from t1", "t2")
		}
		closeLoop(t, l)
	}
}

// With a microtask panic handler the drain goes on after the report; Fail from the handler
// ends Run with its error.
func TestSetMicrotaskPanicHandler(t *testing.T) {
	l := newLoop(t)
	var log nodeLog
	var stack []byte
	l.SetMicrotaskPanicHandler(func(pe *uvloop.PanicError) {
		log.add("reported " + pe.Value.(string))
		stack = pe.Stack
		if pe.Value == "fatal" {
			l.Fail(errors.New("ended by the handler"))
		}
	})
	l.SetTimeout(func() {
		l.QueueMicrotask(func() { panic("m1") })
		l.QueueMicrotask(log.rec("m2"))
		l.NextTick(log.rec("tick"))
	}, 0)
	l.SetTimeout(func() {
		l.QueueMicrotask(func() { panic("fatal") })
		l.QueueMicrotask(log.rec("m3 (after the failure)"))
	}, 5*time.Millisecond)
	if _, err := l.Run(uvloop.RunDefault); err == nil || err.Error() != "ended by the handler" {
		t.Fatalf("Run: %v", err)
	}
	nodeCheck(t, log, "tick", "reported m1", "m2", "reported fatal")
	if len(stack) == 0 {
		t.Error("no stack")
	}
	l.SetMicrotaskPanicHandler(nil)
	mustRunMode(t, l, uvloop.RunDefault)
	nodeCheck(t, log, "tick", "reported m1", "m2", "reported fatal", "m3 (after the failure)")
	closeLoop(t, l)
}

// RunMicrotasks runs microtasks only; DropScheduled drops timeouts, immediates, ticks and
// microtasks and leaves the loop usable.
func TestRunMicrotasksAndDropScheduled(t *testing.T) {
	l := newLoop(t)
	var log nodeLog
	l.NextTick(log.rec("tick"))
	l.QueueMicrotask(log.rec("microtask"))
	l.RunMicrotasks()
	nodeCheck(t, log, "microtask")
	iv := l.SetInterval(log.rec("interval"), time.Millisecond)
	l.SetTimeout(log.rec("timeout"), 0)
	l.SetImmediate(log.rec("immediate"))
	l.QueueMicrotask(log.rec("microtask 2"))
	l.DropScheduled()
	if l.Alive() {
		t.Fatal("alive after DropScheduled")
	}
	l.ClearInterval(iv) // harmless after the drop
	l.SetTimeout(log.rec("timeout after the drop"), time.Millisecond)
	mustRunMode(t, l, uvloop.RunDefault)
	nodeCheck(t, log, "microtask", "timeout after the drop")
	closeLoop(t, l)
}
