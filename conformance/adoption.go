package conformance

import (
	"errors"
	"strings"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Port of 325: what each way of resolving costs in microtask turns. JavaScript's
// resolve(x) and a handler's return x are promise.NewAdopting's resolve and promise.Chain,
// given promise.Value(v) for a plain value, promise.Fail(err) for a throw, or the promise or
// thenable itself.

// thenableFunc is an object with a then method: { then(res) { ... } }.
type thenableFunc[T any] func(r *promise.Resolvers[T])

func (f thenableFunc[T]) Then(r *promise.Resolvers[T]) { f(r) }

func promiseThenableAdoptionTurns(l *uvloop.Loop, out func(string)) func() {
	p := resolved(l)
	for i := 1; i <= 6; i++ {
		p = promise.Then(p, func(unit) (unit, error) { out(logLine("turn", i)); return unit{}, nil }, nil)
	}
	logValue := func(p *promise.Promise[int], what string) {
		promise.Then(p, func(v int) (unit, error) { out(logLine(what, v)); return unit{}, nil }, nil)
	}
	logError := func(p *promise.Promise[int], what string) {
		p.Catch(func(err error) (int, error) { out(logLine(what, err.Error())); return 0, nil })
	}

	logValue(promise.NewAdopting(l, func(resolve func(promise.Thenable[int]), _ func(error)) {
		resolve(promise.Value(1))
	}), "executor value")
	logValue(promise.NewAdopting(l, func(resolve func(promise.Thenable[int]), _ func(error)) {
		resolve(promise.Resolve(l, 2))
	}), "executor native promise")
	logValue(promise.NewAdopting(l, func(resolve func(promise.Thenable[int]), _ func(error)) {
		resolve(thenableFunc[int](func(r *promise.Resolvers[int]) { r.Resolve(3) }))
	}), "executor thenable")
	logValue(promise.NewAdopting(l, func(resolve func(promise.Thenable[int]), _ func(error)) {
		resolve(thenableFunc[int](func(r *promise.Resolvers[int]) {
			promise.Then(resolved(l), func(unit) (unit, error) { r.Resolve(4); return unit{}, nil }, nil)
		}))
	}), "executor late thenable")
	logValue(promise.Chain(promise.Resolve(l, 5), func(v int) promise.Thenable[int] {
		return promise.Value(v)
	}, nil), "handler value")
	logValue(promise.Chain(promise.Resolve(l, 6), func(v int) promise.Thenable[int] {
		return promise.Resolve(l, v)
	}, nil), "handler native promise")
	logValue(promise.Chain(promise.Resolve(l, 7), func(v int) promise.Thenable[int] {
		return thenableFunc[int](func(r *promise.Resolvers[int]) { r.Resolve(v) })
	}, nil), "handler thenable")
	logError(promise.Chain(promise.Resolve(l, 8), func(int) promise.Thenable[int] {
		return promise.Fail[int](errors.New("thrown"))
	}, nil), "handler throw")
	logError(promise.NewAdopting(l, func(resolve func(promise.Thenable[int]), _ func(error)) {
		resolve(promise.Reject[int](l, errors.New("inner")))
	}), "executor rejected promise")

	reasons := func(err error) (*promise.AggregateError, string) {
		var ae *promise.AggregateError
		if !errors.As(err, &ae) {
			return nil, ""
		}
		msgs := make([]string, len(ae.Errors))
		for i, e := range ae.Errors {
			msgs[i] = e.Error()
		}
		return ae, strings.Join(msgs, ",")
	}
	promise.Any(l, promise.Reject[int](l, errors.New("a")), promise.Reject[int](l, errors.New("b"))).
		Catch(func(err error) (int, error) {
			if _, msgs := reasons(err); msgs != "" {
				out(logLine("AggregateError", err.Error(), msgs))
			}
			return 0, nil
		})
	promise.Any[int](l).Catch(func(err error) (int, error) {
		if ae, _ := reasons(err); ae != nil {
			out(logLine("empty:", err.Error(), len(ae.Errors)))
		}
		return 0, nil
	})
	return nil
}

// Port of 326: util.promisify is promise.Promisify1 (the callback settles the promise in its
// own call), util.callbackify of an async function is promise.Callbackify of its promise
// (the callback runs from a nextTick that the reaction queues).
func promisifyCallbackify(l *uvloop.Loop, out func(string)) func() {
	double := func(x int, cb func(error, int)) {
		if x < 0 {
			cb(errors.New("negative"), 0)
		} else {
			cb(nil, x*2)
		}
	}
	incLater := func(x int, cb func(error, int)) { l.SetImmediate(func() { cb(nil, x+1) }) }
	doubleP := promise.Promisify1(l, double)
	incLaterP := promise.Promisify1(l, incLater)
	logValue := func(p *promise.Promise[int], what string) {
		promise.Then(p, func(v int) (unit, error) { out(logLine(what, v)); return unit{}, nil }, nil)
	}

	logThen(logThen(resolved(l), out, "microtask 1"), out, "microtask 2")
	logValue(doubleP(2), "promisify sync")
	doubleP(-1).Catch(func(err error) (int, error) { out(logLine("promisify error", err.Error())); return 0, nil })
	logValue(incLaterP(5), "promisify immediate")
	l.SetImmediate(func() { out("immediate") })

	triple := func(x int) *promise.Promise[int] {
		return promise.Async(l, func() (int, error) { return x * 3, nil })
	}
	promise.Callbackify(triple(4), func(err error, v int) {
		if err == nil {
			out(logLine("callbackify", "null", v))
		}
		logThen(resolved(l), out, "microtask from callback")
		l.NextTick(func() { out("nextTick from callback") })
	})
	boom := func() *promise.Promise[unit] {
		return promise.Async(l, func() (unit, error) { return unit{}, errors.New("boom") })
	}
	promise.Callbackify(boom(), func(err error, _ unit) { out(logLine("callbackify error", err.Error())) })
	l.NextTick(func() { out("nextTick") })
	out("main end")
	return nil
}
