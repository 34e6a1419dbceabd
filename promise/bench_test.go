package promise_test

import (
	"sync"
	"testing"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// The workloads of bench/node/promise-chain.js, async-await.js and all-1k.js. One op of
// BenchmarkPromiseChain is one Then on a chain of b.N (building the chain and draining it);
// of BenchmarkAsyncAwait one Await of a fulfilled promise in one async body; of BenchmarkAll1k
// one All over 1,000 fulfilled promises, awaited.

func benchLoop(b *testing.B) *uvloop.Loop {
	b.Helper()
	l, err := uvloop.New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.Close() })
	return l
}

func run(b *testing.B, l *uvloop.Loop) {
	b.Helper()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		b.Fatal(err)
	}
}

func inc(v int) (int, error) { return v + 1, nil }

func BenchmarkPromiseChain(b *testing.B) {
	l := benchLoop(b)
	b.ReportAllocs()
	b.ResetTimer()
	p := promise.Resolve(l, 0)
	for range b.N {
		p = promise.Then(p, inc, nil)
	}
	run(b, l)
	b.StopTimer()
	if p.Value() != b.N {
		b.Fatalf("got %d, want %d", p.Value(), b.N)
	}
}

func BenchmarkAsyncAwait(b *testing.B) {
	l := benchLoop(b)
	b.ReportAllocs()
	b.ResetTimer()
	p := promise.Async(l, func() (int, error) {
		sum := 0
		for range b.N {
			v, _ := promise.Await(promise.Resolve(l, 1))
			sum += v
		}
		return sum, nil
	})
	run(b, l)
	b.StopTimer()
	if p.Value() != b.N {
		b.Fatalf("got %d, want %d", p.Value(), b.N)
	}
}

// BenchmarkAsyncAwaitSwitch is BenchmarkAsyncAwait with two bodies awaiting in turn, so the
// queue is never empty and every Await suspends the body: two coroutine switches per op.
func BenchmarkAsyncAwaitSwitch(b *testing.B) {
	l := benchLoop(b)
	b.ReportAllocs()
	b.ResetTimer()
	body := func(n int) func() (int, error) {
		return func() (int, error) {
			sum := 0
			for range n {
				v, _ := promise.Await(promise.Resolve(l, 1))
				sum += v
			}
			return sum, nil
		}
	}
	p := promise.Async(l, body(b.N/2))
	q := promise.Async(l, body(b.N-b.N/2))
	run(b, l)
	b.StopTimer()
	if p.Value()+q.Value() != b.N {
		b.Fatalf("got %d, want %d", p.Value()+q.Value(), b.N)
	}
}

func BenchmarkAll1k(b *testing.B) {
	l := benchLoop(b)
	ps := make([]*promise.Promise[int], 1000)
	b.ReportAllocs()
	b.ResetTimer()
	done := promise.Async(l, func() (int, error) {
		for range b.N {
			for i := range ps {
				ps[i] = promise.Resolve(l, i)
			}
			vs, err := promise.Await(promise.All(l, ps...))
			if err != nil || len(vs) != len(ps) {
				return 0, err
			}
		}
		return b.N, nil
	})
	run(b, l)
	b.StopTimer()
	if done.Value() != b.N {
		b.Fatalf("got %v, want %d", done, b.N)
	}
}

// BenchmarkAsyncCall is one Async call whose body awaits once: the cost of a coroutine.
func BenchmarkAsyncCall(b *testing.B) {
	l := benchLoop(b)
	b.ReportAllocs()
	for range b.N {
		promise.Async(l, func() (int, error) {
			return promise.Await(promise.Resolve(l, 1))
		})
		run(b, l)
	}
}

// BenchmarkResolve is one Resolve per op: the cost of finding the scheduler's Runtime and
// making a settled promise.
func BenchmarkResolve(b *testing.B) {
	l := benchLoop(b)
	b.ReportAllocs()
	b.ResetTimer()
	resolveN(b, l, b.N)
}

var sinkPromise *promise.Promise[int]

func resolveN(b *testing.B, l *uvloop.Loop, n int) {
	for i := range n {
		sinkPromise = promise.Resolve(l, i)
	}
	run(b, l)
}

// chainN builds a chain of n Thens from a resolved promise on l and drains it.
func chainN(b *testing.B, l *uvloop.Loop, n int) {
	p := promise.Resolve(l, 0)
	for range n {
		p = promise.Then(p, inc, nil)
	}
	run(b, l)
	if p.Value() != n {
		b.Errorf("got %d, want %d", p.Value(), n)
	}
}

// awaitN awaits n resolved promises in one async body on l.
func awaitN(b *testing.B, l *uvloop.Loop, n int) {
	p := promise.Async(l, func() (int, error) {
		sum := 0
		for range n {
			v, _ := promise.Await(promise.Resolve(l, 1))
			sum += v
		}
		return sum, nil
	})
	run(b, l)
	if p.Value() != n {
		b.Errorf("got %d, want %d", p.Value(), n)
	}
}

// onTwoLoops runs workload on two loops at once, each on its own goroutine and doing half of
// b.N, as two loops of an SO_REUSEPORT server on two cores do: ns/op is wall time over the
// ops of both.
func onTwoLoops(b *testing.B, workload func(b *testing.B, l *uvloop.Loop, n int)) {
	loops := [2]*uvloop.Loop{benchLoop(b), benchLoop(b)}
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	for i, l := range loops {
		n := b.N / 2
		if i == 0 {
			n = b.N - n
		}
		wg.Go(func() { workload(b, l, n) })
	}
	wg.Wait()
}

// BenchmarkPromiseChain2Loops is BenchmarkPromiseChain on two loops on two goroutines.
func BenchmarkPromiseChain2Loops(b *testing.B) { onTwoLoops(b, chainN) }

// BenchmarkAsyncAwait2Loops is BenchmarkAsyncAwait on two loops on two goroutines.
func BenchmarkAsyncAwait2Loops(b *testing.B) { onTwoLoops(b, awaitN) }

// BenchmarkResolve2Loops is BenchmarkResolve on two loops on two goroutines.
func BenchmarkResolve2Loops(b *testing.B) { onTwoLoops(b, resolveN) }
