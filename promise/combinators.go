package promise

import (
	"fmt"
	"strings"
)

// All returns a promise for the values of ps, in order, once all of them are fulfilled, or
// for the first rejection (Promise.all). It settles in the microtask of the reaction to the
// input that decides it; with no input it is fulfilled at once with an empty slice.
func All[T any](s Scheduler, ps ...*Promise[T]) *Promise[[]T] {
	st := &allState[T]{remaining: len(ps)}
	st.p.rt = RuntimeOf(s)
	st.values = make([]T, len(ps))
	if len(ps) == 0 {
		st.p.fulfill(st.values)
		return &st.p
	}
	elems := make([]allElem[T], len(ps))
	for i, q := range ps {
		elems[i] = allElem[T]{st: st, src: q, i: i}
		q.addReaction(&elems[i])
	}
	return &st.p
}

type allState[T any] struct {
	p         Promise[[]T]
	values    []T
	remaining int
}

type allElem[T any] struct {
	st  *allState[T]
	src *Promise[T]
	i   int
}

func (e *allElem[T]) run() {
	st := e.st
	if e.src.state == Rejected {
		st.p.reject(e.src.err)
		return
	}
	st.values[e.i] = e.src.value
	if st.remaining--; st.remaining == 0 {
		st.p.fulfill(st.values)
	}
}

// Settlement is the outcome of one promise, as Promise.allSettled reports it.
type Settlement[T any] struct {
	State State // Fulfilled or Rejected
	Value T     // if fulfilled
	Err   error // if rejected
}

// AllSettled returns a promise for the outcomes of ps, in order, once all of them have
// settled (Promise.allSettled). It never rejects.
func AllSettled[T any](s Scheduler, ps ...*Promise[T]) *Promise[[]Settlement[T]] {
	st := &settledState[T]{remaining: len(ps)}
	st.p.rt = RuntimeOf(s)
	st.out = make([]Settlement[T], len(ps))
	if len(ps) == 0 {
		st.p.fulfill(st.out)
		return &st.p
	}
	elems := make([]settledElem[T], len(ps))
	for i, q := range ps {
		elems[i] = settledElem[T]{st: st, src: q, i: i}
		q.addReaction(&elems[i])
	}
	return &st.p
}

type settledState[T any] struct {
	p         Promise[[]Settlement[T]]
	out       []Settlement[T]
	remaining int
}

type settledElem[T any] struct {
	st  *settledState[T]
	src *Promise[T]
	i   int
}

func (e *settledElem[T]) run() {
	st := e.st
	st.out[e.i] = Settlement[T]{State: e.src.state, Value: e.src.value, Err: e.src.err}
	if st.remaining--; st.remaining == 0 {
		st.p.fulfill(st.out)
	}
}

// Race returns a promise that settles as the first of ps to settle does (Promise.race):
// with no input it stays pending.
func Race[T any](s Scheduler, ps ...*Promise[T]) *Promise[T] {
	p := newPromise[T](RuntimeOf(s))
	for _, q := range ps {
		q.addReaction(&raceElem[T]{dst: p, src: q})
	}
	return p
}

type raceElem[T any] struct {
	dst, src *Promise[T]
}

func (e *raceElem[T]) run() {
	if e.src.state == Fulfilled {
		e.dst.fulfill(e.src.value)
	} else {
		e.dst.reject(e.src.err)
	}
}

// AggregateError is the reason of Any when every input rejected: all their reasons, in input
// order.
type AggregateError struct {
	Errors []error
}

func (e *AggregateError) Error() string {
	if len(e.Errors) == 0 {
		return "promise: all promises were rejected (no promises)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "promise: all %d promises were rejected: ", len(e.Errors))
	for i, err := range e.Errors {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "[%d] %v", i, err)
	}
	return b.String()
}

// Unwrap returns the reasons, so errors.Is and errors.As look into each.
func (e *AggregateError) Unwrap() []error { return e.Errors }

// Any returns a promise for the first of ps to be fulfilled, or, when all of them reject,
// rejected with an *AggregateError listing every reason in input order (Promise.any). With
// no input it is rejected at once.
func Any[T any](s Scheduler, ps ...*Promise[T]) *Promise[T] {
	st := &anyState[T]{remaining: len(ps)}
	st.p.rt = RuntimeOf(s)
	st.errs = make([]error, len(ps))
	if len(ps) == 0 {
		st.p.reject(&AggregateError{Errors: st.errs})
		return &st.p
	}
	elems := make([]anyElem[T], len(ps))
	for i, q := range ps {
		elems[i] = anyElem[T]{st: st, src: q, i: i}
		q.addReaction(&elems[i])
	}
	return &st.p
}

type anyState[T any] struct {
	p         Promise[T]
	errs      []error
	remaining int
}

type anyElem[T any] struct {
	st  *anyState[T]
	src *Promise[T]
	i   int
}

func (e *anyElem[T]) run() {
	st := e.st
	if e.src.state == Fulfilled {
		st.p.fulfill(e.src.value)
		return
	}
	st.errs[e.i] = e.src.err
	if st.remaining--; st.remaining == 0 {
		st.p.reject(&AggregateError{Errors: st.errs})
	}
}
