package nodeprocess_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/uvgo/uvgo/nodeprocess"
)

// A main script with Node's process events: the timeout's panic is an uncaught exception
// that the listener handles, so the loop goes on; 'beforeExit' comes when it is empty, then
// 'exit' with process.exitCode, which is the status Run returns.
func Example() {
	status, _ := nodeprocess.Run(func(p *nodeprocess.Process) {
		l := p.Loop()
		p.OnUncaughtException(func(err any, origin string) {
			fmt.Println("caught:", err, "("+origin+")")
			p.SetExitCode(2)
		})
		p.OnBeforeExit(func(code int) { fmt.Println("beforeExit", code) })
		p.OnExit(func(code int) { fmt.Println("exit", code) })
		l.SetTimeout(func() { panic(errors.New("boom")) }, time.Millisecond)
		l.SetTimeout(func() { fmt.Println("the loop went on") }, 5*time.Millisecond)
		fmt.Println("main script")
	})
	fmt.Println("status", status)
	// Output:
	// main script
	// caught: boom (uncaughtException)
	// the loop went on
	// beforeExit 2
	// exit 2
	// status 2
}

// process.exit: 'exit' runs at once, nothing queued runs after it.
func ExampleProcess_Exit() {
	status, _ := nodeprocess.Run(func(p *nodeprocess.Process) {
		l := p.Loop()
		p.OnExit(func(code int) { fmt.Println("exit", code) })
		l.SetImmediate(func() { fmt.Println("never") })
		l.NextTick(func() {
			fmt.Println("tick")
			p.Exit(3)
		})
	})
	fmt.Println("status", status)
	// Output:
	// tick
	// exit 3
	// status 3
}
