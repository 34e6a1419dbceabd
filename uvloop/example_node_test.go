package uvloop_test

import (
	"fmt"

	"github.com/uvgo/uvgo/uvloop"
)

// Node's order for what the main script queues: the script itself, then every nextTick
// callback, then every microtask, and only then the loop's phases.
func ExampleLoop_NextTick() {
	l, _ := uvloop.New()
	l.SetImmediate(func() { fmt.Println("immediate") })
	l.QueueMicrotask(func() { fmt.Println("microtask") })
	l.NextTick(func() { fmt.Println("nextTick") })
	fmt.Println("main script")

	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// main script
	// nextTick
	// microtask
	// immediate
}

// "script start / script end / promise1 / promise2 / setTimeout": a microtask queued by a
// microtask (here standing for promise2, chained on promise1) runs in the same drain, before
// the loop gets to the 0 ms timeout.
func ExampleLoop_QueueMicrotask() {
	l, _ := uvloop.New()
	fmt.Println("script start")
	l.SetTimeout(func() { fmt.Println("setTimeout") }, 0)
	l.QueueMicrotask(func() {
		fmt.Println("promise1")
		l.QueueMicrotask(func() { fmt.Println("promise2") })
	})
	fmt.Println("script end")

	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// script start
	// script end
	// promise1
	// promise2
	// setTimeout
}

// Microtasks drain after each timeout callback (Node >= 11), not after the whole timers
// phase.
func ExampleLoop_SetTimeout() {
	l, _ := uvloop.New()
	l.SetTimeout(func() {
		fmt.Println("timer1")
		l.QueueMicrotask(func() { fmt.Println("microtask1") })
	}, 0)
	l.SetTimeout(func() {
		fmt.Println("timer2")
		l.QueueMicrotask(func() { fmt.Println("microtask2") })
	}, 0)

	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// timer1
	// microtask1
	// timer2
	// microtask2
}

// Inside a timeout callback: its ticks, then its microtasks, then the check phase (the
// immediate), then the next timers phase (the 0 ms timeout).
func ExampleLoop_SetImmediate() {
	l, _ := uvloop.New()
	l.SetTimeout(func() {
		l.SetTimeout(func() { fmt.Println("timeout") }, 0)
		l.SetImmediate(func() { fmt.Println("immediate") })
		l.QueueMicrotask(func() { fmt.Println("microtask") })
		l.NextTick(func() { fmt.Println("nextTick") })
		fmt.Println("timeout callback")
	}, 0)

	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// timeout callback
	// nextTick
	// microtask
	// immediate
	// timeout
}
