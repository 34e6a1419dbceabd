package uvloop_test

// Benchmarks of the Node-style API. Each mirrors a script in bench/node (same shape, same N
// where N is fixed), so the runner can put them beside Node's numbers.

import (
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// benchChain runs a chain of b.N callbacks, each scheduling the next with schedule, on a
// loop; schedule is SetImmediate or NextTick (ns/op = per callback).
func benchChain(b *testing.B, schedule func(l *uvloop.Loop, cb func())) {
	benchChainOn(b, newLoop(b), schedule)
}

// benchChainOn is benchChain on the loop l.
func benchChainOn(b *testing.B, l *uvloop.Loop, schedule func(l *uvloop.Loop, cb func())) {
	n := 0
	var next func()
	next = func() {
		if n++; n < b.N {
			schedule(l, next)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	schedule(l, next)
	runBench(b, l)
	b.StopTimer()
	if n != b.N {
		b.Fatalf("ran %d", n)
	}
	closeLoop(b, l)
}

// benchBatch schedules b.N callbacks at once with schedule and runs the loop until all ran.
func benchBatch(b *testing.B, schedule func(l *uvloop.Loop, cb func())) {
	l := newLoop(b)
	n := 0
	cb := func() { n++ }
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		schedule(l, cb)
	}
	runBench(b, l)
	b.StopTimer()
	if n != b.N {
		b.Fatalf("ran %d", n)
	}
	closeLoop(b, l)
}

func setImmediate(l *uvloop.Loop, cb func())   { l.SetImmediate(cb) }
func nextTick(l *uvloop.Loop, cb func())       { l.NextTick(cb) }
func queueMicrotask(l *uvloop.Loop, cb func()) { l.QueueMicrotask(cb) }

// BenchmarkImmediateChain: each immediate queues the next (ns/op = per immediate, one loop
// iteration each). bench/node/immediate-chain.js.
func BenchmarkImmediateChain(b *testing.B) { benchChain(b, setImmediate) }

// BenchmarkImmediateChainObserved is ImmediateChain with every optional observation on:
// phase timing, long tasks (with a threshold never reached) and a delay monitor, the cost of
// issue 15's options beside the always-on counters that ImmediateChain pays. The bench
// runner reports the two side by side (its observability overhead table).
func BenchmarkImmediateChainObserved(b *testing.B) {
	l, err := uvloop.New(uvloop.WithPhaseTiming(), uvloop.WithLongTasks(time.Hour, func(uvloop.LongTask) {}))
	if err != nil {
		b.Fatal(err)
	}
	m, err := l.NewDelayMonitor(0)
	if err != nil {
		b.Fatal(err)
	}
	m.Enable()
	benchChainOn(b, l, setImmediate)
}

// BenchmarkImmediateChainLongTasks is ImmediateChain with long-task detection alone (a clock
// read after every callback).
func BenchmarkImmediateChainLongTasks(b *testing.B) {
	l, err := uvloop.New(uvloop.WithLongTasks(time.Hour, func(uvloop.LongTask) {}))
	if err != nil {
		b.Fatal(err)
	}
	benchChainOn(b, l, setImmediate)
}

// BenchmarkImmediateBatch: b.N immediates queued at once, run in one check phase.
// bench/node/immediate-batch.js.
func BenchmarkImmediateBatch(b *testing.B) { benchBatch(b, setImmediate) }

// BenchmarkNextTickChain: each nextTick callback queues the next. bench/node/nexttick-chain.js.
func BenchmarkNextTickChain(b *testing.B) { benchChain(b, nextTick) }

// BenchmarkMicrotaskBatch: b.N microtasks queued at once, then drained.
// bench/node/microtask-batch.js.
func BenchmarkMicrotaskBatch(b *testing.B) { benchBatch(b, queueMicrotask) }

// benchNodeTimers sets n timeouts with delay(i), clears every other one if asked, and runs
// the loop until the rest fired (ns/timer over set, clear and fire).
func benchNodeTimers(b *testing.B, n int, delay func(i int) time.Duration, clearOdd bool) {
	ts := make([]*uvloop.Timeout, n)
	for range b.N {
		b.StopTimer()
		l := newLoop(b)
		fired := 0
		cb := func() { fired++ }
		b.StartTimer()
		for i := range ts {
			ts[i] = l.SetTimeout(cb, delay(i))
		}
		if clearOdd {
			for i := 1; i < n; i += 2 {
				l.ClearTimeout(ts[i])
			}
		}
		runBench(b, l)
		b.StopTimer()
		want := n
		if clearOdd {
			want = (n + 1) / 2
		}
		if fired != want {
			b.Fatalf("fired %d, want %d", fired, want)
		}
		closeLoop(b, l)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/timer")
}

func spreadDelay(i int) time.Duration { return time.Duration(i%1000+1) * time.Millisecond }

// BenchmarkNodeTimersZero: 1M SetTimeout(cb, 0). bench/node/timers-zero.js.
func BenchmarkNodeTimersZero(b *testing.B) {
	benchNodeTimers(b, 1_000_000, func(int) time.Duration { return 0 }, false)
}

// BenchmarkNodeTimersSpread: 1M timeouts over 1..1000ms. bench/node/timers-spread.js.
func BenchmarkNodeTimersSpread(b *testing.B) { benchNodeTimers(b, 1_000_000, spreadDelay, false) }

// BenchmarkNodeTimersCancel: 1M timeouts over 1..1000ms, every other one cleared.
// bench/node/timers-cancel.js.
func BenchmarkNodeTimersCancel(b *testing.B) { benchNodeTimers(b, 1_000_000, spreadDelay, true) }
