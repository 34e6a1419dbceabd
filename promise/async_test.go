package promise_test

import (
	"errors"
	"runtime"
	"testing"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Async bodies run on pooled coroutines: a body that ends leaves its coroutine idle for the
// next Async call (at most 32 of them per loop), and Close ends the idle ones.
func TestAsyncReusesCoroutines(t *testing.T) {
	l := newLoop(t)
	before := runtime.NumGoroutine()
	sum := 0
	for i := range 100 { // one after another: each body ends before the next starts
		promise.Then(promise.Async(l, func() (int, error) {
			v, err := promise.Await(promise.Resolve(l, i))
			return v, err
		}), func(v int) (unit, error) { sum += v; return unit{}, nil }, nil)
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
	}
	if sum != 99*100/2 {
		t.Errorf("sum %d", sum)
	}
	if n := promise.IdleWorkers(l); n != 1 {
		t.Errorf("%d idle coroutines after 100 bodies in turn, want 1", n)
	}

	// 100 bodies suspended at once need 100 coroutines; 32 stay idle.
	gate, open := promise.WithResolvers[unit](l)
	for range 100 {
		promise.Async(l, func() (unit, error) { return promise.Await(gate) })
	}
	if n := runtime.NumGoroutine() - before; n < 90 {
		t.Errorf("%d goroutines more with 100 suspended bodies", n)
	}
	open.Resolve(unit{})
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if n := promise.IdleWorkers(l); n != 32 {
		t.Errorf("%d idle coroutines after 100 bodies ended, want 32 (the pool's bound)", n)
	}
	closeLoop(t, l) // goleak checks that Close ended the idle ones
}

// A reused coroutine starts each body afresh: after a panic, after an error, nested, and
// from the deferred function of a body being unwound by Close (which rejects with ErrClosed).
func TestAsyncOnReusedCoroutine(t *testing.T) {
	l := newLoop(t)
	boom := errors.New("boom")
	var got []string
	record := func(p *promise.Promise[string]) {
		promise.Then(p, func(v string) (unit, error) { got = append(got, v); return unit{}, nil },
			func(err error) (unit, error) { got = append(got, "error: "+err.Error()); return unit{}, nil })
	}
	record(promise.Async(l, func() (string, error) { panic(boom) }))
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	record(promise.Async(l, func() (string, error) { return "", boom }))
	record(promise.Async(l, func() (string, error) {
		inner := promise.Async(l, func() (string, error) {
			v, _ := promise.Await(promise.Resolve(l, "inner"))
			return v, nil
		})
		v, err := promise.Await(inner)
		return "outer+" + v, err
	}))
	record(promise.Async(l, func() (string, error) { return "plain", nil }))
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	want := []string{"error: boom", "error: boom", "plain", "outer+inner"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %q, want %q", got, want)
		}
	}

	never, _ := promise.WithResolvers[int](l)
	var late *promise.Promise[int]
	promise.Async(l, func() (int, error) {
		defer func() { late = promise.Async(l, func() (int, error) { return 1, nil }) }()
		return promise.Await(never)
	})
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	closeLoop(t, l)
	if late == nil || !errors.Is(late.Err(), promise.ErrClosed) {
		t.Errorf("Async while unwinding: %v, want rejected with ErrClosed", late)
	}
}
