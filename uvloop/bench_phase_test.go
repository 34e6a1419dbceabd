package uvloop_test

// The phase overhead report of bench/cmd/uvbench -phases: what an iteration of an otherwise
// empty loop costs, what each phase adds when it has one callback to run, and what one more
// callback of each kind costs.
//
// Every benchmark drives the loop with Run(RunNoWait), one iteration per call, so a phase
// whose handles would let poll block (a lone Prepare or Check) still never sleeps, and every
// row pays the same Run entry and exit. The loop is kept alive by an Async that is never sent
// (it costs nothing per iteration). Each benchmark has two shapes:
//
//	iter     one callback per iteration: ns/op = per iteration (compare with PhaseEmpty)
//	cb100    100 callbacks per iteration: ns/op = per callback, the iteration amortized
//
// Each benchmark runs exactly b.N callbacks (for b.N >= 100).

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// phaseBatch is the number of callbacks per iteration of the cb100 shapes.
const phaseBatch = 100

// phaseShapes are the sub-benchmarks: callbacks per iteration.
var phaseShapes = []struct {
	name string
	k    int
}{{"iter", 1}, {"cb100", phaseBatch}}

// phaseLoop is a loop kept alive by an Async that is never sent.
func phaseLoop(b *testing.B, opts ...uvloop.Option) *uvloop.Loop {
	b.Helper()
	l, err := uvloop.New(opts...)
	if err != nil {
		b.Fatal(err)
	}
	l.NewAsync(nil)
	return l
}

// runNoWait runs one iteration.
func runNoWait(b *testing.B, l *uvloop.Loop) {
	if _, err := l.Run(uvloop.RunNoWait); err != nil {
		b.Fatal(err)
	}
}

// tickets hands out the b.N callbacks of a benchmark: a callback that gets one may arrange
// for one more callback (re-arm its handle, stay started); Take reports false once all are
// handed out, so exactly b.N callbacks run.
type tickets struct{ left int }

func (t *tickets) Take() bool {
	if t.left == 0 {
		return false
	}
	t.left--
	return true
}

// runPhase runs the shapes of one kind. setup(b, l, k, &ran, &tk) makes what k callbacks need
// and returns start, which arms them (inside the timed part, so that each of the b.N
// callbacks is counted with one arming); each callback counts in ran and re-arms while tk has
// tickets. The loop iterates until b.N callbacks ran.
func runPhase(b *testing.B, setup func(b *testing.B, l *uvloop.Loop, k int, ran *int, tk *tickets) (start func()), opts ...uvloop.Option) {
	for _, s := range phaseShapes {
		b.Run(s.name, func(b *testing.B) {
			l := phaseLoop(b, opts...)
			ran := 0
			k := min(s.k, b.N)
			tk := tickets{left: b.N - k}
			start := setup(b, l, k, &ran, &tk)
			b.ReportAllocs()
			b.ResetTimer()
			start()
			for ran < b.N {
				runNoWait(b, l)
			}
			b.StopTimer()
			if ran != b.N {
				b.Fatalf("%d callbacks ran, want %d", ran, b.N)
			}
			closeLoop(b, l)
		})
	}
}

// BenchmarkPhaseEmpty: one iteration with nothing to do in any phase (ns/op = per iteration).
// Poll makes no system call: no fd is registered and no wake-up is pending.
func BenchmarkPhaseEmpty(b *testing.B) {
	l := phaseLoop(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		runNoWait(b, l)
	}
	b.StopTimer()
	closeLoop(b, l)
}

// BenchmarkPhasePollWait: an empty iteration, except that one fd is registered and never
// ready, so the poll phase makes its epoll_wait/kevent call, which reports nothing.
func BenchmarkPhasePollWait(b *testing.B) {
	l := phaseLoop(b)
	fds := socketpair(b)
	p, err := l.NewPoll(fds[0], func(*uvloop.Poll, uvloop.Events, error) { b.Error("fd became ready") })
	if err != nil {
		b.Fatal(err)
	}
	if err := p.Start(uvloop.Readable); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		runNoWait(b, l)
	}
	b.StopTimer()
	closeLoop(b, l)
}

// BenchmarkPhaseTimer: Timers with timeout 0, each restarted with timeout 0 from its own
// callback, which makes it due in the next iteration's timers phase (fire + restart).
func BenchmarkPhaseTimer(b *testing.B) {
	runPhase(b, func(b *testing.B, l *uvloop.Loop, k int, ran *int, tk *tickets) func() {
		cb := func(t *uvloop.Timer) {
			*ran++
			if tk.Take() {
				t.Start(0, 0)
			}
		}
		ts := make([]*uvloop.Timer, k)
		for i := range ts {
			ts[i] = l.NewTimer(cb)
		}
		return func() {
			for _, t := range ts {
				t.Start(0, 0)
			}
		}
	})
}

// BenchmarkPhaseImmediate: immediates that each queue a new one from their callback, which
// runs in the next iteration's check phase (SetImmediate + run).
func BenchmarkPhaseImmediate(b *testing.B) { runPhase(b, phaseImmediate) }

// BenchmarkPhaseImmediateObserved is PhaseImmediate with the optional observation on:
// WithPhaseTiming (a clock read at each phase boundary) and WithLongTasks (one after each
// callback), the threshold never reached.
func BenchmarkPhaseImmediateObserved(b *testing.B) {
	runPhase(b, phaseImmediate, uvloop.WithPhaseTiming(), uvloop.WithLongTasks(time.Hour, func(uvloop.LongTask) {}))
}

func phaseImmediate(b *testing.B, l *uvloop.Loop, k int, ran *int, tk *tickets) func() {
	var cb func()
	cb = func() {
		*ran++
		if tk.Take() {
			l.SetImmediate(cb)
		}
	}
	return func() {
		for range k {
			l.SetImmediate(cb)
		}
	}
}

// phaseWatcher is the setup for Idle, Prepare or Check handles (made by newH, e.g.
// (*uvloop.Loop).NewIdle), each running once per iteration until the tickets run out.
func phaseWatcher[H interface {
	Start() error
	Stop() error
}](newH func(*uvloop.Loop, func(H)) H) func(*testing.B, *uvloop.Loop, int, *int, *tickets) func() {
	return func(b *testing.B, l *uvloop.Loop, k int, ran *int, tk *tickets) func() {
		cb := func(h H) {
			*ran++
			if !tk.Take() {
				h.Stop()
			}
		}
		hs := make([]H, k)
		for i := range hs {
			hs[i] = newH(l, cb)
		}
		return func() {
			for _, h := range hs {
				h.Start()
			}
		}
	}
}

// BenchmarkPhaseIdle: Idle handles, each running once per iteration.
func BenchmarkPhaseIdle(b *testing.B) { runPhase(b, phaseWatcher((*uvloop.Loop).NewIdle)) }

// BenchmarkPhasePrepare: Prepare handles, each running once per iteration.
func BenchmarkPhasePrepare(b *testing.B) { runPhase(b, phaseWatcher((*uvloop.Loop).NewPrepare)) }

// BenchmarkPhaseCheck: Check handles, each running once per iteration.
func BenchmarkPhaseCheck(b *testing.B) { runPhase(b, phaseWatcher((*uvloop.Loop).NewCheck)) }

// BenchmarkPhasePollReadable: Poll handles on sockets that hold one unread byte, so they stay
// readable and (level-triggered) their callback runs every iteration. Includes the poll
// phase's epoll_wait/kevent call (one per iteration, shared by the cb100 callbacks).
func BenchmarkPhasePollReadable(b *testing.B) {
	runPhase(b, func(b *testing.B, l *uvloop.Loop, k int, ran *int, tk *tickets) func() {
		cb := func(p *uvloop.Poll, ev uvloop.Events, err error) {
			if err != nil || ev&uvloop.Readable == 0 {
				b.Fatalf("poll callback: events %v, err %v", ev, err)
			}
			*ran++
			if !tk.Take() {
				p.Stop()
			}
		}
		ps := make([]*uvloop.Poll, k)
		for i := range ps {
			fds := socketpair(b)
			if _, err := unix.Write(fds[1], []byte{1}); err != nil {
				b.Fatal(err)
			}
			p, err := l.NewPoll(fds[0], cb)
			if err != nil {
				b.Fatal(err)
			}
			ps[i] = p
		}
		return func() {
			for _, p := range ps {
				if err := p.Start(uvloop.Readable); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkPhaseNextTick: nextTick callbacks queued before each iteration, run by the drain
// at the start of Run (NextTick + run).
func BenchmarkPhaseNextTick(b *testing.B) {
	benchBeforeIteration(b, func(_ *testing.B, l *uvloop.Loop, cb func()) { l.NextTick(cb) })
}

// BenchmarkPhaseMicrotask: microtasks queued before each iteration, run by the drain at the
// start of Run (QueueMicrotask + run).
func BenchmarkPhaseMicrotask(b *testing.B) {
	benchBeforeIteration(b, func(_ *testing.B, l *uvloop.Loop, cb func()) { l.QueueMicrotask(cb) })
}

// BenchmarkPhasePost: functions posted from the loop goroutine before each iteration, run in
// its poll phase (Post + run). The loop is awake, so Post only queues: no wake-up is written,
// and with no fd registered poll makes no system call.
func BenchmarkPhasePost(b *testing.B) {
	benchBeforeIteration(b, func(b *testing.B, l *uvloop.Loop, cb func()) {
		if err := l.Post(cb); err != nil {
			b.Fatal(err)
		}
	})
}

// benchBeforeIteration queues k callbacks with queue before each iteration; queue gets the
// sub-benchmark's b, to fail it.
func benchBeforeIteration(b *testing.B, queue func(b *testing.B, l *uvloop.Loop, cb func())) {
	for _, s := range phaseShapes {
		b.Run(s.name, func(b *testing.B) {
			l := phaseLoop(b)
			ran := 0
			cb := func() { ran++ }
			b.ReportAllocs()
			b.ResetTimer()
			for left := b.N; left > 0; left -= s.k {
				for range min(s.k, left) {
					queue(b, l, cb)
				}
				runNoWait(b, l)
			}
			b.StopTimer()
			if ran != b.N {
				b.Fatalf("%d callbacks ran, want %d", ran, b.N)
			}
			closeLoop(b, l)
		})
	}
}

// BenchmarkPhaseAsync: Async handles sent from the loop goroutine itself before each
// iteration, their callbacks run in its poll phase (Send + the scan of the Asyncs + run). The
// loop is awake, so Send only marks the handle: no wake-up is written.
func BenchmarkPhaseAsync(b *testing.B) {
	for _, s := range phaseShapes {
		b.Run(s.name, func(b *testing.B) {
			l := phaseLoop(b)
			ran := 0
			cb := func(*uvloop.Async) { ran++ }
			as := make([]*uvloop.Async, s.k)
			for i := range as {
				as[i] = l.NewAsync(cb)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for left := b.N; left > 0; left -= s.k {
				for _, a := range as[:min(s.k, left)] {
					if err := a.Send(); err != nil {
						b.Fatal(err)
					}
				}
				runNoWait(b, l)
			}
			b.StopTimer()
			if ran != b.N {
				b.Fatalf("%d callbacks ran, want %d", ran, b.N)
			}
			closeLoop(b, l)
		})
	}
}

// BenchmarkPhaseClose: the close phase with close callbacks to run; the handles (Idle, never
// started) are made and closed before each iteration (NewIdle + Close + close callback).
func BenchmarkPhaseClose(b *testing.B) {
	noop := func(*uvloop.Idle) {}
	benchBeforeIteration(b, func(b *testing.B, l *uvloop.Loop, cb func()) {
		if err := l.NewIdle(noop).Close(cb); err != nil {
			b.Fatal(err)
		}
	})
}

// socketpair returns a connected pair of Unix stream sockets, closed when the benchmark ends
// (after closeLoop has closed the Poll handles that watch them). Nothing reads them, and
// writing the one byte never blocks.
func socketpair(b *testing.B) [2]int {
	b.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		unix.Close(fds[0])
		unix.Close(fds[1])
	})
	return [2]int{fds[0], fds[1]}
}
