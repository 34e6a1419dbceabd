package uvloop_test

import (
	"errors"
	"testing"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of Node's test/parallel/test-microtask-queue-run*.js and test-queue-microtask.js.
//
// Node's tests queue their microtasks with Promise.resolve().then(fn): a reaction to a
// promise that is already resolved is exactly one microtask, queued at the call, which is
// what QueueMicrotask(fn) does.

// microtaskQueueRun is test-microtask-queue-run(-immediate) with defer standing for
// setTimeout(fn, 0) or setImmediate(fn): a microtask queued by a callback runs after it, and
// a tick queued by that microtask runs before the loop's next callback.
func microtaskQueueRun(t *testing.T, l *uvloop.Loop, deferFn func(func())) {
	done := 0
	// No tick, a microtask.
	deferFn(func() {
		l.QueueMicrotask(func() { done++ })
	})
	// No tick, a microtask that queues a tick.
	deferFn(func() {
		called := false
		l.QueueMicrotask(func() {
			l.NextTick(func() { called = true })
		})
		deferFn(func() {
			if called {
				done++
			}
		})
	})
	nodeRun(t, l)
	if done != 2 {
		t.Errorf("done = %d, want 2", done)
	}
}

// TestMicrotaskQueueRun: the microtask queue runs after each timeout callback.
func TestMicrotaskQueueRun(t *testing.T) {
	l := newLoop(t)
	microtaskQueueRun(t, l, func(fn func()) { l.SetTimeout(fn, 0) })
	closeLoop(t, l)
}

// TestMicrotaskQueueRunImmediate: the microtask queue runs after each immediate.
func TestMicrotaskQueueRunImmediate(t *testing.T) {
	l := newLoop(t)
	microtaskQueueRun(t, l, func(fn func()) { l.SetImmediate(fn) })
	closeLoop(t, l)
}

// TestQueueMicrotask: a microtask runs after the main script, in one FIFO with promise
// reactions (a reaction to a resolved promise, QueueMicrotask, a Catch on a rejected promise
// run in that order), and one that panics is an uncaught exception that does not stop the
// loop. Node's queueMicrotask throws ERR_INVALID_ARG_TYPE for a non-function and passes no
// arguments to the callback; in Go the types leave only nil, which QueueMicrotask ignores.
// Node's second uncaught exception comes from queueMicrotask(class {}) (a class constructor
// called without new), which has no Go counterpart.
func TestQueueMicrotask(t *testing.T) {
	l := newLoop(t)
	l.QueueMicrotask(nil)

	called := false
	l.QueueMicrotask(func() { called = true })
	if called {
		t.Error("the microtask ran synchronously")
	}

	type unit = struct{}
	var q nodeLog
	chained := false
	a := promise.Then(promise.Resolve(l, unit{}), func(unit) (unit, error) {
		q.add("a")
		return unit{}, nil
	}, nil)
	promise.Then(a, func(unit) (unit, error) {
		chained = true
		return unit{}, nil
	}, nil)
	l.QueueMicrotask(q.rec("b"))
	promise.Reject[unit](l, errors.New("rejected")).Catch(func(error) (unit, error) {
		q.add("c")
		return unit{}, nil
	})
	checked := false
	l.QueueMicrotask(func() {
		checked = true
		nodeCheck(t, q, "a", "b", "c")
	})

	var uncaught []any
	l.QueueMicrotask(func() { panic(errors.New("E1")) })
	nodeRunCatching(t, l, 1, func(v any) { uncaught = append(uncaught, v) })

	if !called || !chained || !checked {
		t.Errorf("called %v, chained %v, checked %v; want all true", called, chained, checked)
	}
	if len(uncaught) != 1 {
		t.Fatalf("%d uncaught panics, want 1", len(uncaught))
	}
	if err, ok := uncaught[0].(error); !ok || err.Error() != "E1" {
		t.Errorf("uncaught %v, want the error E1", uncaught[0])
	}
	closeLoop(t, l)
}
