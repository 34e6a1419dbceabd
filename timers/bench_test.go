package timers_test

import (
	"math/rand/v2"
	"testing"

	"github.com/uvgo/uvgo/timers"
)

// timeouts returns n pseudo-random timeouts below 1s.
func timeouts(n int) []int64 {
	r := rand.New(rand.NewPCG(1, 1))
	t := make([]int64, n)
	for i := range t {
		t[i] = r.Int64N(1e9)
	}
	return t
}

func newEntries(n int) []timers.Entry {
	es := make([]timers.Entry, n)
	fn := func() {}
	for i := range es {
		es[i].Fn = fn
	}
	return es
}

// BenchmarkStartFire starts b.N timers with varied deadlines, then fires
// them all with one RunExpired: ns/op is per timer.
func BenchmarkStartFire(b *testing.B) {
	es, to := newEntries(b.N), timeouts(b.N)
	h := timers.New()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range es {
		_ = h.Start(&es[i], 0, to[i], 0)
	}
	if n := h.RunExpired(1e9); n != b.N {
		b.Fatalf("fired %d of %d", n, b.N)
	}
}

// BenchmarkStartFireSameDeadline is BenchmarkStartFire with one deadline for
// all timers, which the sequence keeps apart.
func BenchmarkStartFireSameDeadline(b *testing.B) {
	es := newEntries(b.N)
	h := timers.New()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range es {
		_ = h.Start(&es[i], 0, 1000, 0)
	}
	if n := h.RunExpired(1000); n != b.N {
		b.Fatalf("fired %d of %d", n, b.N)
	}
}

// BenchmarkStartStopHalfFire starts b.N timers, stops every other one and
// fires the rest: ns/op is per started timer.
func BenchmarkStartStopHalfFire(b *testing.B) {
	es, to := newEntries(b.N), timeouts(b.N)
	h := timers.New()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range es {
		_ = h.Start(&es[i], 0, to[i], 0)
	}
	for i := 0; i < len(es); i += 2 {
		h.Stop(&es[i])
	}
	if n := h.RunExpired(1e9); n != b.N/2 {
		b.Fatalf("fired %d of %d", n, b.N/2)
	}
}

// BenchmarkStartFire1M starts 1M timers with varied deadlines and fires them
// all, b.N times over the same entries; ns/timer is the cost per timer.
func BenchmarkStartFire1M(b *testing.B) {
	const n = 1 << 20
	es, to := newEntries(n), timeouts(n)
	h := timers.New()
	b.ReportAllocs()
	for b.Loop() {
		for i := range es {
			_ = h.Start(&es[i], 0, to[i], 0)
		}
		if got := h.RunExpired(1e9); got != n {
			b.Fatalf("fired %d of %d", got, n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/timer")
}

// BenchmarkRestart restarts one timer among 10k waiting ones, as a socket
// timeout refreshed on every read does.
func BenchmarkRestart(b *testing.B) {
	es, to := newEntries(10_000), timeouts(10_000)
	h := timers.New()
	for i := range es {
		_ = h.Start(&es[i], 0, to[i], 0)
	}
	e := &es[0]
	var now int64
	b.ReportAllocs()
	for b.Loop() {
		now++
		_ = h.Start(e, now, 5e8, 0)
	}
}

// BenchmarkStartRunOne starts one timer with timeout 0 and fires it, among
// 10k waiting ones: the cost of a setTimeout(0)-like round trip.
func BenchmarkStartRunOne(b *testing.B) {
	es, to := newEntries(10_000), timeouts(10_000)
	h := timers.New()
	for i := range es {
		_ = h.Start(&es[i], 0, 1e10+to[i], 0)
	}
	e := &timers.Entry{Fn: func() {}}
	var now int64
	b.ReportAllocs()
	for b.Loop() {
		now++
		_ = h.Start(e, now, 0, 0)
		h.RunExpired(now)
	}
}
