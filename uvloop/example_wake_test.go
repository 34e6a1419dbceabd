package uvloop_test

import (
	"fmt"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Another goroutine hands results to the loop with Post. A Post to a loop that is awake only
// queues; one to a sleeping loop also wakes it, once per sleep however many goroutines post,
// so Metrics().Wakeups never exceeds Metrics().Sleeps.
func ExampleLoop_Post() {
	l, err := uvloop.New()
	if err != nil {
		panic(err)
	}
	release := l.Hold() // the results are still to come
	results := make(chan int)
	go func() {
		for v := range results {
			l.Post(func() { fmt.Println("result", v) })
		}
		l.Post(release)
	}()
	l.SetTimeout(func() {
		results <- 1
		results <- 2
		close(results)
	}, 0)
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		panic(err)
	}
	m := l.Metrics()
	fmt.Println("wake-ups <= sleeps:", m.Wakeups <= m.Sleeps)
	l.Close()
	// Output:
	// result 1
	// result 2
	// wake-ups <= sleeps: true
}

// A loop that serves I/O on a thread of its own: Run locks the thread and the loop never
// yields it before sleeping.
func ExampleWithLockOSThread() {
	l, err := uvloop.New(uvloop.WithLockOSThread())
	if err != nil {
		panic(err)
	}
	l.SetTimeout(func() { fmt.Println("on a locked thread") }, 0)
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		panic(err)
	}
	l.Close()
	// Output: on a locked thread
}

// A loop WithLockOSThread says so, and package promise then runs Async bodies on goroutines
// (a coroutine must keep the thread-lock state it was made with; this loop's goroutine is
// locked only while Run runs).
func ExampleLoop_LocksOSThread() {
	l, err := uvloop.New(uvloop.WithLockOSThread())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer l.Close()
	p := promise.Async(l, func() (string, error) { // starts here, before Run, unlocked
		return promise.Await(promise.Resolve(l, "resumed in Run, locked"))
	})
	l.Run(uvloop.RunDefault)
	v, _ := p.Result()
	fmt.Println(l.LocksOSThread(), v)
	// Output: true resumed in Run, locked
}
