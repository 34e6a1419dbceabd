package uvloop

import (
	"math"
	"math/bits"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// This file is the event-loop delay monitor, Node's monitorEventLoopDelay: a repeating timer
// of the loop whose every run records, in a histogram, how long it really took since the
// last run. On an idle loop that is the resolution; a callback that holds the loop adds its
// time to the next sample.

// DefaultDelayResolution is the sampling interval of a DelayMonitor made with resolution 0,
// as Node's default of 10 ms.
const DefaultDelayResolution = 10 * time.Millisecond

// Histogram bounds, as Node's ELDHistogram: 1 ns to one hour, three significant digits.
const (
	delayLowest  = 1
	delayHighest = int64(time.Hour)
	delayDigits  = 3
)

// DelayMonitor samples the loop's delay (Node's monitorEventLoopDelay): while enabled, a
// timer repeating every resolution records in an HdrHistogram the time between its runs, in
// nanoseconds. Its timer is unref'd: it does not keep the loop alive, and Loop.Close stops
// it. Its methods are for the loop goroutine only; Snapshot's result may go anywhere.
type DelayMonitor struct {
	loop       *Loop
	timer      *Timer
	resolution time.Duration
	hist       *hdrhistogram.Histogram
	prev       int64 // ns since epoch of the last sample; 0 until the first after Enable
	count      int64 // samples recorded
	exceeds    int64 // samples over the histogram's range (an hour)
	enabled    bool
}

// NewDelayMonitor makes a disabled delay monitor sampling every resolution (0 means
// DefaultDelayResolution). A negative resolution fails with an error wrapping
// ErrNegativeDuration, a closed loop with ErrClosed.
func (l *Loop) NewDelayMonitor(resolution time.Duration) (*DelayMonitor, error) {
	if resolution < 0 {
		return nil, errorf(ErrNegativeDuration, "resolution %v", resolution)
	}
	if l.closed {
		return nil, ErrClosed
	}
	if resolution == 0 {
		resolution = DefaultDelayResolution
	}
	m := &DelayMonitor{loop: l, resolution: resolution,
		hist: hdrhistogram.New(delayLowest, delayHighest, delayDigits)}
	m.timer = l.NewTimer(m.sample)
	m.timer.flags |= flagInternal
	m.timer.Unref()
	return m, nil
}

// Enable starts sampling; it reports false if the monitor was enabled already (or its loop
// is closed). The histogram keeps what it had: Reset clears it.
func (m *DelayMonitor) Enable() bool {
	if m.enabled || m.loop.closed {
		return false
	}
	m.enabled = true
	m.prev = 0
	m.timer.Start(m.resolution, m.resolution)
	return true
}

// Disable stops sampling; it reports false if the monitor was not enabled.
func (m *DelayMonitor) Disable() bool {
	if !m.enabled {
		return false
	}
	m.enabled = false
	m.timer.Stop()
	return true
}

// sample is the timer's callback (Node's RecordDelta): the time since the last run.
func (m *DelayMonitor) sample(*Timer) {
	now := int64(time.Since(m.loop.epoch))
	if m.prev > 0 {
		if d := now - m.prev; d >= delayLowest {
			if m.hist.RecordValue(d) != nil {
				m.exceeds++
			} else {
				m.count++
			}
		}
	}
	m.prev = now
}

// Reset clears the histogram.
func (m *DelayMonitor) Reset() {
	m.hist.Reset()
	m.count, m.exceeds, m.prev = 0, 0, 0
}

// Resolution returns the sampling interval.
func (m *DelayMonitor) Resolution() time.Duration { return m.resolution }

// Count returns the number of samples recorded.
func (m *DelayMonitor) Count() int64 { return m.count }

// Exceeds returns the number of samples above an hour, which the histogram cannot hold.
func (m *DelayMonitor) Exceeds() int64 { return m.exceeds }

// Min returns the smallest sample (0 with none).
func (m *DelayMonitor) Min() time.Duration {
	if m.count == 0 {
		return 0
	}
	return time.Duration(m.hist.Min())
}

// Max returns the largest sample (0 with none).
func (m *DelayMonitor) Max() time.Duration { return time.Duration(m.hist.Max()) }

// Mean returns the mean of the samples in nanoseconds (NaN with none, as in Node).
func (m *DelayMonitor) Mean() float64 {
	if m.count == 0 {
		return math.NaN()
	}
	return m.hist.Mean()
}

// Stddev returns the standard deviation of the samples in nanoseconds (NaN with none).
func (m *DelayMonitor) Stddev() float64 {
	if m.count == 0 {
		return math.NaN()
	}
	return m.hist.StdDev()
}

// Percentile returns the sample at percentile p (0 < p <= 100): the value that p percent of
// the samples are at or below, to the histogram's three digits. 0 with no samples.
func (m *DelayMonitor) Percentile(p float64) time.Duration {
	return time.Duration(m.hist.ValueAtPercentile(p))
}

// PercentileValue is one point of the distribution: Value is the sample at Percentile.
type PercentileValue struct {
	Percentile float64
	Value      time.Duration
}

// Percentiles returns the distribution as Node's histogram.percentiles has it: the value at
// 0, 50, 75, 87.5, ... percent, halving the distance to 100 at each step, up to 100, each the
// lowest value of its histogram bucket (where Percentile and Max give the highest), as Node's
// iteration over the C HdrHistogram does.
func (m *DelayMonitor) Percentiles() []PercentileValue {
	if m.count == 0 {
		return []PercentileValue{{Percentile: 100, Value: 0}}
	}
	bs := m.hist.CumulativeDistributionWithTicks(1)
	out := make([]PercentileValue, 0, len(bs))
	for _, b := range bs {
		v := time.Duration(lowestEquivalent(b.ValueAt))
		if n := len(out); n > 0 && out[n-1].Percentile == b.Quantile {
			out[n-1].Value = v
			continue
		}
		out = append(out, PercentileValue{Percentile: b.Quantile, Value: v})
	}
	return out
}

// lowestEquivalent is the lowest value of the bucket whose highest value is v, in the
// geometry of delayLowest 1 and delayDigits 3: 2048 sub-buckets, so a bucket of values
// below 2048 holds one value and above it 2^(bit length - 11).
func lowestEquivalent(v int64) int64 {
	return v - 1<<(bits.Len64(uint64(v)|2047)-11) + 1
}

// DelayStats is a copy of a DelayMonitor's figures at one moment, safe to hand to another
// goroutine.
type DelayStats struct {
	Count         int64
	Exceeds       int64
	Min, Max      time.Duration
	Mean, Stddev  float64 // ns; NaN with no samples
	P50, P90, P99 time.Duration
	P999          time.Duration
	Resolution    time.Duration
}

// Snapshot returns the monitor's figures now.
func (m *DelayMonitor) Snapshot() DelayStats {
	return DelayStats{
		Count: m.count, Exceeds: m.exceeds, Min: m.Min(), Max: m.Max(), Mean: m.Mean(), Stddev: m.Stddev(),
		P50: m.Percentile(50), P90: m.Percentile(90), P99: m.Percentile(99), P999: m.Percentile(99.9),
		Resolution: m.resolution,
	}
}
