package conformance

import (
	"errors"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the scenarios that need promises and async functions (package promise). A
// JavaScript chain p.then(a).then(b) is Then(Then(p, a), b); an async function is
// promise.Async and await is promise.Await, with the same microtask turns as V8's.

type unit = struct{}

// logThen is p.then(() => out(line)): it returns the derived promise.
func logThen[T any](p *promise.Promise[T], out func(string), line string) *promise.Promise[unit] {
	return promise.Then(p, func(T) (unit, error) {
		out(line)
		return unit{}, nil
	}, nil)
}

// resolved is Promise.resolve().
func resolved(l *uvloop.Loop) *promise.Promise[unit] { return promise.Resolve(l, unit{}) }

// 001 and 014: the main script, then the whole promise chain (promise2 is queued during the
// drain and still runs in it), then the 0 ms timeout.
func scriptStartPromiseTimeout(start, end string) func(l *uvloop.Loop, out func(string)) func() {
	return func(l *uvloop.Loop, out func(string)) func() {
		out(start)
		l.SetTimeout(func() { out("setTimeout") }, 0)
		logThen(logThen(resolved(l), out, "promise1"), out, "promise2")
		out(end)
		return nil
	}
}

// 002: an async function runs synchronously up to its first await; awaiting an async call
// that returned a value resumes one turn later, before promise1.
func async1Async2(l *uvloop.Loop, out func(string)) func() {
	out("script start")
	async2 := func() *promise.Promise[unit] {
		return promise.Async(l, func() (unit, error) {
			out("async2 end")
			return unit{}, nil
		})
	}
	async1 := func() *promise.Promise[unit] {
		return promise.Async(l, func() (unit, error) {
			if _, err := promise.Await(async2()); err != nil {
				return unit{}, err
			}
			out("async1 end")
			return unit{}, nil
		})
	}
	async1()
	l.SetTimeout(func() { out("setTimeout") }, 0)
	p := promise.New(l, func(resolve func(unit), _ func(error)) {
		out("Promise")
		resolve(unit{})
	})
	logThen(logThen(p, out, "promise1"), out, "promise2")
	out("script end")
	return nil
}

// 003: await p on a settled native promise costs one turn, like p.then; Promise.resolve(p)
// is p; reactions on one promise run in registration order.
func awaitNativePromise(l *uvloop.Loop, out func(string)) func() {
	p := promise.Resolve(l, "value")
	f := func() *promise.Promise[unit] {
		return promise.Async(l, func() (unit, error) {
			if _, err := promise.Await(p); err != nil {
				return unit{}, err
			}
			out("ok")
			return unit{}, nil
		})
	}
	g := func() *promise.Promise[unit] {
		return logThen(promise.From[string](l, p), out, "ok (then form)")
	}
	f()
	g()
	logThen(logThen(p, out, "p.then 1"), out, "p.then 2")
	out("sync end")
	return nil
}

// 005: microtasks queued by a timeout callback run right after it, before the next timeout.
func timer1Timer2Promise3(l *uvloop.Loop, out func(string)) func() {
	out("start")
	l.SetTimeout(func() {
		out("timer1")
		logThen(resolved(l), out, "promise1")
	}, 0)
	l.SetTimeout(func() {
		out("timer2")
		logThen(resolved(l), out, "promise2")
	}, 0)
	logThen(resolved(l), out, "promise3")
	out("end")
	return nil
}

// 013: every tick, then every promise reaction (a tick queued by one waits for the queue to
// empty); the timeout and the immediates are 006's race.
func promisesNextTicksImmediates(l *uvloop.Loop, out func(string)) func() {
	logThen(resolved(l), out, "promise1 resolved")
	logThen(resolved(l), out, "promise2 resolved")
	promise.Then(resolved(l), func(unit) (unit, error) {
		out("promise3 resolved")
		l.NextTick(func() { out("next tick inside promise resolve handler") })
		return unit{}, nil
	}, nil)
	logThen(resolved(l), out, "promise4 resolved")
	logThen(resolved(l), out, "promise5 resolved")
	l.SetImmediate(func() { out("set immediate1") })
	l.SetImmediate(func() { out("set immediate2") })

	l.NextTick(func() { out("next tick1") })
	l.NextTick(func() { out("next tick2") })
	l.NextTick(func() { out("next tick3") })

	l.SetTimeout(func() { out("set timeout") }, 0)
	l.SetImmediate(func() { out("set immediate3") })
	l.SetImmediate(func() { out("set immediate4") })
	return nil
}

// 015: the executor runs synchronously, only the reaction is deferred; the timeout (no delay
// given: 1 ms) comes last.
func executorRunsSynchronously(l *uvloop.Loop, out func(string)) func() {
	l.SetTimeout(func() { out("4") }, 0)
	p := promise.New(l, func(resolve func(unit), _ func(error)) {
		resolve(unit{})
		out("1")
	})
	logThen(p, out, "3")
	out("2")
	return nil
}

// 016: executor output, the main script's end, the reaction, then two 0 ms timeouts in
// creation order.
func executorTwoTimeouts(l *uvloop.Loop, out func(string)) func() {
	l.SetTimeout(func() { out("setTimeout1") }, 0)
	l.SetTimeout(func() { out("setTimeout2") }, 0)
	p := promise.New(l, func(resolve func(unit), _ func(error)) {
		out("promise 1")
		resolve(unit{})
		out("promise 2")
	})
	logThen(p, out, "promise then")
	out("end")
	return nil
}

// 017: timer1 promise1 timer2 promise2: the drain after each timeout callback.
func timer1Timer2Microtasks(l *uvloop.Loop, out func(string)) func() {
	l.SetTimeout(func() {
		out("timer1")
		logThen(resolved(l), out, "promise1")
	}, 0)
	l.SetTimeout(func() {
		out("timer2")
		logThen(resolved(l), out, "promise2")
	}, 0)
	return nil
}

// 021: the nextTick queue drains before any promise reaction.
func nextTickBeforePromiseThen(l *uvloop.Loop, out func(string)) func() {
	logThen(resolved(l), out, "promise A")
	l.NextTick(func() { out("tick 1") })
	logThen(resolved(l), out, "promise B")
	l.NextTick(func() { out("tick 2") })
	out("main end")
	return nil
}

// 022: QueueMicrotask and promise reactions share one FIFO; what a microtask queues goes to
// its back.
func microtaskFIFOQueueMicrotaskThen(l *uvloop.Loop, out func(string)) func() {
	l.QueueMicrotask(func() {
		out("qm 1")
		l.QueueMicrotask(func() { out("qm 1 -> nested qm") })
	})
	promise.Then(resolved(l), func(unit) (unit, error) {
		out("then 1")
		logThen(resolved(l), out, "then 1 -> nested then")
		return unit{}, nil
	}, nil)
	l.QueueMicrotask(func() { out("qm 2") })
	logThen(resolved(l), out, "then 2")
	out("main end")
	return nil
}

// 028: the ticks and the promise reactions an immediate queues run before the next
// immediate.
func microtasksBetweenImmediates(l *uvloop.Loop, out func(string)) func() {
	l.SetImmediate(func() {
		out("immediate 1")
		l.NextTick(func() { out("  tick from immediate 1") })
		logThen(resolved(l), out, "  promise from immediate 1")
	})
	l.SetImmediate(func() {
		out("immediate 2")
		logThen(resolved(l), out, "  promise from immediate 2")
		l.NextTick(func() { out("  tick from immediate 2") })
	})
	l.SetImmediate(func() { out("immediate 3") })
	out("main end")
	return nil
}

// 029: a rejection skips Then handlers up to a Catch; Finally runs on both paths and passes
// the outcome through; the two chains interleave one turn at a time. (JavaScript values are
// untyped: the rejected chain is typed string here, for the value its catch returns.)
func promiseThenCatchFinally(l *uvloop.Loop, out func(string)) func() {
	fulfilled := promise.Then(promise.Resolve(l, 1), func(v int) (int, error) {
		out(logLine("then got", v))
		return v + 1, nil
	}, nil).Finally(func() promise.AnyPromise {
		out("finally (fulfilled path)")
		return nil
	})
	promise.Then(fulfilled, func(v int) (unit, error) {
		out(logLine("after finally got", v))
		return unit{}, nil
	}, nil)

	rejected := promise.Then(promise.Reject[string](l, errors.New("boom")), func(string) (string, error) {
		out("skipped then (must not run)")
		return "", nil
	}, nil).Catch(func(err error) (string, error) {
		out(logLine("catch got", err.Error()))
		return "recovered", nil
	}).Finally(func() promise.AnyPromise {
		out("finally (after catch)")
		return nil
	})
	promise.Then(rejected, func(v string) (unit, error) {
		out(logLine("after catch got", v))
		return unit{}, nil
	}, nil)

	out("main end")
	return nil
}

// 030: an async function runs synchronously to its first await; each await of a settled
// promise or a plain value (await null) resumes one turn later; the caller's reaction runs
// after the body returns. The same inside a timeout callback.
func asyncAwaitSequence(l *uvloop.Loop, out func(string)) func() {
	work := func(name string) *promise.Promise[string] {
		return promise.Async(l, func() (string, error) {
			out(logLine(name, "start"))
			v, err := promise.Await(promise.Resolve(l, name+"-value"))
			if err != nil {
				return "", err
			}
			out(logLine(name, "resumed with", v))
			if _, err := promise.Await(promise.Resolve[any](l, nil)); err != nil { // await null
				return "", err
			}
			out(logLine(name, "after await null"))
			return name + "-done", nil
		})
	}
	promise.Then(work("A"), func(r string) (unit, error) {
		out(logLine("A result", r))
		return unit{}, nil
	}, nil)
	out("main after calling work(A)")
	l.SetTimeout(func() {
		promise.Async(l, func() (unit, error) {
			out("timer start")
			r, err := promise.Await(work("B"))
			if err != nil {
				return unit{}, err
			}
			out(logLine("timer got", r))
			return unit{}, nil
		})
	}, 0)
	out("main end")
	return nil
}
