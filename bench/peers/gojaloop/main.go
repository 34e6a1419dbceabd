// Command gojaloop runs the uvbench workloads that a Go program can express on
// dop251/goja_nodejs's eventloop, the closest Go peer of uvgo's loop (a JavaScript runtime's
// loop: timers, RunOnLoop from any goroutine, setImmediate). It prints the runner's result line:
//
//	gojaloop <workload> <N>
//	name=<workload> n=<N> ns_per_op=<float> total_ns=<int>
//
// Workloads: timers-zero (N SetTimeout of 0), post-chain (a function on the loop submits the
// next with RunOnLoop), post-submit (another goroutine submits N functions), post-pingpong
// (a goroutine submits one function and waits for its answer, N round trips). The loop has
// no file descriptors, so the ping-pong is the peer of uvgo's no-fd variant.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/eventloop"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gojaloop <workload> <N>")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil || n < 1 {
		fmt.Fprintln(os.Stderr, "gojaloop: N must be a positive integer")
		os.Exit(2)
	}
	run, ok := workloads[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "gojaloop: unknown workload %q\n", os.Args[1])
		os.Exit(2)
	}
	elapsed := run(n)
	fmt.Printf("name=%s n=%d ns_per_op=%.2f total_ns=%d\n", os.Args[1], n,
		float64(elapsed.Nanoseconds())/float64(n), elapsed.Nanoseconds())
}

var workloads = map[string]func(n int) time.Duration{
	"timers-zero":   timersZero,
	"post-chain":    postChain,
	"post-submit":   postSubmit,
	"post-pingpong": postPingPong,
}

// timersZero: N timers of 0 ms set from the loop, then run until all fired.
func timersZero(n int) time.Duration {
	loop := eventloop.NewEventLoop(eventloop.EnableConsole(false))
	fired := 0
	start := time.Now()
	loop.Run(func(*goja.Runtime) {
		cb := func(*goja.Runtime) { fired++ }
		for range n {
			loop.SetTimeout(cb, 0)
		}
	})
	d := time.Since(start)
	check("timers-zero", fired, n)
	return d
}

// postChain: each function submits the next from the loop, N in all.
func postChain(n int) time.Duration {
	loop := eventloop.NewEventLoop(eventloop.EnableConsole(false))
	loop.Start()
	done := make(chan struct{})
	count := 0
	var next func(*goja.Runtime)
	next = func(*goja.Runtime) {
		if count++; count < n {
			loop.RunOnLoop(next)
		} else {
			close(done)
		}
	}
	start := time.Now()
	loop.RunOnLoop(next)
	<-done
	d := time.Since(start)
	loop.Stop()
	return d
}

// postSubmit: another goroutine submits N functions as fast as it can; the loop runs them.
func postSubmit(n int) time.Duration {
	loop := eventloop.NewEventLoop(eventloop.EnableConsole(false))
	loop.Start()
	done := make(chan struct{})
	count := 0
	fn := func(*goja.Runtime) {
		if count++; count == n {
			close(done)
		}
	}
	start := time.Now()
	go func() {
		for range n {
			loop.RunOnLoop(fn)
		}
	}()
	<-done
	d := time.Since(start)
	loop.Stop()
	return d
}

// postPingPong: a goroutine submits a function and waits for its answer, N round trips.
func postPingPong(n int) time.Duration {
	loop := eventloop.NewEventLoop(eventloop.EnableConsole(false))
	loop.Start()
	ack := make(chan struct{}, 1)
	pong := func(*goja.Runtime) { ack <- struct{}{} }
	start := time.Now()
	for range n {
		loop.RunOnLoop(pong)
		<-ack
	}
	d := time.Since(start)
	loop.Stop()
	return d
}

func check(name string, got, want int) {
	if got != want {
		fmt.Fprintf(os.Stderr, "gojaloop %s: %d callbacks, want %d\n", name, got, want)
		os.Exit(1)
	}
}
