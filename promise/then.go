package promise

// Then returns a promise for the result of onFulfilled or onRejected, run as one microtask
// after p settles (Promises/A+ 2.2). A handler's error rejects the returned promise, a panic
// too; a nil handler passes p's outcome through (a value of type T passes to a U only if T
// is U, else the promise rejects with ErrTypeMismatch). Handlers of one promise run in the
// order they were registered, each in a microtask of its own.
func Then[T, U any](p *Promise[T], onFulfilled func(T) (U, error), onRejected func(error) (U, error)) *Promise[U] {
	j := &thenJob[T, U]{src: p, onF: onFulfilled, onR: onRejected}
	j.dst.rt = p.rt
	p.addReaction(j)
	return &j.dst
}

type thenJob[T, U any] struct {
	src *Promise[T]
	onF func(T) (U, error)
	onR func(error) (U, error)
	dst Promise[U]
}

func (j *thenJob[T, U]) run() {
	defer j.recoverPanic()
	src, dst := j.src, &j.dst
	var (
		v   U
		err error
	)
	if src.state == Fulfilled {
		if j.onF == nil {
			if pv, ok := any(&src.value).(*U); ok {
				dst.fulfill(*pv)
			} else {
				dst.reject(ErrTypeMismatch)
			}
			return
		}
		v, err = j.onF(src.value)
	} else {
		if j.onR == nil {
			dst.reject(src.Err())
			return
		}
		v, err = j.onR(src.Err())
	}
	if err != nil {
		dst.reject(err)
	} else {
		dst.fulfill(v)
	}
}

func (j *thenJob[T, U]) recoverPanic() {
	if v := recover(); v != nil {
		if v == unwinding {
			panic(v)
		}
		j.dst.reject(Reason(v))
	}
}

// Catch returns a promise for p's value, or for the result of onRejected if p rejects: Then
// with no onFulfilled.
func (p *Promise[T]) Catch(onRejected func(error) (T, error)) *Promise[T] {
	return Then(p, nil, onRejected)
}

// Chain is Then whose handlers return a Thenable for the result (a promise, or a foreign
// thenable), which the returned promise adopts, as when a JavaScript handler returns a
// thenable: that takes two more microtasks for a native promise. Returning the returned
// promise itself rejects it with ErrCycle, nil with ErrNilThenable. A nil handler passes the
// outcome through.
func Chain[T, U any](p *Promise[T], onFulfilled func(T) Thenable[U], onRejected func(error) Thenable[U]) *Promise[U] {
	j := &chainJob[T, U]{src: p, onF: onFulfilled, onR: onRejected}
	j.dst.rt = p.rt
	p.addReaction(j)
	return &j.dst
}

type chainJob[T, U any] struct {
	src *Promise[T]
	onF func(T) Thenable[U]
	onR func(error) Thenable[U]
	dst Promise[U]
}

func (j *chainJob[T, U]) run() {
	defer j.recoverPanic()
	src, dst := j.src, &j.dst
	var t Thenable[U]
	if src.state == Fulfilled {
		if j.onF == nil {
			if pv, ok := any(&src.value).(*U); ok {
				dst.fulfill(*pv)
			} else {
				dst.reject(ErrTypeMismatch)
			}
			return
		}
		t = j.onF(src.value)
	} else {
		if j.onR == nil {
			dst.reject(src.Err())
			return
		}
		t = j.onR(src.Err())
	}
	dst.adopt(t)
}

func (j *chainJob[T, U]) recoverPanic() {
	if v := recover(); v != nil {
		if v == unwinding {
			panic(v)
		}
		j.dst.reject(Reason(v))
	}
}

// Finally returns a promise with p's outcome, after onFinally has run and what it returned
// has settled (Promise.prototype.finally, with the same microtasks). onFinally may return nil
// when there is nothing to wait for. If what it returned rejects, or onFinally panics, the
// returned promise rejects with that reason instead.
func (p *Promise[T]) Finally(onFinally func() AnyPromise) *Promise[T] {
	if onFinally == nil {
		return Then[T, T](p, nil, nil)
	}
	rt := p.rt
	return Chain(p,
		func(v T) Thenable[T] { return finallyThen(rt, onFinally(), v, nil, false) },
		func(err error) Thenable[T] { return finallyThen(rt, onFinally(), *new(T), err, true) })
}

// finallyThen is PromiseResolve(result).then(() => value) or .then(() => { throw reason }).
func finallyThen[T any](rt *Runtime, result AnyPromise, v T, reason error, throw bool) *Promise[T] {
	var b *base
	if result != nil {
		b = result.core()
	} else {
		b = &newPromise[struct{}](rt).base
		b.state = Fulfilled
	}
	j := &finallyJob[T]{src: b, v: v, reason: reason, throw: throw}
	j.dst.rt = rt
	b.addReaction(j)
	return &j.dst
}

type finallyJob[T any] struct {
	src    *base
	v      T
	reason error
	throw  bool
	dst    Promise[T]
}

func (j *finallyJob[T]) run() {
	switch {
	case j.src.state == Rejected:
		j.dst.reject(j.src.Err())
	case j.throw:
		j.dst.reject(j.reason)
	default:
		j.dst.fulfill(j.v)
	}
}
