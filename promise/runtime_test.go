package promise_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// fifo is a foreign scheduler: not a RuntimeHolder, so the package keeps its Runtime in the
// process-wide map.
type fifo struct{ jobs []func() }

func (f *fifo) QueueMicrotask(fn func()) { f.jobs = append(f.jobs, fn) }

func (f *fifo) drain() {
	for len(f.jobs) > 0 {
		fn := f.jobs[0]
		f.jobs = f.jobs[1:]
		fn()
	}
}

func TestRuntimeInLoopSlot(t *testing.T) {
	var _ promise.RuntimeHolder = (*uvloop.Loop)(nil)
	a, b := newLoop(t), newLoop(t)
	if a.RuntimeSlot() != nil {
		t.Fatal("a new loop's slot is not empty")
	}
	ra := promise.RuntimeOf(a)
	if got := a.RuntimeSlot(); got != any(ra) {
		t.Fatalf("slot holds %v, want the Runtime", got)
	}
	if promise.RuntimeOf(a) != ra {
		t.Fatal("RuntimeOf of the same loop gave another Runtime")
	}
	if promise.RuntimeOf(b) == ra {
		t.Fatal("two loops share a Runtime")
	}
	closeLoop(t, a)
	closeLoop(t, b)
	if a.RuntimeSlot() != nil || b.RuntimeSlot() != nil {
		t.Fatal("Close left the Runtime in the slot")
	}
}

func TestRuntimeOfForeignScheduler(t *testing.T) {
	f := &fifo{}
	rt := promise.RuntimeOf(f)
	if promise.RuntimeOf(f) != rt {
		t.Fatal("RuntimeOf of the same scheduler gave another Runtime")
	}
	p := promise.Then(promise.Resolve(f, 1), func(v int) (int, error) { return v + 1, nil }, nil)
	f.drain()
	if p.Value() != 2 {
		t.Fatalf("got %d, want 2", p.Value())
	}
	rt.Close()
	if promise.RuntimeOf(f) == rt {
		t.Fatal("a closed Runtime is still found")
	}
	promise.RuntimeOf(f).Close()
}

// TestRuntimeTwoLoopsInParallel runs promise chains on two loops on two goroutines at once;
// under -race it shows that they share no Runtime state.
func TestRuntimeTwoLoopsInParallel(t *testing.T) {
	const n = 2000
	var wg sync.WaitGroup
	for range 2 {
		l := newLoop(t)
		wg.Go(func() {
			p := promise.Resolve(l, 0)
			for range n { // each reaction finds the Runtime again, on the loop goroutine
				p = promise.Then(p, func(v int) (int, error) { return v + promise.Resolve(l, 1).Value(), nil }, nil)
			}
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				t.Error(err)
			}
			if p.Value() != n {
				t.Errorf("got %d, want %d", p.Value(), n)
			}
			if err := l.Close(); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// TestRuntimeCloseFromBody: InBody is true inside an Async body only, and a Close from a
// body panics (the body's promise rejects with the message) instead of unwinding the body
// that calls it; the Runtime stays open, and the body's Await still works after.
func TestRuntimeCloseFromBody(t *testing.T) {
	f := &fifo{}
	rt := promise.RuntimeOf(f)
	defer rt.Close()
	if rt.InBody() {
		t.Fatal("InBody outside a body")
	}
	var inBody bool
	p := promise.Async(f, func() (int, error) {
		inBody = rt.InBody()
		rt.Close()
		return 1, nil
	})
	f.drain()
	if !inBody {
		t.Error("InBody false inside a body")
	}
	if p.State() != promise.Rejected || !strings.Contains(p.Err().Error(), "Runtime.Close called from an Async body") {
		t.Fatalf("the body's promise: %v %v", p.State(), p.Err())
	}
	q := promise.Async(f, func() (int, error) { return promise.Await(promise.Resolve(f, 2)) })
	f.drain()
	if q.State() != promise.Fulfilled || q.Value() != 2 || promise.RuntimeOf(f) != rt {
		t.Fatalf("after the refused Close: %v %v, same Runtime %v", q.State(), q.Value(), promise.RuntimeOf(f) == rt)
	}
}
