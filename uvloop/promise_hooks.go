package uvloop

import "sync/atomic"

// This file holds the methods the promise package discovers by type assertion on its
// scheduler (promise depends on small interfaces, not on uvloop): a slot for its per-loop
// state, a checkpoint after the microtask drain for unhandled-rejection tracking, keep-alive
// while another goroutine will settle a promise, hooks run by Close, and a way to make Run
// return an error. All of them are for the loop goroutine only.

// promiseHooks is the state behind these methods; loop goroutine only.
type promiseHooks struct {
	checkpoints   []func() bool // run after each microtask checkpoint that leaves no ticks
	checkpointDue bool          // a checkpoint is wanted although no tick or microtask is queued
	onClose       []func()      // run by Close, in registration order
	runtime       any           // the promise package's state for this loop (RuntimeSlot)
	deferDrain    bool          // the next Run does not drain before its first callback (DeferDrain)
	midIteration  bool          // the last Run ended in a panic between its timers and check phases (DeferDrain)
	inCheckDrain  bool          // the drain that opens a check phase is running (runImmediates)
	checkStart    bool          // the last Run ended in a panic in that drain (DeferDrain)
	closeRest     bool          // the last Run ended in a panic in a close callback (DeferDrain)
}

// RuntimeSlot returns what SetRuntimeSlot stored last, nil at first. The promise package keeps
// its state for this loop (its Runtime) there, so that it finds it without a lookup shared by
// every loop of the process.
func (l *Loop) RuntimeSlot() any { return l.promise.runtime }

// SetRuntimeSlot stores v for RuntimeSlot. The slot belongs to the promise package; other
// code should leave it alone.
func (l *Loop) SetRuntimeSlot(v any) { l.promise.runtime = v }

// failure is the panic value Fail unwinds Run with; leave turns it back into an error.
type failure struct{ err error }

// AddCheckpoint makes fn run after every microtask checkpoint of the nextTick/microtask drain
// that leaves the nextTick queue empty, as Node runs processPromiseRejections there. If fn
// returns true, or queues a tick or a microtask, the drain goes round again.
func (l *Loop) AddCheckpoint(fn func() bool) {
	if fn == nil {
		return
	}
	h := &l.promise
	h.checkpoints = append(h.checkpoints, fn)
	if l.ticks.Checkpoint == nil {
		l.ticks.Checkpoint = l.runCheckpoints
	}
}

func (l *Loop) runCheckpoints() bool {
	again := false
	for _, fn := range l.promise.checkpoints {
		if fn() {
			again = true
		}
	}
	return again
}

// RequestCheckpoint makes the drain that follows the current callback run, and with it the
// checkpoints, even if no tick or microtask is queued (a promise was rejected with no
// handler, say).
func (l *Loop) RequestCheckpoint() {
	l.promise.checkpointDue = true
	atomic.StoreUint32(&l.obs.due, 1) // the check after the callback takes its slow path (afterSlow)
}

// JobsPending reports whether a nextTick callback or a microtask is queued.
func (l *Loop) JobsPending() bool { return l.ticks.Pending() }

// Hold keeps the loop alive, as an active ref'd handle does, until release is called (on the
// loop goroutine, typically from a function given to Post). Calling release again does
// nothing.
func (l *Loop) Hold() (release func()) {
	l.activeRefs++
	held := true
	return func() {
		if held {
			held = false
			l.activeRefs--
		}
	}
}

// OnClose registers fn to run when Close succeeds, before the poller is released; the promise
// package unwinds suspended async bodies there.
func (l *Loop) OnClose(fn func()) {
	if fn != nil {
		l.promise.onClose = append(l.promise.onClose, fn)
	}
}

func (l *Loop) runCloseHooks() {
	fns := l.promise.onClose
	l.promise.onClose = nil
	for _, fn := range fns {
		fn()
	}
}

// Fail makes Run return err: called from a callback (or a tick, microtask or checkpoint) it
// ends Run at once, after the current callback, as an uncaught exception ends Node's event
// loop; everything else stays queued. Called between runs, the next Run returns err before
// its first iteration. A nil err does nothing.
func (l *Loop) Fail(err error) {
	if err == nil {
		return
	}
	if !l.running.Load() {
		l.fatal = err
		return
	}
	panic(failure{err})
}

// inAsyncBody reports whether the caller is an Async body of the loop's promise runtime: a
// body, even one started between runs, must not Close the loop (Close unwinds the bodies).
func (l *Loop) inAsyncBody() bool {
	b, ok := l.promise.runtime.(interface{ InBody() bool })
	return ok && b.InBody()
}
