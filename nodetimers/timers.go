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
// async generator. Its interval starts at the first Next, when the generator's body first
// runs, so an Interval never iterated holds no timer. Each Next is a promise for value
// after the next run of the interval; runs that came while nobody asked are handed out at
// once, one per Next, as Node counts them. Return (or the signal) clears the interval; a
// Return made while Next calls wait is answered after them, as a generator queues its
// requests. Loop goroutine only.
type Interval[T any] struct {
	l          *uvloop.Loop
	d          time.Duration
	unref      bool
	t          *uvloop.Timeout // nil until the first Next starts the interval
	value      T
	signal     *nodeevents.AbortSignal
	stopAbort  func() bool
	notYielded int
	waiting    []intervalRequest[T] // Next and Return calls not answered yet, in order
	err        error                // handed to the next Next
	started    bool                 // the first Next (or a Return) came
	finished   bool
}

// intervalRequest is a Next or a Return that waits for the Next calls before it.
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

// start is the generator body's beginning: the signal's check, then the interval.
func (it *Interval[T]) start() {
	it.started = true
	if err := it.signal.Err(); err != nil {
		it.err, it.finished = err, true
		return
	}
	it.t = it.l.SetInterval(it.run, it.d)
	if it.unref {
		it.t.Unref()
	}
	it.stopAbort = it.signal.Watch(func(reason error) {
		it.l.ClearInterval(it.t)
		it.finished = true
		err := &nodeevents.AbortError{Cause: reason}
		if len(it.waiting) > 0 {
			w := it.waiting[0]
			it.waiting = it.waiting[1:]
			w.r.Reject(err)
			it.doneWaiting()
		} else {
			it.err = err
		}
	})
}

func (it *Interval[T]) run() {
	if len(it.waiting) == 0 {
		it.notYielded++
		return
	}
	w := it.waiting[0]
	it.waiting = it.waiting[1:]
	w.r.Resolve(nodeevents.IterResult[T]{Value: it.value})
	if len(it.waiting) > 0 && it.waiting[0].isReturn {
		it.finish() // the Return queued behind that Next, and everything after it: Done
	}
}

// doneWaiting answers the Next and Return calls still waiting with Done.
func (it *Interval[T]) doneWaiting() {
	waiting := it.waiting
	it.waiting = nil
	for _, w := range waiting {
		w.r.Resolve(nodeevents.IterResult[T]{Done: true})
	}
}

// finish ends the iteration: the interval is cleared and the calls waiting are Done.
func (it *Interval[T]) finish() {
	if it.t != nil {
		it.l.ClearInterval(it.t)
	}
	if it.stopAbort != nil {
		it.stopAbort()
	}
	it.started, it.finished = true, true
	it.notYielded = 0
	it.doneWaiting()
}

// Next returns a promise for the next value (or Done after Return). The first Next starts
// the interval.
func (it *Interval[T]) Next() *promise.Promise[nodeevents.IterResult[T]] {
	if !it.started {
		it.start()
	}
	switch {
	case len(it.waiting) > 0:
	case it.notYielded > 0:
		it.notYielded--
		return promise.Resolve(it.l, nodeevents.IterResult[T]{Value: it.value})
	case it.err != nil:
		err := it.err
		it.err = nil
		return promise.Reject[nodeevents.IterResult[T]](it.l, err)
	case it.finished:
		return promise.Resolve(it.l, nodeevents.IterResult[T]{Done: true})
	}
	p, r := promise.WithResolvers[nodeevents.IterResult[T]](it.l)
	it.waiting = append(it.waiting, intervalRequest[T]{r: r})
	return p
}

// Return clears the interval and ends the iteration (Done), at once or, while Next calls
// wait, once they are answered; the Next calls after it are Done.
func (it *Interval[T]) Return() *promise.Promise[nodeevents.IterResult[T]] {
	if len(it.waiting) > 0 {
		p, r := promise.WithResolvers[nodeevents.IterResult[T]](it.l)
		it.waiting = append(it.waiting, intervalRequest[T]{r: r, isReturn: true})
		return p
	}
	it.finish()
	return promise.Resolve(it.l, nodeevents.IterResult[T]{Done: true})
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
