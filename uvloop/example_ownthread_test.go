package uvloop_test

import (
	"fmt"
	"time"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// A server's loop with a thread of its own from New to Close: Run hands the loop to that
// thread and waits, so every callback, and a promise body started before Run, runs there.
func ExampleWithOwnThread() {
	l, err := uvloop.New(uvloop.WithOwnThread())
	if err != nil {
		fmt.Println(err)
		return
	}
	greeting := promise.Async(l, func() (string, error) {
		fmt.Println("the body starts, before Run")
		v, err := promise.Await(promise.Resolve(l, "hello"))
		fmt.Println("the body resumes, in Run")
		return v + ", world", err
	})
	l.SetTimeout(func() { fmt.Println("a timer") }, time.Millisecond)
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		fmt.Println(err)
	}
	v, _ := greeting.Result()
	fmt.Println(v)
	fmt.Println("Close:", l.Close())
	// Output:
	// the body starts, before Run
	// the body resumes, in Run
	// a timer
	// hello, world
	// Close: <nil>
}
