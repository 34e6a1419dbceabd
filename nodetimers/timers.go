// Package nodetimers is Node.js's timers/promises for code ported to uvgo: SetTimeout and
// SetImmediate return promises, SetInterval is an async iterator, and all three accept an
// AbortSignal (package nodeevents) and can be unref'd, as Node's do. Under them are
// uvloop's SetTimeout and SetImmediate, so they run in the same lists and queues as the
// callback forms, in Node's order.
//
// Durations are time.Duration, as everywhere in uvgo: SetTimeout(l, 500, v, nil) waits 500
// nanoseconds (which Node's rule turns into 1 ms), not 500 ms. Write
// 500*time.Millisecond; cmd/uvgovet reports the bare number.
//
// Everything here belongs to the loop goroutine.
package nodetimers

import (
	"iter"
	"time"

	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Options are the options of the three functions (Node's { signal, ref }).
type Options struct {
	// Signal, if not nil, cancels the timer when aborted: the promise rejects (the
	// iteration ends) with a *nodeevents.AbortError whose Cause is the signal's reason.
	Signal *nodeevents.AbortSignal
	// Unref makes the timer not keep the loop alive (Node's ref: false).
	Unref bool
}

func (o *Options) signal() *nodeevents.AbortSignal {
	if o == nil {
		return nil
	}
	return o.Signal
}

func (o *Options) unref() bool { return o != nil && o.Unref }

// SetTimeout returns a promise fulfilled with value after d (timers/promises setTimeout),
// with the delay rules of uvloop's SetTimeout (Node's: below 1 ms is 1 ms). d is a
// time.Duration: 500*time.Millisecond, not 500.
//
// With a signal, the promise rejects with an *AbortError when the signal is aborted before
// the timer fires (at once if it was aborted already), and it settles in the turns of
// Node's, which passes its promise through SafePromisePrototypeFinally to remove the abort
// listener: five microtasks after a plain promise would.
func SetTimeout[T any](l *uvloop.Loop, d time.Duration, value T, opts *Options) *promise.Promise[T] {
	signal := opts.signal()
	if err := signal.Err(); err != nil {
		return promise.Reject[T](l, err)
	}
	p, r := promise.WithResolvers[T](l)
	t := l.SetTimeout(func() { r.Resolve(value) }, d)
	if opts.unref() {
		t.Unref()
	}
	if signal == nil {
		return p
	}
	stop := signal.Watch(func(reason error) {
		l.ClearTimeout(t)
		r.Reject(&nodeevents.AbortError{Cause: reason})
	})
	return safeFinally(p, stop)
}

// safeFinally is Node's SafePromisePrototypeFinally(p, onFinally): p's outcome adopted by a
// promise (new SafePromise((a, b) => p.then(a, b))), its finally, and a promise that adopts
// that (.then(a, b)), in as many microtasks: two more than p.Finally.
func safeFinally[T any](p *promise.Promise[T], onFinally func() bool) *promise.Promise[T] {
	f := promise.Then[T, T](p, nil, nil).Finally(func() promise.AnyPromise { onFinally(); return nil })
	return promise.Then[T, T](f, nil, nil)
}

// SetImmediate returns a promise fulfilled with value in the check phase
// (timers/promises setImmediate), with SetTimeout's signal rules.
func SetImmediate[T any](l *uvloop.Loop, value T, opts *Options) *promise.Promise[T] {
	signal := opts.signal()
	if err := signal.Err(); err != nil {
		return promise.Reject[T](l, err)
	}
	p, r := promise.WithResolvers[T](l)
	im := l.SetImmediate(func() { r.Resolve(value) })
	if opts.unref() {
		im.Unref()
	}
	if signal == nil {
		return p
	}
	stop := signal.Watch(func(reason error) {
		l.ClearImmediate(im)
		r.Reject(&nodeevents.AbortError{Cause: reason})
	})
	return safeFinally(p, stop)
}

// Interval is what SetInterval returns: Node's async iterator over an interval, which is an
// async generator, and answers as one does, in the same microtask turns:
//
//	while (!signal?.aborted) {
//	  if (notYielded === 0) await new Promise((resolve) => callback = resolve);
//	  for (; notYielded > 0; notYielded--) yield value;
//	}
//	throw new AbortError(undefined, { cause: signal?.reason });
//
// Its interval starts at the first Next, when the body first runs, so an Interval never
// iterated holds no timer. Each Next is a promise for value after the next run of the
// interval; runs that came while nobody asked are handed out one per Next, a turn apart, as
// the body yields them. Next and Return calls wait for those before them, as a generator
// queues its requests; Return (or the signal) clears the interval. Loop goroutine only.
type Interval[T any] struct {
	l          *uvloop.Loop
	d          time.Duration
	unref      bool
	t          *uvloop.Timeout // nil until the body starts the interval
	value      T
	signal     *nodeevents.AbortSignal
	stopAbort  func() bool
	notYielded int                  // Node's: runs not yielded yet, the one being yielded included
	waiting    []intervalRequest[T] // the generator's queue: Next and Return calls not answered yet
	state      genState
	aborted    error // the AbortError the body throws at its loop's test, once the signal aborted
}

// genState is where the generator's body is.
type genState uint8

const (
	genStart     genState = iota // not run yet
	genYield                     // suspended at the yield
	genWaitRun                   // awaiting the interval's next run
	genAwaiting                  // in an await that ends some microtasks later
	genCompleted                 // returned or threw
)

// intervalRequest is a Next or a Return in the generator's queue.
type intervalRequest[T any] struct {
	r        *promise.Resolvers[nodeevents.IterResult[T]]
	isReturn bool
}

// SetInterval returns an async iterator that yields value every d (timers/promises
// setInterval), from the first Next on; iterate with Next from promise code, or with All
// from an Async body, as JavaScript's for await. d is a time.Duration. A signal aborted by
// the first Next makes it reject with an *AbortError.
func SetInterval[T any](l *uvloop.Loop, d time.Duration, value T, opts *Options) *Interval[T] {
	return &Interval[T]{l: l, d: d, unref: opts.unref(), value: value, signal: opts.signal()}
}

// Next returns a promise for the next value (or Done once the iteration ended). The first
// Next starts the interval.
func (it *Interval[T]) Next() *promise.Promise[nodeevents.IterResult[T]] {
	return it.enqueue(false)
}

// Return ends the iteration and clears the interval, after the Next calls before it; its
// promise is Done, and so are the Next calls after it.
func (it *Interval[T]) Return() *promise.Promise[nodeevents.IterResult[T]] {
	return it.enqueue(true)
}

func (it *Interval[T]) enqueue(isReturn bool) *promise.Promise[nodeevents.IterResult[T]] {
	p, r := promise.WithResolvers[nodeevents.IterResult[T]](it.l)
	it.waiting = append(it.waiting, intervalRequest[T]{r: r, isReturn: isReturn})
	if it.state != genWaitRun && it.state != genAwaiting {
		it.step()
	}
	return p
}

// step answers the requests at the head of the queue while the body is suspended, as
// AsyncGeneratorResumeNext does, until the body awaits or the queue is empty.
func (it *Interval[T]) step() {
	for len(it.waiting) > 0 && it.state != genWaitRun && it.state != genAwaiting {
		head := it.waiting[0]
		switch {
		case head.isReturn:
			// return() awaits its value (a turn), at the yield or not; there the body's
			// finally then clears the interval.
			it.state = genAwaiting
			it.after(1, func() {
				it.cleanup()
				it.state = genCompleted
				it.answer(nodeevents.IterResult[T]{Done: true})
			})
		case it.state == genCompleted:
			it.answer(nodeevents.IterResult[T]{Done: true})
		case it.state == genStart:
			if err := it.signal.Err(); err != nil {
				it.state = genCompleted
				it.fail(err)
				continue
			}
			it.t = it.l.SetInterval(it.run, it.d)
			if it.unref {
				it.t.Unref()
			}
			it.stopAbort = it.signal.Watch(it.onAbort)
			it.loop()
		default: // genYield: resumed after the yield
			it.notYielded--
			it.loop()
		}
	}
}

// loop runs the body from its for loop's test: yield (a turn: yield awaits its operand),
// or the while loop's test, then throw or await a run.
func (it *Interval[T]) loop() {
	switch {
	case it.notYielded > 0:
		it.yield(1)
	case it.aborted != nil:
		it.cleanup()
		it.state = genCompleted
		it.fail(it.aborted)
	default:
		it.state = genWaitRun
	}
}

// yield answers the head Next with value after turns microtasks.
func (it *Interval[T]) yield(turns int) {
	it.state = genAwaiting
	it.after(turns, func() {
		it.state = genYield
		it.answer(nodeevents.IterResult[T]{Value: it.value})
	})
}

// after runs fn turns microtasks from now, then answers the requests fn left.
func (it *Interval[T]) after(turns int, fn func()) {
	if turns == 0 {
		fn()
		it.step()
		return
	}
	it.l.QueueMicrotask(func() { it.after(turns-1, fn) })
}

// answer resolves the head request with r.
func (it *Interval[T]) answer(r nodeevents.IterResult[T]) {
	w := it.waiting[0]
	it.waiting = it.waiting[1:]
	w.r.Resolve(r)
}

// fail rejects the head request with err.
func (it *Interval[T]) fail(err error) {
	w := it.waiting[0]
	it.waiting = it.waiting[1:]
	w.r.Reject(err)
}

// cleanup is the body's finally: the interval and the abort listener go.
func (it *Interval[T]) cleanup() {
	if it.t != nil {
		it.l.ClearInterval(it.t)
	}
	if it.stopAbort != nil {
		it.stopAbort()
	}
	it.notYielded = 0
}

// run is the interval's callback: a run, which ends the body's await of one a turn later.
func (it *Interval[T]) run() {
	it.notYielded++
	if it.state == genWaitRun {
		it.yield(2)
	}
}

// onAbort is Node's onCancel: the interval is cleared, and a body awaiting a run resumes
// with the AbortError three turns later (the promise it awaits adopts a rejected one);
// otherwise it throws the error at its loop's test.
func (it *Interval[T]) onAbort(reason error) {
	it.l.ClearInterval(it.t)
	err := &nodeevents.AbortError{Cause: reason}
	if it.state != genWaitRun {
		it.aborted = err
		return
	}
	it.state = genAwaiting
	it.after(3, func() {
		it.cleanup()
		it.state = genCompleted
		it.fail(err)
	})
}

// All is for await: inside a promise.Async body of the loop, it yields value after each run
// of the interval, awaiting each; an abort ends it, yielded as (zero, err). Leaving the
// range early calls Return, which clears the interval.
func (it *Interval[T]) All() iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for {
			r, err := promise.Await(it.Next())
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			if r.Done {
				return
			}
			if !yield(r.Value, nil) {
				it.Return()
				return
			}
		}
	}
}
