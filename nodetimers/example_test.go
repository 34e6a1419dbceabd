package nodetimers_test

import (
	"fmt"
	"time"

	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodetimers"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// A port of
//
//	const v = await setTimeout(20, 'result');
//	for await (const start of setInterval(10, 'tick')) { if (++n === 3) break; }
//
// with delays in milliseconds, as time.Duration wants them.
func Example() {
	l, _ := uvloop.New()
	promise.Async(l, func() (int, error) {
		v, _ := promise.Await(nodetimers.SetTimeout(l, 20*time.Millisecond, "result", nil))
		fmt.Println(v)
		n := 0
		for v := range nodetimers.SetInterval(l, 10*time.Millisecond, "tick", nil).All() {
			n++
			fmt.Println(v, n)
			if n == 3 {
				break
			}
		}
		return 0, nil
	})
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// result
	// tick 1
	// tick 2
	// tick 3
}

// An AbortSignal cancels a timer: the promise rejects with an AbortError whose cause is
// the signal's reason, and the timer no longer keeps the loop alive.
func ExampleSetTimeout_abort() {
	l, _ := uvloop.New()
	ac := nodeevents.NewAbortController()
	p := nodetimers.SetTimeout(l, time.Hour, "never", &nodetimers.Options{Signal: ac.Signal()})
	p.Catch(func(err error) (string, error) {
		fmt.Println(err, "/", err.(*nodeevents.AbortError).Cause)
		return "", nil
	})
	l.SetTimeout(func() { ac.Abort(fmt.Errorf("user pressed cancel")) }, 5*time.Millisecond)
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// The operation was aborted / user pressed cancel
}
