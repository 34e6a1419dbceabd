package nodeevents

import (
	"iter"

	"github.com/uvgo/uvgo/promise"
)

// Emitter is what Once and On listen to: an *EventEmitter, or any type that embeds one
// (nodenet's Socket and Server, AbortSignal, nodeprocess's Process).
type Emitter interface {
	On(event string, fn func(args ...any)) *Listener
	Once(event string, fn func(args ...any)) *Listener
	Off(event string, l *Listener) bool
}

// Options are the options of Once and On.
type Options struct {
	// Signal, if not nil, aborts the wait: the promise rejects (the iteration ends) with an
	// *AbortError whose Cause is the signal's reason.
	Signal *AbortSignal
	// Close (On only) names events that end the iteration, as Node's close option does.
	Close []string
}

// Once is Node's events.once: a promise for the arguments of the next event of e, as a
// slice. If event is not "error", an "error" event first rejects it with the error (the
// first argument; a value that is not an error is wrapped as promise.Reason wraps it).
// Either way the listeners it added are removed. The promise settles in the turns of
// Node's, whose events.once is an async function returning a new promise: two microtasks
// after the event. A signal aborted already rejects it at once.
func Once(s promise.Scheduler, e Emitter, event string, opts *Options) *promise.Promise[[]any] {
	var signal *AbortSignal
	if opts != nil {
		signal = opts.Signal
	}
	if err := signal.Err(); err != nil {
		return promise.Reject[[]any](s, err)
	}
	inner, r := promise.WithResolvers[[]any](s)
	var onEvent, onError *Listener
	stopAbort := func() bool { return false }
	onEvent = e.Once(event, func(args ...any) {
		if onError != nil {
			e.Off("error", onError)
		}
		stopAbort()
		r.Resolve(args)
	})
	if event != "error" {
		onError = e.Once("error", func(args ...any) {
			e.Off(event, onEvent)
			stopAbort()
			r.Reject(firstError(args))
		})
	}
	stopAbort = signal.Watch(func(reason error) {
		e.Off(event, onEvent)
		if onError != nil {
			e.Off("error", onError)
		}
		r.Reject(&AbortError{Cause: reason})
	})
	outer, ro := promise.WithResolvers[[]any](s)
	ro.Adopt(inner)
	return outer
}

func firstError(args []any) error {
	var v any
	if len(args) > 0 {
		v = args[0]
	}
	return promise.Reason(v)
}

// IterResult is one result of an async iterator: a value, or Done.
type IterResult[T any] struct {
	Value T
	Done  bool
}

// EventIterator is what On returns: Node's async iterator over an emitter's events. Each
// Next is a promise for the arguments of one event, events that came while nobody asked
// wait in order, and an "error" event (or the signal) ends it: the next Next rejects with
// the error, those after it are Done. Loop goroutine only.
type EventIterator struct {
	s       promise.Scheduler
	e       Emitter
	event   string
	signal  *AbortSignal
	listens []struct {
		name string
		l    *Listener
	}
	stopAbort func() bool
	events    [][]any                                 // unconsumed events
	waiting   []*promise.Resolvers[IterResult[[]any]] // unconsumed promises
	err       error                                   // for the next Next
	finished  bool
}

// On is Node's events.on: an async iterator over the events named event of e. Use Next
// from promise code, or All from an Async body, as JavaScript's for await. With a signal
// aborted already, the first Next rejects with an *AbortError (Node's on throws at once).
func On(s promise.Scheduler, e Emitter, event string, opts *Options) *EventIterator {
	it := &EventIterator{s: s, e: e, event: event}
	if opts != nil {
		it.signal = opts.Signal
	}
	if err := it.signal.Err(); err != nil {
		it.err, it.finished = err, true
		return it
	}
	it.listen(event, it.onEvent)
	if event != "error" {
		it.listen("error", func(args ...any) { it.fail(firstError(args)) })
	}
	if opts != nil {
		for _, name := range opts.Close {
			it.listen(name, func(...any) { it.Return() })
		}
	}
	it.stopAbort = it.signal.Watch(func(reason error) { it.fail(&AbortError{Cause: reason}) })
	return it
}

func (it *EventIterator) listen(name string, fn func(args ...any)) {
	it.listens = append(it.listens, struct {
		name string
		l    *Listener
	}{name, it.e.On(name, fn)})
}

func (it *EventIterator) onEvent(args ...any) {
	if len(it.waiting) > 0 {
		r := it.waiting[0]
		it.waiting = it.waiting[1:]
		r.Resolve(IterResult[[]any]{Value: args})
		return
	}
	it.events = append(it.events, args)
}

func (it *EventIterator) fail(err error) {
	it.finished = true
	if len(it.waiting) > 0 {
		r := it.waiting[0]
		it.waiting = it.waiting[1:]
		r.Reject(err)
	} else {
		it.err = err
	}
	it.Return()
}

// Next returns a promise for the next event's arguments (or Done).
func (it *EventIterator) Next() *promise.Promise[IterResult[[]any]] {
	if len(it.events) > 0 {
		v := it.events[0]
		it.events = it.events[1:]
		return promise.Resolve(it.s, IterResult[[]any]{Value: v})
	}
	if err := it.err; err != nil {
		it.err = nil
		return promise.Reject[IterResult[[]any]](it.s, err)
	}
	if it.finished {
		return promise.Resolve(it.s, IterResult[[]any]{Done: true})
	}
	p, r := promise.WithResolvers[IterResult[[]any]](it.s)
	it.waiting = append(it.waiting, r)
	return p
}

// Return ends the iteration (JavaScript's break out of for await): the listeners are
// removed and the promises waiting are Done. Events not consumed yet are still handed out.
func (it *EventIterator) Return() *promise.Promise[IterResult[[]any]] {
	for _, x := range it.listens {
		it.e.Off(x.name, x.l)
	}
	it.listens = nil
	if it.stopAbort != nil {
		it.stopAbort()
	}
	it.finished = true
	waiting := it.waiting
	it.waiting = nil
	for _, r := range waiting {
		r.Resolve(IterResult[[]any]{Done: true})
	}
	return promise.Resolve(it.s, IterResult[[]any]{Done: true})
}

// All is for await: inside a promise.Async body of the iterator's scheduler, it yields the
// arguments of each event, awaiting each; an error ends it, yielded as (nil, err). Leaving
// the range early calls Return. Outside an Async body it yields (nil,
// promise.ErrNotInAsync).
func (it *EventIterator) All() iter.Seq2[[]any, error] {
	return func(yield func([]any, error) bool) {
		for {
			r, err := promise.Await(it.Next())
			if err != nil {
				yield(nil, err)
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
