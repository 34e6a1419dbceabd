package promise

import "runtime"

// goPull is iter.Pull on a goroutine: the same next, stop and yield, with a channel hand-off
// where iter.Pull switches coroutines. The package uses it for a scheduler whose goroutine
// locks its OS thread for part of its life (a ThreadLocker): the runtime lets a coroutine
// run only with the thread-lock state it was made with, which such a goroutine does not keep
// (a *uvloop.Loop WithLockOSThread is locked while Run runs and not before or after, and each
// Run may be on another thread), where a goroutine may run anywhere. Only one side runs at a
// time, as with a coroutine. A panic of seq is raised again by the next or stop that resumed
// it, and so is a runtime.Goexit, as iter.Pull does.
func goPull(seq func(yield func(struct{}) bool)) (next func() (struct{}, bool), stop func()) {
	resume := make(chan bool)     // to the goroutine: go on (true) or stop (false)
	back := make(chan goPullStep) // from it: yielded, or ended (and how)
	started, done := false, false
	run := func() {
		step := goPullStep{}
		defer func() {
			if !step.returned {
				// A panic recovers as non-nil (panic(nil) as a *runtime.PanicNilError); nil
				// is runtime.Goexit.
				if v := recover(); v != nil {
					step.panicked, step.panicValue = true, v
				} else {
					step.goexit = true
				}
			}
			back <- step
		}()
		stopped := !<-resume
		if !stopped {
			seq(func(struct{}) bool {
				if stopped {
					return false // as iter.Pull's yield after stop
				}
				back <- goPullStep{yielded: true}
				stopped = !<-resume
				return !stopped
			})
		}
		step.returned = true
	}
	// switchTo hands over to the goroutine and waits for it to yield or end.
	switchTo := func(goOn bool) bool {
		resume <- goOn
		step := <-back
		if step.yielded {
			return true
		}
		done = true
		switch {
		case step.panicked:
			panic(step.panicValue)
		case step.goexit:
			runtime.Goexit()
		}
		return false
	}
	next = func() (struct{}, bool) {
		if done {
			return struct{}{}, false
		}
		if !started {
			started = true
			go run()
		}
		return struct{}{}, switchTo(true)
	}
	stop = func() {
		if done {
			return
		}
		if !started {
			done = true
			return
		}
		switchTo(false)
	}
	return next, stop
}

// goPullStep is what goPull's goroutine reports when it gives control back.
type goPullStep struct {
	yielded    bool // it yielded a value and waits to be resumed
	returned   bool // seq returned
	goexit     bool // seq called runtime.Goexit
	panicked   bool // seq panicked with panicValue
	panicValue any
}
