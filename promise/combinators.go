package promise

// The combinators react to every input as Promise.all and the others do, one microtask per
// input, with one shortcut that nothing can observe: the reactions to the inputs that have
// already settled (of the same scheduler) would be queued back to back while the combinator
// runs, with nothing between them, and run before any reaction to a pending input. They are
// one job here, queued where the last of them would be, which does what they would have
// done in order: one microtask for a thousand settled inputs instead of a thousand.

// All returns a promise for the values of ps, in order, once all of them are fulfilled, or
// for the first rejection (Promise.all). It settles in the microtask of the reaction to the
// input that decides it; with no input it is fulfilled at once with an empty slice.
func All[T any](s Scheduler, ps ...*Promise[T]) *Promise[[]T] {
	rt := RuntimeOf(s)
	st := &allState[T]{remaining: len(ps)}
	st.p.rt = rt
	st.values = make([]T, len(ps))
	if len(ps) == 0 {
		st.p.fulfill(st.values)
		return &st.p
	}
	var elems []allElem[T]
	for i, q := range ps {
		if q.state == Pending || q.rt != rt {
			if elems == nil {
				elems = make([]allElem[T], 0, len(ps)-i)
			}
			elems = append(elems, allElem[T]{st: st, i: i})
			q.addReaction(&elems[len(elems)-1])
			continue
		}
		q.markHandled()
		st.settled++
		if q.state == Fulfilled {
			st.values[i] = q.value
		} else if st.reason == nil {
			st.reason = q.x.(error)
		}
	}
	if st.settled > 0 {
		rt.enqueue(st, nil)
	}
	return &st.p
}

type allState[T any] struct {
	p         Promise[[]T]
	values    []T
	remaining int
	settled   int   // inputs settled when All was called: their reactions are this job
	reason    error // the first of them to be rejected, if any
}

// run is the reactions to the inputs that had settled when All was called.
func (st *allState[T]) run(*base) {
	if st.reason != nil {
		st.p.reject(st.reason)
		return
	}
	if st.remaining -= st.settled; st.remaining == 0 {
		st.p.fulfill(st.values)
	}
}

type allElem[T any] struct {
	st *allState[T]
	i  int
}

func (e *allElem[T]) run(b *base) {
	st, src := e.st, promiseOf[T](b)
	if src.state == Rejected {
		st.p.reject(src.Err())
		return
	}
	st.values[e.i] = src.value
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
	rt := RuntimeOf(s)
	st := &settledState[T]{remaining: len(ps)}
	st.p.rt = rt
	st.out = make([]Settlement[T], len(ps))
	if len(ps) == 0 {
		st.p.fulfill(st.out)
		return &st.p
	}
	var elems []settledElem[T]
	for i, q := range ps {
		if q.state == Pending || q.rt != rt {
			if elems == nil {
				elems = make([]settledElem[T], 0, len(ps)-i)
			}
			elems = append(elems, settledElem[T]{st: st, i: i})
			q.addReaction(&elems[len(elems)-1])
			continue
		}
		q.markHandled()
		st.settled++
		st.out[i] = Settlement[T]{State: q.state, Value: q.value, Err: q.Err()}
	}
	if st.settled > 0 {
		rt.enqueue(st, nil)
	}
	return &st.p
}

type settledState[T any] struct {
	p         Promise[[]Settlement[T]]
	out       []Settlement[T]
	remaining int
	settled   int // inputs settled when AllSettled was called: their reactions are this job
}

func (st *settledState[T]) run(*base) {
	if st.remaining -= st.settled; st.remaining == 0 {
		st.p.fulfill(st.out)
	}
}

type settledElem[T any] struct {
	st *settledState[T]
	i  int
}

func (e *settledElem[T]) run(b *base) {
	st, src := e.st, promiseOf[T](b)
	st.out[e.i] = Settlement[T]{State: src.state, Value: src.value, Err: src.Err()}
	if st.remaining--; st.remaining == 0 {
		st.p.fulfill(st.out)
	}
}

// Race returns a promise that settles as the first of ps to settle does (Promise.race):
// with no input it stays pending.
func Race[T any](s Scheduler, ps ...*Promise[T]) *Promise[T] {
	rt := RuntimeOf(s)
	p := newPromise[T](rt)
	var first *Promise[T] // the first input that had settled, whose reaction decides
	for _, q := range ps {
		if q.state != Pending && q.rt == rt {
			first = q
			break
		}
	}
	e := &raceElem[T]{dst: p} // one reaction for every input: it runs with its input
	if first == nil {
		for _, q := range ps {
			q.addReaction(e)
		}
		return p
	}
	// The reactions to the other inputs of this scheduler would do nothing: mark them
	// handled, as those reactions would.
	for _, q := range ps {
		switch {
		case q.rt != rt:
			q.addReaction(e)
		case q.state == Pending:
			q.flags |= flagHandled
		default:
			q.markHandled()
		}
	}
	rt.enqueue(e, &first.base)
	return p
}

type raceElem[T any] struct {
	dst *Promise[T]
}

func (e *raceElem[T]) run(b *base) {
	src := promiseOf[T](b)
	if src.state == Fulfilled {
		e.dst.fulfill(src.value)
	} else {
		e.dst.reject(src.Err())
	}
}

// AggregateError is the reason of Any when every input rejected: all their reasons, in input
// order. Its message is V8's, "All promises were rejected"; the reasons are in Errors.
type AggregateError struct {
	Errors []error
}

func (e *AggregateError) Error() string { return "All promises were rejected" }

// Name is the error's name, as JavaScript's err.name: "AggregateError" (nodeprocess prints an
// uncaught error with it).
func (e *AggregateError) Name() string { return "AggregateError" }

// Unwrap returns the reasons, so errors.Is and errors.As look into each.
func (e *AggregateError) Unwrap() []error { return e.Errors }

// Any returns a promise for the first of ps to be fulfilled, or, when all of them reject,
// rejected with an *AggregateError listing every reason in input order (Promise.any). With
// no input it is rejected at once.
func Any[T any](s Scheduler, ps ...*Promise[T]) *Promise[T] {
	rt := RuntimeOf(s)
	st := &anyState[T]{remaining: len(ps)}
	st.p.rt = rt
	st.errs = make([]error, len(ps))
	if len(ps) == 0 {
		st.p.reject(&AggregateError{Errors: st.errs})
		return &st.p
	}
	var elems []anyElem[T]
	for i, q := range ps {
		if q.state == Pending || q.rt != rt {
			if elems == nil {
				elems = make([]anyElem[T], 0, len(ps)-i)
			}
			elems = append(elems, anyElem[T]{st: st, i: i})
			q.addReaction(&elems[len(elems)-1])
			continue
		}
		q.markHandled()
		st.settled++
		if q.state == Rejected {
			st.errs[i] = q.x.(error)
		} else if !st.won {
			st.won, st.value = true, q.value
		}
	}
	if st.settled > 0 {
		rt.enqueue(st, nil)
	}
	return &st.p
}

type anyState[T any] struct {
	p         Promise[T]
	errs      []error
	remaining int
	settled   int  // inputs settled when Any was called: their reactions are this job
	won       bool // one of them was fulfilled, the first with value
	value     T
}

func (st *anyState[T]) run(*base) {
	if st.won {
		st.p.fulfill(st.value)
		return
	}
	if st.remaining -= st.settled; st.remaining == 0 {
		st.p.reject(&AggregateError{Errors: st.errs})
	}
}

type anyElem[T any] struct {
	st *anyState[T]
	i  int
}

func (e *anyElem[T]) run(b *base) {
	st, src := e.st, promiseOf[T](b)
	if src.state == Fulfilled {
		st.p.fulfill(src.value)
		return
	}
	st.errs[e.i] = src.Err()
	if st.remaining--; st.remaining == 0 {
		st.p.reject(&AggregateError{Errors: st.errs})
	}
}
