// Command hello shows Node's scheduling order on a uvgo loop: synchronous code, then
// nextTick, then microtasks, then the timers and check phases.
package main

import (
	"fmt"
	"log"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

func main() {
	loop, err := uvloop.New()
	if err != nil {
		log.Fatal(err)
	}
	loop.SetTimeout(func() { fmt.Println("timeout (timers phase)") }, 100*time.Millisecond)
	loop.SetImmediate(func() {
		fmt.Println("immediate (check phase)")
		loop.NextTick(func() { fmt.Println("nextTick after the immediate") })
	})
	loop.QueueMicrotask(func() { fmt.Println("microtask") })
	loop.NextTick(func() { fmt.Println("nextTick") })
	fmt.Println("main script")

	if _, err := loop.Run(uvloop.RunDefault); err != nil {
		log.Fatal(err)
	}
	if err := loop.Close(); err != nil {
		log.Fatal(err)
	}
}
