package uvloop_test

import (
	"net/netip"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// The cross-goroutine hand-off benchmarks (issue 10): Post from the loop, from another
// goroutine in bulk, and a ping-pong that waits for every answer; the bench runner runs the
// same shapes on dop251/goja_nodejs's eventloop (bench/peers/gojaloop).

// BenchmarkPostChain: a function on the loop Posts the next one, b.N in a chain (ns/op = per
// Post and its run).
func BenchmarkPostChain(b *testing.B) {
	l := newLoop(b)
	n := 0
	var next func()
	next = func() {
		if n++; n < b.N {
			l.Post(next)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	l.Post(next)
	runBench(b, l)
	b.StopTimer()
	if n != b.N {
		b.Fatalf("ran %d, want %d", n, b.N)
	}
	closeLoop(b, l)
}

// BenchmarkPostSubmit: another goroutine Posts b.N functions as fast as it can; the loop runs
// them all (ns/op = per function, the sender and the loop overlapping).
func BenchmarkPostSubmit(b *testing.B) {
	l := newLoop(b)
	n := 0
	release := l.Hold()
	fn := func() {
		if n++; n == b.N {
			release()
		}
	}
	done := make(chan struct{})
	b.ReportAllocs()
	b.ResetTimer()
	go func() {
		defer close(done)
		for range b.N {
			if err := l.Post(fn); err != nil {
				panic(err)
			}
		}
	}()
	runBench(b, l)
	<-done
	b.StopTimer()
	reportWakeups(b, l)
	closeLoop(b, l)
}

// BenchmarkPostPingPong: a goroutine Posts a function and waits for its answer on a channel,
// b.N round trips (ns/op = per round trip). With no fd registered the loop has only timers,
// posts and promises to wait for.
func BenchmarkPostPingPong(b *testing.B) { benchPostPingPong(b, false) }

// BenchmarkPostPingPongFd is BenchmarkPostPingPong with a TCP listener registered, so the
// loop waits in the kernel (epoll_wait, kevent) and every wake-up crosses it.
func BenchmarkPostPingPongFd(b *testing.B) { benchPostPingPong(b, true) }

func benchPostPingPong(b *testing.B, withFd bool) {
	l := newLoop(b)
	if withFd {
		ln, err := l.NewTCP()
		if err != nil {
			b.Fatal(err)
		}
		if err := ln.Bind(netip.MustParseAddrPort("127.0.0.1:0"), 0); err != nil {
			b.Fatal(err)
		}
		if err := ln.Listen(16, func(error) {}); err != nil {
			b.Fatal(err)
		}
		ln.Unref() // registered, but it does not keep the loop alive
	}
	ack := make(chan struct{}, 1)
	release := l.Hold()
	n := 0
	pong := func() {
		if n++; n == b.N {
			release()
		}
		ack <- struct{}{}
	}
	done := make(chan struct{})
	b.ReportAllocs()
	b.ResetTimer()
	go func() {
		defer close(done)
		for range b.N {
			if err := l.Post(pong); err != nil {
				panic(err)
			}
			<-ack
		}
	}()
	runBench(b, l)
	<-done
	b.StopTimer()
	reportWakeups(b, l)
	closeLoop(b, l)
}

// reportWakeups adds the loop's sleeps and signalled wake-ups per op to the benchmark's line.
func reportWakeups(b *testing.B, l *uvloop.Loop) {
	m := l.Metrics()
	b.ReportMetric(float64(m.Sleeps)/float64(b.N), "sleeps/op")
	b.ReportMetric(float64(m.Wakeups)/float64(b.N), "wakeups/op")
}

// BenchmarkTimerOneShot: NewTimer, Start(0, 0), fired, b.N times in batches of 1,000 (ns/op
// and allocs/op = per timer, handle included).
func BenchmarkTimerOneShot(b *testing.B) {
	l := newLoop(b)
	fired := 0
	cb := func(t *uvloop.Timer) { fired++; t.Close(nil) }
	b.ReportAllocs()
	b.ResetTimer()
	for left := b.N; left > 0; {
		k := min(left, 1000)
		for range k {
			t := l.NewTimer(cb)
			t.Start(0, 0)
		}
		left -= k
		runBench(b, l)
	}
	b.StopTimer()
	if fired != b.N {
		b.Fatalf("fired %d, want %d", fired, b.N)
	}
	closeLoop(b, l)
}
