package nodeevents_test

import (
	"fmt"
	"time"

	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Node's ordering rules for listeners: in order, with the arguments; a once listener is
// removed before it runs; prepended ones come first; removal by the func itself.
func ExampleEventEmitter() {
	var e nodeevents.EventEmitter
	greet := func(args ...any) { fmt.Println("hello,", args[0]) }
	e.On("greet", greet)
	e.Once("greet", func(...any) { fmt.Println("only the first time") })
	e.PrependListener("greet", func(...any) { fmt.Println("first of all") })
	e.Emit("greet", "world")
	e.RemoveListener("greet", greet)
	e.Emit("greet", "again")
	fmt.Println(e.ListenerCount("greet"), e.EventNames())
	// Output:
	// first of all
	// hello, world
	// only the first time
	// first of all
	// 1 [greet]
}

// events.once in an async function: await the next 'ready' event, or its 'error'.
func ExampleOnce() {
	l, _ := uvloop.New()
	var server nodeevents.EventEmitter
	promise.Async(l, func() (int, error) {
		args, err := promise.Await(nodeevents.Once(l, &server, "ready", nil))
		fmt.Println("ready on port", args[0], err)
		_, err = promise.Await(nodeevents.Once(l, &server, "ready", nil))
		fmt.Println("second wait:", err)
		return 0, nil
	})
	l.NextTick(func() { server.Emit("ready", 8080) })
	l.SetImmediate(func() { server.Emit("error", fmt.Errorf("port in use")) })
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// ready on port 8080 <nil>
	// second wait: port in use
}

// The hook for operations that take a signal: fail at once if it is aborted, else watch it
// and stop watching when done.
func ExampleAbortSignal_Watch() {
	l, _ := uvloop.New()
	wait := func(signal *nodeevents.AbortSignal, done func(error)) {
		if err := signal.Err(); err != nil {
			done(err)
			return
		}
		var t *uvloop.Timeout
		stop := signal.Watch(func(reason error) {
			l.ClearTimeout(t)
			done(&nodeevents.AbortError{Cause: reason})
		})
		t = l.SetTimeout(func() { stop(); done(nil) }, time.Second)
	}
	ac := nodeevents.NewAbortController()
	wait(ac.Signal(), func(err error) { fmt.Println("first:", err) })
	ac.Abort()
	wait(ac.Signal(), func(err error) { fmt.Println("second:", err) })
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// first: The operation was aborted
	// second: The operation was aborted
}
