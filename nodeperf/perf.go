// Package nodeperf is the part of Node's perf_hooks that watches the event loop, on a
// uvloop.Loop: performance.eventLoopUtilization and monitorEventLoopDelay, with Node's
// shapes and units (milliseconds in ELU, nanoseconds in the histogram) so that ported code
// reads as it did. The figures come from uvloop: Loop.EventLoopUtilization and
// DelayMonitor, which Go code may use directly. Performance is the clock and User Timing:
// performance.now, timeOrigin, mark, measure, getEntries* and clearMarks/clearMeasures
// (not PerformanceObserver or timerify).
//
// Everything here is for the loop goroutine only, as the loop's own methods are.
package nodeperf

import (
	"fmt"
	"math"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// ELU is what performance.eventLoopUtilization() returns: idle and active time in
// milliseconds and active/(idle+active).
type ELU struct {
	Idle        float64 // ms
	Active      float64 // ms
	Utilization float64
}

// EventLoopUtilization is performance.eventLoopUtilization([utilization1[, utilization2]]):
// with no argument, the loop's idle and active time since Run first ran; with one, the
// change since that earlier result; with two, the difference utilization1 - utilization2.
// Before Run first ran it is all zero whatever the arguments, as Node's is before its loop
// starts. Arguments past the second are ignored, as Node ignores them.
func EventLoopUtilization(l *uvloop.Loop, utils ...ELU) ELU {
	now := l.EventLoopUtilization()
	if now == (uvloop.ELU{}) {
		return ELU{} // the loop has not run: Node's loopStart <= 0, checked first
	}
	if len(utils) >= 2 {
		return newELU(utils[0].Idle-utils[1].Idle, utils[0].Active-utils[1].Active)
	}
	e := ELU{Idle: ms(now.Idle), Active: ms(now.Active), Utilization: now.Utilization}
	if len(utils) == 1 {
		return newELU(e.Idle-utils[0].Idle, e.Active-utils[0].Active)
	}
	return e
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// newELU divides as JavaScript does: 0/0 is NaN.
func newELU(idle, active float64) ELU {
	u := math.NaN()
	if idle+active != 0 {
		u = active / (idle + active)
	}
	return ELU{Idle: idle, Active: active, Utilization: u}
}

// Error is a Node error with its name and code: ERR_OUT_OF_RANGE for a bad resolution or percentile,
// the User Timing errors of Mark and Measure (a DOMException SyntaxError has Code "12", its legacy code).
type Error struct {
	Name    string // the JavaScript error's name: "RangeError", "TypeError", "SyntaxError"
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

func outOfRange(name, want string, got any) error {
	return &Error{Name: "RangeError", Code: "ERR_OUT_OF_RANGE",
		Message: fmt.Sprintf("The value of %q is out of range. It must be %s. Received %v", name, want, got)}
}

// MonitorOptions are monitorEventLoopDelay's options.
type MonitorOptions struct {
	// Resolution is the sampling rate in milliseconds; 0 means Node's default, 10.
	Resolution int
}

// IntervalHistogram is what monitorEventLoopDelay returns: a histogram of the loop's delay in
// nanoseconds, sampled while enabled.
type IntervalHistogram struct {
	m *uvloop.DelayMonitor
}

// MonitorEventLoopDelay is perf_hooks.monitorEventLoopDelay(options): a disabled histogram
// that samples the loop's delay every Resolution ms once enabled. A negative resolution fails
// with ERR_OUT_OF_RANGE, as Node's 0 or negative one does.
func MonitorEventLoopDelay(l *uvloop.Loop, opts MonitorOptions) (*IntervalHistogram, error) {
	res := opts.Resolution
	if res < 0 {
		return nil, outOfRange("options.resolution", ">= 1 && <= 9007199254740991", res)
	}
	if res == 0 {
		res = 10
	}
	m, err := l.NewDelayMonitor(time.Duration(res) * time.Millisecond)
	if err != nil {
		return nil, err
	}
	return &IntervalHistogram{m: m}, nil
}

// Monitor returns the uvloop.DelayMonitor under h.
func (h *IntervalHistogram) Monitor() *uvloop.DelayMonitor { return h.m }

// Enable starts sampling; false if h was enabled already.
func (h *IntervalHistogram) Enable() bool { return h.m.Enable() }

// Disable stops sampling; false if h was not enabled.
func (h *IntervalHistogram) Disable() bool { return h.m.Disable() }

// Reset clears the samples.
func (h *IntervalHistogram) Reset() { h.m.Reset() }

// Count is the number of samples.
func (h *IntervalHistogram) Count() int64 { return h.m.Count() }

// Exceeds is the number of samples above the histogram's range (an hour).
func (h *IntervalHistogram) Exceeds() int64 { return h.m.Exceeds() }

// Min is the smallest sample in ns; with none, 9223372036854775807, as in Node.
func (h *IntervalHistogram) Min() int64 {
	if h.m.Count() == 0 {
		return math.MaxInt64
	}
	return int64(h.m.Min())
}

// Max is the largest sample in ns; 0 with none.
func (h *IntervalHistogram) Max() int64 { return int64(h.m.Max()) }

// Mean is the mean of the samples in ns; NaN with none.
func (h *IntervalHistogram) Mean() float64 { return h.m.Mean() }

// Stddev is the standard deviation of the samples in ns; NaN with none.
func (h *IntervalHistogram) Stddev() float64 { return h.m.Stddev() }

// Percentile is the sample at percentile p in ns; p must be > 0 and <= 100 (else
// ERR_OUT_OF_RANGE). With no samples it is 511, as in Node, whose histogram has a lowest
// discernible value of 1000 ns: the highest value equivalent to 0 is 511.
func (h *IntervalHistogram) Percentile(p float64) (int64, error) {
	if !(p > 0 && p <= 100) {
		return 0, outOfRange("percentile", "> 0 && <= 100", p)
	}
	if h.m.Count() == 0 {
		return 511, nil
	}
	return int64(h.m.Percentile(p)), nil
}

// Percentiles is histogram.percentiles: percentile -> sample in ns, at 0, 50, 75, 87.5, ...
// 100; {100: 0} with no samples, as in Node.
func (h *IntervalHistogram) Percentiles() map[float64]int64 {
	ps := h.m.Percentiles()
	out := make(map[float64]int64, len(ps))
	for _, p := range ps {
		out[p.Percentile] = int64(p.Value)
	}
	return out
}
