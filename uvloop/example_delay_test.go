package uvloop_test

import (
	"fmt"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Delays are time.Duration: Node's setTimeout(cb, 50) is SetTimeout(cb, 50*time.Millisecond).
// A bare 50 would be 50 nanoseconds, which Node's rule turns into 1 ms, so the "50" timeout
// below would run first; cmd/uvgovet reports it.
func ExampleLoop_SetTimeout_milliseconds() {
	l, _ := uvloop.New()
	start := time.Now()
	l.SetTimeout(func() {
		fmt.Println("50 ms later:", time.Since(start) >= 50*time.Millisecond)
	}, 50*time.Millisecond)
	l.SetTimeout(func() { fmt.Println("10 ms first") }, 10*time.Millisecond)

	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// 10 ms first
	// 50 ms later: true
}
