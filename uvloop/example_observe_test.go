package uvloop_test

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Metrics counts the callbacks of each phase and tells what waits in the queues.
func ExampleLoop_Metrics() {
	l, _ := uvloop.New()
	for range 3 {
		l.SetImmediate(func() {})
	}
	l.SetTimeout(func() {}, 0)
	l.NextTick(func() {})
	fmt.Println("queued before Run:", l.Metrics().Queues.Immediates, "immediates,", l.Metrics().Queues.Ticks, "tick")
	l.Run(uvloop.RunDefault)
	m := l.Metrics()
	fmt.Println("check phase callbacks:", m.Phases[uvloop.PhaseCheck].Callbacks)
	fmt.Println("timers phase callbacks ≥ 1:", m.Phases[uvloop.PhaseTimers].Callbacks >= 1)
	l.Close()
	// Output:
	// queued before Run: 3 immediates, 1 tick
	// check phase callbacks: 3
	// timers phase callbacks ≥ 1: true
}

// EventLoopUtilization is Node's performance.eventLoopUtilization(): the share of the time
// since Run first ran that the loop was not blocked waiting. Sub gives the delta form.
func ExampleLoop_EventLoopUtilization() {
	l, _ := uvloop.New()
	var before uvloop.ELU
	l.SetTimeout(func() { before = l.EventLoopUtilization() }, time.Millisecond)
	l.SetTimeout(func() {
		busy := time.Now()
		for time.Since(busy) < 20*time.Millisecond { // hold the loop
		}
		d := l.EventLoopUtilization().Sub(before)
		fmt.Println("active ≥ 20ms since the first timeout:", d.Active >= 20*time.Millisecond, "utilization in (0, 1]:", d.Utilization > 0 && d.Utilization <= 1)
	}, 10*time.Millisecond)
	l.Run(uvloop.RunDefault)
	fmt.Println("idle some of the time:", l.Metrics().IdleTime > 0)
	l.Close()
	// Output:
	// active ≥ 20ms since the first timeout: true utilization in (0, 1]: true
	// idle some of the time: true
}

// A long task report names the callback that held the loop.
func ExampleWithLongTasks() {
	report := func(t uvloop.LongTask) {
		fmt.Printf("%s phase: %s, at %s\n", t.Phase, filepath.Ext(t.Func), filepath.Base(t.File))
	}
	l, _ := uvloop.New(uvloop.WithLongTasks(10*time.Millisecond, report))
	l.SetTimeout(slowHandler, 0)
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// timers phase: .slowHandler, at example_observe_test.go
}

func slowHandler() { time.Sleep(30 * time.Millisecond) }

// A DelayMonitor samples how late the loop runs a timer of its own: a callback that holds
// the loop shows in the maximum.
func ExampleLoop_NewDelayMonitor() {
	l, _ := uvloop.New()
	m, _ := l.NewDelayMonitor(5 * time.Millisecond)
	m.Enable()
	l.SetTimeout(func() { time.Sleep(30 * time.Millisecond) }, 12*time.Millisecond)
	l.SetTimeout(func() {}, 60*time.Millisecond) // the monitor's timer does not keep the loop alive
	l.Run(uvloop.RunDefault)
	m.Disable()
	s := m.Snapshot()
	fmt.Println("samples:", s.Count > 0, "max ≥ 30ms:", s.Max >= 30*time.Millisecond, "p100 = max:", m.Percentile(100) == s.Max)
	l.Close()
	// Output:
	// samples: true max ≥ 30ms: true p100 = max: true
}

// Idle callbacks run when the loop has nothing else to do, with a deadline they can query.
func ExampleLoop_RequestIdleCallback() {
	l, _ := uvloop.New()
	l.RequestIdleCallback(func(d uvloop.IdleDeadline) {
		fmt.Println("idle: time left ≤ 50ms:", d.TimeRemaining() <= uvloop.MaxIdlePeriod, "timed out:", d.DidTimeout())
	}, 0)
	r := l.RequestIdleCallback(func(uvloop.IdleDeadline) { fmt.Println("never") }, 0)
	l.CancelIdleCallback(r)
	l.SetImmediate(func() { fmt.Println("immediate") })
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// immediate
	// idle: time left ≤ 50ms: true timed out: false
}

// With the HTML clamp, timeouts nested deeper than 5 levels wait at least 4 ms each.
func ExampleWithTimerNestingClamp() {
	l, _ := uvloop.New(uvloop.WithTimerNestingClamp())
	start := time.Now()
	depth := 0
	var nest func()
	nest = func() {
		if depth++; depth < 12 {
			l.SetTimeout(nest, 0)
		}
	}
	l.SetTimeout(nest, 0)
	l.Run(uvloop.RunDefault)
	// 6 levels at 1 ms, then 6 at 4 ms (Node, without the clamp: 12 at 1 ms).
	fmt.Println("12 nested timeouts took ≥ 30ms:", time.Since(start) >= 30*time.Millisecond)
	l.Close()
	// Output:
	// 12 nested timeouts took ≥ 30ms: true
}
