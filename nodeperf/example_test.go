package nodeperf_test

import (
	"fmt"
	"time"

	"github.com/uvgo/uvgo/nodeperf"
	"github.com/uvgo/uvgo/uvloop"
)

// The shapes of perf_hooks: eventLoopUtilization in ms, monitorEventLoopDelay in ns.
func Example() {
	l, _ := uvloop.New()
	h, _ := nodeperf.MonitorEventLoopDelay(l, nodeperf.MonitorOptions{Resolution: 5})
	h.Enable()
	start := nodeperf.EventLoopUtilization(l) // the loop has not run: all zero
	fmt.Printf("%+v\n", start)
	var first nodeperf.ELU
	l.SetTimeout(func() { first = nodeperf.EventLoopUtilization(l) }, time.Millisecond)
	l.SetTimeout(func() {
		time.Sleep(25 * time.Millisecond) // holds the loop: active time, and a late sample
		d := nodeperf.EventLoopUtilization(l, first)
		fmt.Println("active since the first timeout ≥ 25 ms:", d.Active >= 25)
	}, 12*time.Millisecond)
	l.SetTimeout(func() {}, 50*time.Millisecond)
	l.Run(uvloop.RunDefault)
	h.Disable()
	fmt.Println("max delay ≥ 25 ms:", h.Max() >= int64(25*time.Millisecond))
	p, _ := h.Percentile(100)
	fmt.Println("percentile(100) = max:", p == h.Max())
	l.Close()
	// Output:
	// {Idle:0 Active:0 Utilization:0}
	// active since the first timeout ≥ 25 ms: true
	// max delay ≥ 25 ms: true
	// percentile(100) = max: true
}

// User Timing: marks and a measure between them, as performance.mark and measure.
func ExamplePerformance() {
	l, _ := uvloop.New()
	defer l.Close()
	perf := nodeperf.New(l)
	perf.Mark("start", &nodeperf.MarkOptions{StartTime: 10})
	perf.Mark("end", &nodeperf.MarkOptions{StartTime: 25.5, Detail: "done"})
	m, _ := perf.Measure("work", "start", "end")
	fmt.Println(m.Name, m.StartTime, m.Duration)
	_, err := perf.Measure("bad", "nope")
	fmt.Println(err)
	for _, e := range perf.GetEntries() {
		fmt.Println(e.EntryType, e.Name, e.StartTime)
	}
	// Output:
	// work 10 15.5
	// The "nope" performance mark has not been set
	// mark start 10
	// measure work 10
	// mark end 25.5
}
