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

// Node's lists: a 2ms timeout set at 0 and a 1ms one set at 1 expire together
// at 2; the list made first runs first. A 1ms timeout set at 2 joins b's list
// and, when the loop gets to the lists at 3, runs right after b.
func ExampleLists() {
	var ls timers.Lists[string]
	var a, b, c timers.ListEntry[string]
	a.Value, b.Value, c.Value = "a (2ms at 0)", "b (1ms at 1)", "c (1ms at 2)"
	ls.Insert(&a, 2, 0)
	ls.Insert(&b, 1, 1)
	next, _ := ls.Next()
	fmt.Println("next expiry", next)
	ls.Insert(&c, 1, 2)
	ls.Run(3, func(v string) { fmt.Println(v) })
	// Output:
	// next expiry 2
	// a (2ms at 0)
	// b (1ms at 1)
	// c (1ms at 2)
}
