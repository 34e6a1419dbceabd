package promise_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// plainQueue is a Scheduler that is not a uvloop.Loop: no nextTick, no checkpoint.
type plainQueue struct{ jobs []func() }

func (q *plainQueue) QueueMicrotask(fn func()) { q.jobs = append(q.jobs, fn) }

func (q *plainQueue) drain() {
	for len(q.jobs) > 0 {
		fn := q.jobs[0]
		q.jobs = q.jobs[1:]
		fn()
	}
}

func runLoop(t *testing.T, fn func(l *uvloop.Loop)) {
	t.Helper()
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	fn(l)
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

// Promisify settles in the callback's first call; later calls and a panic after it are
// ignored, a panic before it rejects.
func TestPromisify(t *testing.T) {
	var got []string
	runLoop(t, func(l *uvloop.Loop) {
		p := promise.Promisify(l, func(cb func(error, int)) {
			cb(nil, 1)
			cb(errors.New("second"), 2)
			panic("after")
		})
		if p.State() != promise.Fulfilled || p.Value() != 1 {
			t.Errorf("promise %v, want fulfilled with 1 at once", p)
		}
		q := promise.Promisify(l, func(cb func(error, int)) { panic(errors.New("before")) })
		q.Catch(func(err error) (int, error) { got = append(got, "caught "+err.Error()); return 0, nil })
		e := promise.PromisifyErr(l, func(cb func(error)) { l.SetImmediate(func() { cb(nil) }) })
		promise.Then(e, func(struct{}) (int, error) { got = append(got, "void"); return 0, nil }, nil)
		add := promise.Promisify2(l, func(a, b int, cb func(error, int)) { cb(nil, a+b) })
		promise.Then(add(2, 3), func(v int) (int, error) { got = append(got, fmt.Sprint("sum ", v)); return 0, nil }, nil)
	})
	want := []string{"caught before", "sum 5", "void"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Without a Ticker, Callbackify calls back from the reaction itself.
func TestCallbackifyNoTicker(t *testing.T) {
	q := &plainQueue{}
	var got []string
	p := promise.Resolve(q, 7)
	promise.Callbackify(p, func(err error, v int) { got = append(got, fmt.Sprint("cb ", err, " ", v)) })
	r := promise.Reject[int](q, errors.New("no"))
	promise.Callbackify(r, func(err error, v int) { got = append(got, fmt.Sprint("cb ", err, " ", v)) })
	q.drain()
	want := []string{"cb <nil> 7", "cb no 0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Value and Fail settle an adopting promise at once; NewAdopting's resolve takes them, a
// promise (adopted two turns later, as in V8), or a foreign thenable.
func TestValueAndFailSettleAtOnce(t *testing.T) {
	q := &plainQueue{}
	p := promise.NewAdopting(q, func(resolve func(promise.Thenable[int]), _ func(error)) {
		resolve(promise.Value(3))
		resolve(promise.Value(4))
	})
	if p.State() != promise.Fulfilled || p.Value() != 3 {
		t.Errorf("Value: %v", p)
	}
	f := promise.NewAdopting(q, func(resolve func(promise.Thenable[int]), _ func(error)) {
		resolve(promise.Fail[int](errors.New("bad")))
	})
	f.Catch(func(error) (int, error) { return 0, nil })
	if f.State() != promise.Rejected || f.Err().Error() != "bad" {
		t.Errorf("Fail: %v", f)
	}
	n := promise.Fail[int](nil)
	_, r := promise.WithResolvers[int](q)
	r.Adopt(n)
	var ve *promise.ValueError
	if !errors.As(r.Promise().Err(), &ve) {
		t.Errorf("Fail(nil): %v", r.Promise().Err())
	}
	// Anything else calls Then of Value's thenable like any thenable's.
	_, r2 := promise.WithResolvers[int](q)
	promise.Value(9).Then(r2)
	if r2.Promise().Value() != 9 {
		t.Errorf("Then of Value: %v", r2.Promise())
	}
	q.drain()
	a := promise.NewAdopting(q, func(resolve func(promise.Thenable[int]), _ func(error)) {
		resolve(promise.Resolve(q, 5))
	})
	turns := 0
	for a.State() == promise.Pending && len(q.jobs) > 0 {
		fn := q.jobs[0]
		q.jobs = q.jobs[1:]
		fn()
		turns++
	}
	if a.Value() != 5 || turns != 2 {
		t.Errorf("adopting a native promise: %v after %d turns, want 5 after 2", a, turns)
	}
	cyc := promise.NewAdopting(q, func(resolve func(promise.Thenable[int]), _ func(error)) { panic("x") })
	cyc.Catch(func(error) (int, error) { return 0, nil })
	if cyc.State() != promise.Rejected {
		t.Errorf("panic in executor: %v", cyc)
	}
	q.drain()
}

// AggregateError's message is V8's.
func TestAggregateErrorMessage(t *testing.T) {
	err := &promise.AggregateError{Errors: []error{errors.New("a")}}
	if err.Error() != "All promises were rejected" {
		t.Errorf("message %q", err.Error())
	}
}
