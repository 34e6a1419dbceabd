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
// Node's, which settles a promise with a finally that removes the abort listener: three
// microtasks after a plain promise would.
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
	return p.Finally(func() promise.AnyPromise { stop(); return nil })
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
	return p.Finally(func() promise.AnyPromise { stop(); return nil })
}

// Interval is what SetInterval returns: Node's async iterator over an interval. Each Next
// is a promise for value after the next run of the interval; runs that came while nobody
// asked are handed out at once, one per Next, as Node counts them. Return (or the signal)
// clears the interval. Loop goroutine only.
type Interval[T any] struct {
	l          *uvloop.Loop
	t          *uvloop.Timeout
	value      T
	signal     *nodeevents.AbortSignal
	stopAbort  func() bool
	notYielded int
	waiting    []*promise.Resolvers[nodeevents.IterResult[T]] // Next calls not answered yet, in order
	err        error                                          // handed to the next Next
	finished   bool
}

// SetInterval returns an async iterator that yields value every d (timers/promises
// setInterval). The interval starts at once; iterate with Next from promise code, or with
// All from an Async body, as JavaScript's for await. d is a time.Duration.
func SetInterval[T any](l *uvloop.Loop, d time.Duration, value T, opts *Options) *Interval[T] {
	it := &Interval[T]{l: l, value: value, signal: opts.signal()}
	if err := it.signal.Err(); err != nil {
		it.err, it.finished = err, true
		return it
	}
	it.t = l.SetInterval(it.run, d)
	if opts.unref() {
		it.t.Unref()
	}
	it.stopAbort = it.signal.Watch(func(reason error) {
		l.ClearInterval(it.t)
		it.finished = true
		err := &nodeevents.AbortError{Cause: reason}
		if len(it.waiting) > 0 {
			w := it.waiting[0]
			it.waiting = it.waiting[1:]
			w.Reject(err)
			it.doneWaiting()
		} else {
			it.err = err
		}
	})
	return it
}

func (it *Interval[T]) run() {
	if len(it.waiting) > 0 {
		w := it.waiting[0]
		it.waiting = it.waiting[1:]
		w.Resolve(nodeevents.IterResult[T]{Value: it.value})
		return
	}
	it.notYielded++
}

// doneWaiting answers the Next calls still waiting with Done.
func (it *Interval[T]) doneWaiting() {
	waiting := it.waiting
	it.waiting = nil
	for _, w := range waiting {
		w.Resolve(nodeevents.IterResult[T]{Done: true})
	}
}

// Next returns a promise for the next value (or Done after Return).
func (it *Interval[T]) Next() *promise.Promise[nodeevents.IterResult[T]] {
	switch {
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
	it.waiting = append(it.waiting, r)
	return p
}

// Return clears the interval and ends the iteration; the Next calls waiting are Done.
func (it *Interval[T]) Return() *promise.Promise[nodeevents.IterResult[T]] {
	it.l.ClearInterval(it.t)
	if it.stopAbort != nil {
		it.stopAbort()
	}
	it.finished = true
	it.notYielded = 0
	it.doneWaiting()
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
