package uvloop_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/uvgo/uvgo/uvloop"
)

// Tests of the work pool: ports of libuv's test-threadpool.c and test-threadpool-cancel.c
// (their assertions, in our words), then uvgo's own.

// waitFor spins until cond holds, failing t after 10 s.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// blockWorkers queues n items that hold a worker each until release is called, and waits
// until all n run. Their after callbacks count into *done.
func blockWorkers(t testing.TB, l *uvloop.Loop, n int, done *int) (release func()) {
	t.Helper()
	gate := make(chan struct{})
	var started atomic.Int32
	for range n {
		_, err := l.QueueWork(func() {
			started.Add(1)
			<-gate
		}, func(err error) {
			if err != nil {
				t.Errorf("blocking work: after(%v)", err)
			}
			*done++
		})
		mustOK(t, err)
	}
	waitFor(t, "the blocking work to start", func() bool { return int(started.Load()) == n })
	return func() { close(gate) }
}

// threadpool_queue_work_simple: the work runs once on the pool, then after runs once on the
// loop with no error, and the loop ends when nothing else is in flight.
func TestWorkQueueSimple(t *testing.T) {
	l := newLoop(t)
	var workRan atomic.Int32
	afterRan := 0
	_, err := l.QueueWork(func() { workRan.Add(1) }, func(err error) {
		if err != nil {
			t.Errorf("after(%v), want nil", err)
		}
		if workRan.Load() != 1 {
			t.Errorf("after ran before the work")
		}
		afterRan++
	})
	mustOK(t, err)
	if !l.Alive() {
		t.Fatal("queued work does not keep the loop alive")
	}
	if alive := mustRunMode(t, l, uvloop.RunDefault); alive {
		t.Fatal("loop alive after the work completed")
	}
	if workRan.Load() != 1 || afterRan != 1 {
		t.Fatalf("work ran %d times, after %d times; want 1, 1", workRan.Load(), afterRan)
	}
	closeLoop(t, l)
}

// threadpool_queue_work_einval: missing callbacks are refused, and nothing is queued.
func TestWorkQueueEinval(t *testing.T) {
	l := newLoop(t)
	tests := []struct {
		name  string
		work  func()
		after func(error)
	}{
		{name: "nil work", after: func(error) {}},
		{name: "nil after", work: func() {}},
		{name: "both nil"},
	}
	for _, tt := range tests {
		w, err := l.QueueWork(tt.work, tt.after)
		if !errors.Is(err, uvloop.ErrNilCallback) || w != nil {
			t.Errorf("%s: QueueWork = %v, %v; want nil, ErrNilCallback", tt.name, w, err)
		}
	}
	if l.Alive() {
		t.Fatal("refused work keeps the loop alive")
	}
	closeLoop(t, l)
}

// threadpool_cancel_work: with every worker busy, queued work can be canceled; its work never
// runs and its after gets ECANCELED in the poll phase. Running work cannot be canceled, nor
// can work that was canceled already.
func TestWorkCancel(t *testing.T) {
	const workers, queued = 4, 16
	l, err := uvloop.New(uvloop.WithWorkers(workers))
	mustOK(t, err)
	blockedDone := 0
	release := blockWorkers(t, l, workers, &blockedDone)

	var ranWork atomic.Int32
	canceled := 0
	items := make([]*uvloop.Work, queued)
	for i := range items {
		items[i], err = l.QueueWork(func() { ranWork.Add(1) }, func(err error) {
			if !errors.Is(err, syscall.ECANCELED) {
				t.Errorf("canceled work: after(%v), want ECANCELED", err)
			}
			canceled++
		})
		mustOK(t, err)
	}
	for i, w := range items {
		if err := w.Cancel(); err != nil {
			t.Fatalf("Cancel %d: %v", i, err)
		}
		if err := w.Cancel(); !errors.Is(err, uvloop.ErrBusy) {
			t.Fatalf("second Cancel %d: %v, want ErrBusy", i, err)
		}
	}
	if canceled != 0 {
		t.Fatal("after of canceled work ran inside Cancel")
	}
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Close with canceled work undelivered: %v, want ErrBusy", err)
	}
	mustRunMode(t, l, uvloop.RunNoWait)
	if canceled != queued {
		t.Fatalf("%d canceled after callbacks ran in one iteration, want %d", canceled, queued)
	}

	// A running item cannot be canceled.
	gate := make(chan struct{})
	started := make(chan struct{})
	release() // frees the workers for the next item
	w, err := l.QueueWork(func() { close(started); <-gate }, func(err error) {
		if err != nil {
			t.Errorf("running work: after(%v), want nil", err)
		}
	})
	mustOK(t, err)
	<-started
	if err := w.Cancel(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Cancel of running work: %v, want ErrBusy", err)
	}
	close(gate)
	mustRunMode(t, l, uvloop.RunDefault)
	if err := w.Cancel(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Cancel of finished work: %v, want ErrBusy", err)
	}
	if ranWork.Load() != 0 || blockedDone != workers {
		t.Fatalf("canceled work ran %d times; %d of %d blocking items done", ranWork.Load(), blockedDone, workers)
	}
	closeLoop(t, l)
}

// All of many items complete, each after exactly once, and never more workers than the pool's
// size run at once.
func TestWorkManyItems(t *testing.T) {
	const n, workers = 10_000, 3
	l, err := uvloop.New(uvloop.WithWorkers(workers))
	mustOK(t, err)
	var running, most, ran atomic.Int32
	seen := make([]int, n)
	for i := range n {
		_, err := l.QueueWork(func() {
			r := running.Add(1)
			for m := most.Load(); r > m && !most.CompareAndSwap(m, r); m = most.Load() {
			}
			ran.Add(1)
			running.Add(-1)
		}, func(err error) {
			mustOK(t, err)
			seen[i]++
		})
		mustOK(t, err)
	}
	mustRunMode(t, l, uvloop.RunDefault)
	for i, c := range seen {
		if c != 1 {
			t.Fatalf("after of item %d ran %d times", i, c)
		}
	}
	if ran.Load() != n || most.Load() > workers {
		t.Fatalf("work ran %d times (want %d), up to %d at once (pool of %d)", ran.Load(), n, most.Load(), workers)
	}
	closeLoop(t, l)
}

// Completions are batched: what finished before a poll phase is delivered in that one phase.
func TestWorkCompletionsBatched(t *testing.T) {
	const n = 100
	l := newLoop(t)
	var ran atomic.Int32
	done := 0
	for range n {
		_, err := l.QueueWork(func() { ran.Add(1) }, func(error) { done++ })
		mustOK(t, err)
	}
	waitFor(t, "the work to run", func() bool { return ran.Load() == n })
	time.Sleep(20 * time.Millisecond) // the workers publish their last items
	// One iteration delivers them all; a second one is allowed for a worker that was held
	// up between its work and publishing it.
	iterations := 0
	for done < n && iterations < 3 {
		mustRunMode(t, l, uvloop.RunOnce)
		iterations++
	}
	if done != n || iterations > 2 {
		t.Fatalf("%d iterations delivered %d of %d completions, want all in one (two at most)", iterations, done, n)
	}
	closeLoop(t, l)
}

// after runs in the poll phase, followed by the tick/microtask drain: an immediate it queues
// runs in the same iteration's check phase, before a 0 ms timeout it set first.
func TestWorkAfterOrdering(t *testing.T) {
	l := newLoop(t)
	var log nodeLog
	_, err := l.QueueWork(func() {}, func(error) {
		log.add("after")
		l.SetTimeout(log.rec("timeout 0"), 0)
		l.SetImmediate(log.rec("immediate"))
		l.QueueMicrotask(log.rec("microtask"))
		l.NextTick(log.rec("nextTick"))
		log.add("after end")
	})
	mustOK(t, err)
	nodeRun(t, l)
	nodeCheck(t, log, "after", "after end", "nextTick", "microtask", "immediate", "timeout 0")
	closeLoop(t, l)
}

// Close fails with ErrBusy while work is in flight (running, or done with after not yet run)
// and succeeds once after has run; the pool's goroutines end with it.
func TestWorkCloseBusy(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	l := newLoop(t)
	done := 0
	release := blockWorkers(t, l, 1, &done)
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Close with work running: %v, want ErrBusy", err)
	}
	release()
	time.Sleep(10 * time.Millisecond)
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Close with after not run: %v, want ErrBusy", err)
	}
	mustRunMode(t, l, uvloop.RunDefault)
	if done != 1 {
		t.Fatalf("after ran %d times", done)
	}
	mustOK(t, l.Close())
	goleak.VerifyNone(t, ignore)
	if _, err := l.QueueWork(func() {}, func(error) {}); !errors.Is(err, uvloop.ErrClosed) {
		t.Fatalf("QueueWork after Close: %v, want ErrClosed", err)
	}
}

// A panic in work is recovered on the worker and reaches after as a *PanicError; a panic in
// after follows the loop's policy: Run returns it and the other completions wait for the next
// Run.
func TestWorkPanics(t *testing.T) {
	l, err := uvloop.New(uvloop.WithWorkers(1))
	mustOK(t, err)
	var got error
	_, err = l.QueueWork(func() { panic(boom) }, func(err error) { got = err })
	mustOK(t, err)
	mustRunMode(t, l, uvloop.RunDefault)
	var pe *uvloop.PanicError
	if !errors.As(got, &pe) || pe.Value != boom || len(pe.Stack) == 0 {
		t.Fatalf("after(%v), want a *PanicError of %q", got, boom)
	}

	var log nodeLog
	var ran atomic.Int32
	for i, name := range []string{"a", "b", "c"} {
		_, err := l.QueueWork(func() { ran.Add(1) }, func(error) {
			log.add(name)
			l.NextTick(log.rec(name + " tick"))
			if i == 0 {
				panic(boom)
			}
		})
		mustOK(t, err)
	}
	waitFor(t, "the work to run", func() bool { return ran.Load() == 3 })
	time.Sleep(10 * time.Millisecond)
	_, err = l.Run(uvloop.RunDefault)
	wantPanic(t, err)
	nodeCheck(t, log, "a")
	if !l.Alive() {
		t.Fatal("undelivered completions do not keep the loop alive")
	}
	nodeRun(t, l)
	nodeCheck(t, log, "a", "a tick", "b", "b tick", "c", "c tick")
	closeLoop(t, l)
}

// ReadFile reads on the pool and calls back on the loop with the bytes, or the error.
func TestWorkReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	mustOK(t, os.WriteFile(path, []byte("hello"), 0o600))
	l := newLoop(t)
	var log nodeLog
	mustOK(t, l.ReadFile(path, func(data []byte, err error) {
		if err != nil || string(data) != "hello" {
			t.Errorf("ReadFile = %q, %v", data, err)
		}
		log.add("read")
	}))
	mustOK(t, l.ReadFile(filepath.Join(dir, "missing"), func(data []byte, err error) {
		if !errors.Is(err, os.ErrNotExist) || data != nil {
			t.Errorf("ReadFile of a missing file = %q, %v; want ErrNotExist", data, err)
		}
		log.add("missing")
	}))
	if err := l.ReadFile(path, nil); !errors.Is(err, uvloop.ErrNilCallback) {
		t.Errorf("ReadFile(nil callback) = %v", err)
	}
	nodeRun(t, l)
	if len(log) != 2 {
		t.Fatalf("callbacks: %q", log)
	}
	closeLoop(t, l)
	if err := l.ReadFile(path, func([]byte, error) {}); !errors.Is(err, uvloop.ErrClosed) {
		t.Fatalf("ReadFile after Close: %v, want ErrClosed", err)
	}
}

// BenchmarkQueueWork queues b.N items of empty work and runs the loop until every after
// callback ran: ns/op is per item, queue to completion.
func BenchmarkQueueWork(b *testing.B) {
	l, err := uvloop.New()
	if err != nil {
		b.Fatal(err)
	}
	work := func() {}
	done := 0
	after := func(error) { done++ }
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := l.QueueWork(work, after); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if done != b.N {
		b.Fatalf("%d of %d completions", done, b.N)
	}
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
}

// The work runs on a worker goroutine; after runs on the loop in the poll phase, so an
// immediate it queues runs before a 0 ms timeout.
func ExampleLoop_QueueWork() {
	l, err := uvloop.New()
	if err != nil {
		panic(err)
	}
	sum := 0 // written by the work, read by after: the pool orders the two
	_, err = l.QueueWork(func() {
		for i := 1; i <= 100; i++ {
			sum += i
		}
	}, func(err error) {
		l.SetTimeout(func() { fmt.Println("timeout") }, 0)
		l.SetImmediate(func() { fmt.Println("immediate") })
		fmt.Println("after:", sum, err)
	})
	if err != nil {
		panic(err)
	}
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		panic(err)
	}
	if err := l.Close(); err != nil {
		panic(err)
	}
	// Output:
	// after: 5050 <nil>
	// immediate
	// timeout
}
