// Package nexttick holds Node.js's two job queues, the nextTick queue and the
// microtask queue, and the one drain algorithm that the loop runs after every
// callback it calls.
//
// Both queues are rings (internal/queue.Ring): FIFOs over a power-of-two
// circular buffer that is reused, so queueing and draining allocate nothing in
// steady state.
//
// The drain (Queues.Drain) follows Node 11+ (processTicksAndRejections):
//
//	do {
//	    run every nextTick callback, including those they queue
//	    run every microtask, including those they queue (microtask checkpoint)
//	} while ticks remain, or Checkpoint (unhandled rejections) asks for another round
//
// A tick queued by a microtask therefore waits until the microtask queue is
// empty, and a microtask queued by a tick waits until the tick queue is. The
// drain is not re-entrant, like the HTML "performing a microtask checkpoint"
// flag.
//
// The package makes no system calls and knows no loop; it is not safe for
// concurrent use.
package nexttick

import "github.com/uvgo/uvgo/internal/queue"

// Queues holds the nextTick queue and the microtask queue and runs the drain
// that follows every callback the loop calls.
//
// The zero value is ready to use. Queues is not safe for concurrent use: all
// methods, and all the callbacks they run, belong to the loop goroutine.
type Queues struct {
	// Checkpoint, if set, is called after a microtask checkpoint that leaves
	// the nextTick queue empty (the promise package uses it to process
	// unhandled rejections, like Node's processPromiseRejections, which Node
	// also skips while ticks remain). If it returns true, or if it queued a
	// tick or a microtask, the drain goes round again. It runs with Draining
	// true, so a Drain it calls returns at once.
	Checkpoint func() bool

	// OnMicrotaskPanic, if set, receives the value a microtask panicked with, recovered in
	// the drain, which then goes on with the next microtask, as V8 reports an exception
	// thrown by a microtask and runs the rest of the queue. It may panic itself, to end
	// the drain as an unrecovered panic would.
	OnMicrotaskPanic func(v any)

	ticks    queue.Ring[func()] // process.nextTick callbacks; loop goroutine only
	micro    queue.Ring[func()] // queueMicrotask callbacks and promise reactions; loop goroutine only
	draining bool               // a Drain is in progress
}

// NextTick queues fn on the nextTick queue. It panics if fn is nil, so that
// the mistake shows at the call rather than at the drain.
func (q *Queues) NextTick(fn func()) {
	if fn == nil {
		panic("nexttick: NextTick of a nil func")
	}
	q.ticks.Push(fn)
}

// QueueMicrotask queues fn on the microtask queue. It panics if fn is nil.
func (q *Queues) QueueMicrotask(fn func()) {
	if fn == nil {
		panic("nexttick: QueueMicrotask of a nil func")
	}
	q.micro.Push(fn)
}

// Pending reports whether any tick or microtask is queued.
func (q *Queues) Pending() bool { return q.ticks.Len()|q.micro.Len() != 0 }

// Lens returns how many nextTick callbacks and how many microtasks are queued.
func (q *Queues) Lens() (ticks, microtasks int) { return q.ticks.Len(), q.micro.Len() }

// Draining reports whether a Drain is in progress, that is whether the caller
// is a tick, a microtask or Checkpoint run by Drain.
func (q *Queues) Draining() bool { return q.draining }

// Drain runs the queues in Node's order: every nextTick callback, including
// those they queue; then a microtask checkpoint, every microtask including
// those they queue (a tick queued by a microtask waits until the microtask
// queue is empty); then, if no tick is queued, Checkpoint. It goes round again
// while ticks remain or Checkpoint returns true, and returns with both queues
// empty. Checkpoint is called at least once per Drain even if nothing was
// queued, so work it tracks outside the queues is not missed.
//
// Drain is not re-entrant: called while a Drain is in progress (from a tick, a
// microtask or Checkpoint) it returns at once, and the outer Drain runs what
// was queued.
//
// If a callback panics, the panic propagates to the caller of Drain; that
// callback counts as run, everything else stays queued in order for the next
// Drain, and Draining is false again.
func (q *Queues) Drain() {
	if q.draining {
		return
	}
	q.draining = true
	defer q.endDrain()
	for {
		for q.ticks.Len() != 0 {
			fn, _ := q.ticks.Pop()
			fn()
		}
		q.runMicrotasks()
		if q.ticks.Len() != 0 {
			continue // Node skips processPromiseRejections while ticks remain
		}
		again := q.Checkpoint != nil && q.Checkpoint()
		if !again && q.ticks.Len()|q.micro.Len() == 0 {
			return
		}
	}
}

// runMicrotasks runs every microtask, including those they queue.
func (q *Queues) runMicrotasks() {
	if q.OnMicrotaskPanic != nil {
		for !q.runMicrotasksRecovering() {
		}
		return
	}
	for q.micro.Len() != 0 {
		fn, _ := q.micro.Pop()
		fn()
	}
}

// runMicrotasksRecovering runs microtasks until the queue is empty (true) or one panicked
// and OnMicrotaskPanic returned (false).
func (q *Queues) runMicrotasksRecovering() (done bool) {
	defer func() {
		if !done {
			if v := recover(); v != nil { // nil: runtime.Goexit, which goes on unwinding
				q.OnMicrotaskPanic(v)
			}
		}
	}()
	for q.micro.Len() != 0 {
		fn, _ := q.micro.Pop()
		fn()
	}
	return true
}

// RunMicrotasks runs the microtask queue until it is empty, without the nextTick queue
// and without Checkpoint: V8's microtask checkpoint alone, which is what runs after Node's
// 'exit' listeners. Called while a Drain is in progress it returns at once. A panic
// propagates as in Drain (unless OnMicrotaskPanic takes it).
func (q *Queues) RunMicrotasks() {
	if q.draining {
		return
	}
	q.draining = true
	defer q.endDrain()
	q.runMicrotasks()
}

// Clear drops every tick and microtask queued, keeping Checkpoint and
// OnMicrotaskPanic.
func (q *Queues) Clear() {
	q.ticks = queue.Ring[func()]{}
	q.micro = queue.Ring[func()]{}
}

// endDrain clears the draining flag, also when a callback panics.
func (q *Queues) endDrain() { q.draining = false }
