package uvloop

import (
	"runtime"
	"sync/atomic"
)

// OwnThreadEnv is the environment variable that gives every loop an OS thread of its own,
// as WithOwnThread does, when it is "1"; any other value leaves it to the option. It is for
// an operator, and for running a program's tests both ways.
const OwnThreadEnv = "UVGO_OWN_THREAD"

// WithOwnThread gives the loop an OS thread of its own from New to Close: New starts a
// goroutine locked to it (runtime.LockOSThread), and every Run, and Close, runs there while
// the goroutine that called it waits. Callbacks then run on that goroutine, not on the
// caller's; a panic still comes back from Run as a *PanicError, and a runtime.Goexit (a
// test's t.FailNow in a callback) ends the caller of Run as well. Handles may still be
// created and started, and work queued, from the caller's goroutine between runs, as for any
// loop; the few of those calls that must enter the kernel are handed to the loop's thread.
//
// It implies WithLockOSThread, and goes further in two ways. On io_uring the ring is set up
// for that one thread (IORING_SETUP_SINGLE_ISSUER and DEFER_TASKRUN, Linux 6.1), so the
// kernel does a completion's work only when the loop waits for it: 2-3% less CPU per request
// than WithLockOSThread alone (bench/README.md, "DEFER_TASKRUN"). And the Async bodies of
// package promise run on coroutines, as on an unlocked loop, rather than on goroutines of
// their own: an Await that suspends costs a coroutine switch, not two thread wake-ups.
//
// The price is a hand-off to the loop's thread and back at each Run (a few microseconds), so
// it suits a loop that runs for long, a server's, rather than one that a program runs a
// little at a time with RunNoWait. Close ends the thread's goroutine: a loop that is never
// closed keeps it.
//
// The loop's goroutine must stay locked: a callback must not call runtime.UnlockOSThread
// without a runtime.LockOSThread of its own before it (an io_uring ring then meets another
// thread, which the kernel refuses: Run fails with EEXIST). And an Async body must not hold
// a runtime.LockOSThread of its own across an Await: coroutines must resume with the
// thread-lock count they were made with, and a mismatch is a fatal error of the runtime (as
// on an unlocked loop, whose bodies are coroutines too).
func WithOwnThread() Option {
	return func(o *options) { o.ownThread = true }
}

// ownThread is the goroutine of a loop WithOwnThread, locked to its OS thread from New to
// Close. It runs what the loop hands it (Do): New's poller, each Run, Close, a kernel call of
// the poller and an Async start from the owner's goroutine between runs, while the caller
// waits. It is the poller's Thread.
type ownThread struct {
	calls chan func()
	done  chan ownEnd
	on    atomic.Bool // a call runs: its goroutine (or a coroutine it switched to) is the caller of loop code
	quit  bool        // the goroutine has ended (Close), or ends after this call: calls run on their caller
}

// ownEnd is how a call ended, when not by returning.
type ownEnd struct {
	panicked bool
	value    any // the panic's
	goexit   bool
}

func startOwnThread() *ownThread {
	t := &ownThread{calls: make(chan func()), done: make(chan ownEnd)}
	go t.serve()
	return t
}

func (t *ownThread) serve() {
	runtime.LockOSThread()
	t.serveCalls()
	runtime.UnlockOSThread()
}

func (t *ownThread) serveCalls() {
	for f := range t.calls {
		if !t.call(f) {
			return
		}
	}
}

// call runs f, tells the caller of Do how it ended, and reports whether the goroutine goes
// on. A runtime.Goexit in f cannot be stopped from unwinding this goroutine, and its thread
// would end with it (and a ring pinned to that thread with it): so the goroutine serves the
// calls that follow from inside the unwinding, until Close, and the loop goes on as any loop
// goes on after a Goexit in a callback.
func (t *ownThread) call(f func()) (more bool) {
	returned := false
	defer func() {
		var end ownEnd
		if !returned {
			if end.value = recover(); end.value != nil {
				end.panicked = true
			} else {
				end.goexit = true
			}
		}
		more = !t.quit // read before done: after it, the caller may write it (stop)
		t.on.Store(false)
		t.done <- end
		if end.goexit && more {
			t.serveCalls() // not locked again: the coroutines made on it need the same lock count
		}
	}()
	t.on.Store(true)
	f()
	returned = true
	return
}

// On reports whether the caller is the thread's goroutine, or a coroutine it switched to.
func (t *ownThread) On() bool { return t.on.Load() }

// Do runs f on the thread and returns when f has; a panic of f is raised again here, and a
// runtime.Goexit is repeated. After the goroutine has ended (Close), f runs on the caller.
func (t *ownThread) Do(f func()) {
	if t.quit || t.on.Load() {
		f()
		return
	}
	t.calls <- f
	switch end := <-t.done; {
	case end.goexit:
		runtime.Goexit()
	case end.panicked:
		panic(end.value)
	}
}

// stop ends the goroutine, after the call that runs if it is on it.
func (t *ownThread) stop() {
	if t.on.Load() {
		t.quit = true // serve ends after this call
		return
	}
	if !t.quit {
		t.quit = true
		close(t.calls)
	}
}
