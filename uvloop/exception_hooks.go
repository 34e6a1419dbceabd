package uvloop

import "runtime/debug"

// This file holds what a Node-style process harness (package nodeprocess) needs to handle
// uncaught exceptions in Node's order: where the queues stand after a panic, and V8's way
// with a microtask that throws. All of it is for the loop goroutine only.

// DeferDrain makes the next Run leave the nextTick and microtask queues as they are until
// its first callback has run, or its first check phase begins, instead of draining them
// before anything else. That is where Node's queues wait after an uncaught exception that a
// listener handled: the rest of the interrupted batch of timeouts or immediates runs first,
// and the queues drain after the next callback, or at the start of the check phase (where
// Node runs its native immediates in a callback scope of their own), before the
// immediates. Node queues a no-op immediate at that point so that a check phase comes; do
// the same, or the queues may wait for a long time, or for ever if nothing keeps the loop
// alive.
//
// An exception does not unwind Node's loop, where a panic ends Run: so when the last Run
// ended in a panic between its timers and check phases (in an I/O callback, a pending or
// an idle one), the next Run goes on with that iteration, to its check phase, instead of
// beginning with a timers phase, and a timeout that came due meanwhile runs after the check
// phase, as in Node. (After a panic in the check phase the rest of its batch of immediates
// runs first, then the timers phase, as Node's iteration goes on to its timers; after one in
// the drain that opens a check phase, that phase's batch of immediates runs first, the
// queues after its first immediate, as Node goes on to its immediates; after one in a close
// callback, the close callbacks left run first, then the timers phase, as libuv goes on
// with its close phase. Handles closed meanwhile, by the listener, are closed with them.)
func (l *Loop) DeferDrain() { l.promise.deferDrain = true }

// SetMicrotaskPanicHandler makes a panic in a microtask (a QueueMicrotask callback; promise
// reactions do not panic, their handlers' panics reject) go to fn, as a *PanicError,
// instead of ending Run: the drain then goes on with the next microtask, as V8 reports an
// exception that a microtask throws and runs the rest of the queue. fn may end Run itself
// (Fail, or a panic). A nil fn restores the default. Fail's unwinding is not a panic for
// fn: it ends Run as always.
func (l *Loop) SetMicrotaskPanicHandler(fn func(*PanicError)) {
	if fn == nil {
		l.ticks.OnMicrotaskPanic = nil
		return
	}
	l.ticks.OnMicrotaskPanic = func(v any) {
		if f, ok := v.(failure); ok {
			panic(f)
		}
		fn(&PanicError{Value: v, Stack: debug.Stack()})
	}
}

// RunMicrotasks runs the microtasks queued, and those they queue, without the nextTick
// callbacks and without the rejection checkpoint: V8's microtask checkpoint alone, which
// Node runs after the 'exit' listeners (whose nextTick callbacks never run). Called from a
// tick or a microtask it does nothing. A panic in a microtask propagates to the caller
// unless SetMicrotaskPanicHandler took it.
func (l *Loop) RunMicrotasks() { l.ticks.RunMicrotasks() }

// DropScheduled drops what is left of Node's scheduling API, as Close does, and leaves
// handles and requests alone: timeouts and intervals are cleared, queued immediates, ticks
// and microtasks dropped. It is for a harness that ends a Node-style program the way a Node
// process ends (nodeprocess after 'exit'), before it closes the handles and the loop: none
// of that work runs then. The loop stays usable.
func (l *Loop) DropScheduled() {
	l.node.close()
	l.immediates.Clear()
	l.ticks.Clear()
}
