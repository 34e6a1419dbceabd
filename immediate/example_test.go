package immediate_test

import (
	"fmt"

	"github.com/uvgo/uvgo/immediate"
)

// An immediate queued by a running immediate waits for the next Run, and one
// removed before its turn does not run.
func ExampleQueue_Run() {
	var q immediate.Queue
	var a, b, c, d immediate.Immediate
	a.Fn = func() {
		fmt.Println("a")
		q.Push(&d, true)
		q.Remove(&c)
	}
	b.Fn = func() { fmt.Println("b") }
	c.Fn = func() { fmt.Println("c") }
	d.Fn = func() { fmt.Println("d") }
	q.Push(&a, true)
	q.Push(&b, true)
	q.Push(&c, true)
	fmt.Println("ran", q.Run(func() { fmt.Println("  drain") }))
	fmt.Println("ran", q.Run(nil))
	// Output:
	// a
	//   drain
	// b
	//   drain
	// ran 2
	// d
	// ran 1
}
