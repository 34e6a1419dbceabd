package uvloop_test

// The loop core's benchmarks. Each mirrors a program in bench/libuv (same shape, same N
// where N is fixed) so that `bench/compare.sh` can put them side by side.

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

func runBench(b *testing.B, l *uvloop.Loop) {
	b.Helper()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkLoopCount is libuv's loop_count: an empty iteration with one active idle handle
// (ns/op = per iteration). Mirrors bench/libuv/loop_count.c.
func BenchmarkLoopCount(b *testing.B) {
	l := newLoop(b)
	n := 0
	idle := l.NewIdle(func(h *uvloop.Idle) {
		if n++; n == b.N {
			h.Stop()
		}
	})
	idle.Start()
	b.ReportAllocs()
	b.ResetTimer()
	runBench(b, l)
	b.StopTimer()
	closeLoop(b, l)
}

// BenchmarkCheckIdle is the iteration a setImmediate chain pays: an idle handle keeps poll
// from blocking and a check handle counts (ns/op = per iteration). Mirrors check_idle.c.
func BenchmarkCheckIdle(b *testing.B) {
	l := newLoop(b)
	n := 0
	idle := l.NewIdle(func(*uvloop.Idle) {})
	check := l.NewCheck(func(h *uvloop.Check) {
		if n++; n == b.N {
			h.Stop()
			idle.Stop()
		}
	})
	idle.Start()
	check.Start()
	b.ReportAllocs()
	b.ResetTimer()
	runBench(b, l)
	b.StopTimer()
	closeLoop(b, l)
}

// timerShape is one of the timer workloads of bench/libuv.
type timerShape struct {
	timeout func(i int) time.Duration
	stopOdd bool
}

var (
	shapeZero   = timerShape{timeout: func(int) time.Duration { return 0 }}
	shapeSpread = timerShape{timeout: func(i int) time.Duration { return time.Duration(i%1000+1) * time.Millisecond }}
	shapeCancel = timerShape{timeout: shapeSpread.timeout, stopOdd: true}
)

// benchTimers starts n timers shaped as s, stops the odd ones if asked, and runs the loop
// until the rest fired. The handles are made before the clock starts, as the C programs
// calloc and init theirs. ns/op is per timer (started, and fired or stopped).
func benchTimers(b *testing.B, n int, s timerShape) {
	for range b.N {
		b.StopTimer()
		l := newLoop(b)
		fired := 0
		cb := func(*uvloop.Timer) { fired++ }
		ts := make([]*uvloop.Timer, n)
		for i := range ts {
			ts[i] = l.NewTimer(cb)
		}
		l.UpdateTime()
		b.StartTimer()
		for i, t := range ts {
			t.Start(s.timeout(i), 0)
		}
		if s.stopOdd {
			for i := 1; i < n; i += 2 {
				ts[i].Stop()
			}
		}
		runBench(b, l)
		b.StopTimer()
		want := n
		if s.stopOdd {
			want = (n + 1) / 2
		}
		if fired != want {
			b.Fatalf("fired %d, want %d", fired, want)
		}
		closeLoop(b, l)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/timer")
}

// BenchmarkTimersZero: 1M timers at 0ms, started then fired. Mirrors timers_zero.c.
func BenchmarkTimersZero(b *testing.B) { benchTimers(b, 1_000_000, shapeZero) }

// BenchmarkTimersSpread: 1M timers over 1..1000ms (includes ~1s of waiting). Mirrors
// timers_spread.c.
func BenchmarkTimersSpread(b *testing.B) { benchTimers(b, 1_000_000, shapeSpread) }

// BenchmarkTimersCancel: 1M timers over 1..1000ms, every other one stopped before Run.
// Mirrors timers_cancel.c.
func BenchmarkTimersCancel(b *testing.B) { benchTimers(b, 1_000_000, shapeCancel) }

// BenchmarkTimerRestart: one timer restarted with timeout 0 from its own callback, which
// in uvgo (as in libuv >= 1.48 and Node) waits for the next iteration: ns/op = per fire and
// iteration. Compare with bench/libuv/timer_restart_iter.c.
func BenchmarkTimerRestart(b *testing.B) {
	l := newLoop(b)
	n := 0
	t := l.NewTimer(func(t *uvloop.Timer) {
		if n++; n < b.N {
			t.Start(0, 0)
		}
	})
	t.Start(0, 0)
	b.ReportAllocs()
	b.ResetTimer()
	runBench(b, l)
	b.StopTimer()
	if n != b.N {
		b.Fatalf("fired %d times, want %d", n, b.N)
	}
	closeLoop(b, l)
}

// BenchmarkAsyncSend: another goroutine calls Send b.N times as fast as it can; sends that
// arrive while one is pending coalesce (ns/op = total / sends). Mirrors async_send.c.
func BenchmarkAsyncSend(b *testing.B) {
	l := newLoop(b)
	var last atomic.Bool
	callbacks := 0
	a := l.NewAsync(func(a *uvloop.Async) {
		callbacks++
		if last.Load() {
			a.Unref()
		}
	})
	done := make(chan struct{})
	b.ReportAllocs()
	b.ResetTimer()
	go func() {
		defer close(done)
		for range b.N - 1 {
			a.Send()
		}
		last.Store(true)
		a.Send()
	}()
	runBench(b, l)
	<-done
	b.StopTimer()
	b.ReportMetric(float64(callbacks), "callbacks")
	closeLoop(b, l)
}

// BenchmarkAsyncPingPong: another goroutine sends and waits for the callback's answer
// before sending again (ns/op = per round trip). Mirrors async_pingpong.c.
func BenchmarkAsyncPingPong(b *testing.B) {
	l := newLoop(b)
	ack := make(chan struct{}, 1)
	n := 0
	a := l.NewAsync(func(a *uvloop.Async) {
		if n++; n == b.N {
			a.Close(nil)
		}
		ack <- struct{}{}
	})
	done := make(chan struct{})
	b.ReportAllocs()
	b.ResetTimer()
	go func() {
		defer close(done)
		for range b.N {
			a.Send()
			<-ack
		}
	}()
	runBench(b, l)
	<-done
	b.StopTimer()
	closeLoop(b, l)
}
