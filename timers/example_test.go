package timers_test

import (
	"fmt"

	"github.com/uvgo/uvgo/timers"
)

// Timers sharing a deadline fire in start order; a repeating timer is
// re-armed before its callback; a timer started by a callback waits for the
// next run, even with a zero timeout.
func Example() {
	h := timers.New()
	var a, b, c, tick timers.Entry
	a.Fn = func() { fmt.Println("a") }
	b.Fn = func() {
		fmt.Println("b")
		_ = h.Start(&c, 10, 0, 0) // due now, but waits for the next run
	}
	c.Fn = func() { fmt.Println("c") }
	tick.Fn = func() {
		fmt.Println("tick, next at", tick.Deadline())
		if tick.Deadline() > 20 {
			h.Stop(&tick)
		}
	}

	_ = h.Start(&b, 0, 10, 0)
	_ = h.Start(&a, 5, 5, 0) // same deadline as b, started later
	_ = h.Start(&tick, 0, 8, 7)

	for _, now := range []int64{10, 10, 30} {
		fmt.Printf("run at %d: %d fired\n", now, h.RunExpired(now))
	}
	_, ok := h.Next()
	fmt.Println("timers left:", h.Len(), ok)
	// Output:
	// tick, next at 17
	// b
	// a
	// run at 10: 3 fired
	// c
	// run at 10: 1 fired
	// tick, next at 37
	// run at 30: 1 fired
	// timers left: 0 false
}
