package nexttick_test

import (
	"fmt"

	"github.com/uvgo/uvgo/nexttick"
)

// Ticks run before microtasks, whatever the order they were queued in; a tick
// queued by a microtask waits for the microtask queue to empty.
func ExampleQueues_Drain() {
	var q nexttick.Queues
	q.QueueMicrotask(func() {
		fmt.Println("microtask 1")
		q.NextTick(func() { fmt.Println("tick from microtask 1") })
	})
	q.NextTick(func() { fmt.Println("tick 1") })
	q.QueueMicrotask(func() { fmt.Println("microtask 2") })
	q.NextTick(func() { fmt.Println("tick 2") })
	q.Drain()
	// Output:
	// tick 1
	// tick 2
	// microtask 1
	// microtask 2
	// tick from microtask 1
}
