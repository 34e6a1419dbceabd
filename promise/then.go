package promise

// Then returns a promise for the result of onFulfilled or onRejected, run as one microtask
// after p settles (Promises/A+ 2.2). A handler's error rejects the returned promise, a panic
// too; a nil handler passes p's outcome through (a value of type T passes to a U only if T
// is U, else the promise rejects with ErrTypeMismatch). Handlers of one promise run in the
// order they were registered, each in a microtask of its own.
func Then[T, U any](p *Promise[T], onFulfilled func(T) (U, error), onRejected func(error) (U, error)) *Promise[U] {
	// Three shapes, so that the common Then(p, f, nil) and Catch need no room for the
	// missing handler: with a promise of a word-sized value the job is 48 bytes, not 64.
	var (
		j   job
		dst *Promise[U]
	)
	core := base{rt: p.rt}
	switch {
	case onRejected == nil:
		jf := &onFulfilledJob[T, U]{onF: onFulfilled, dst: Promise[U]{base: core}}
		j, dst = jf, &jf.dst
	case onFulfilled == nil:
		jr := &onRejectedJob[T, U]{onR: onRejected, dst: Promise[U]{base: core}}
		j, dst = jr, &jr.dst
	default:
		jb := &thenJob[T, U]{onF: onFulfilled, onR: onRejected, dst: Promise[U]{base: core}}
		j, dst = jb, &jb.dst
	}
	p.addReaction(j)
	return dst
}

// thenJob is the reaction of Then with both handlers; onFulfilledJob and onRejectedJob
// have one (or none). Each is also the promise that Then returned.
type thenJob[T, U any] struct {
	onF func(T) (U, error)
	onR func(error) (U, error)
	dst Promise[U]
}

type onFulfilledJob[T, U any] struct {
	onF func(T) (U, error) // nil: pass through
	dst Promise[U]
}

type onRejectedJob[T, U any] struct {
	onR func(error) (U, error)
	dst Promise[U]
}

func (j *thenJob[T, U]) run(b *base) {
	defer recoverPanic(&j.dst)
	src := promiseOf[T](b)
	if src.state == Fulfilled {
		callFulfilled(src, &j.dst, j.onF)
	} else {
		callRejected(src, &j.dst, j.onR)
	}
}

func (j *onFulfilledJob[T, U]) run(b *base) {
	src := promiseOf[T](b)
	if src.state != Fulfilled {
		j.dst.reject(src.Err())
		return
	}
	defer recoverPanic(&j.dst)
	callFulfilled(src, &j.dst, j.onF)
}

func (j *onRejectedJob[T, U]) run(b *base) {
	src := promiseOf[T](b)
	if src.state == Fulfilled {
		passValue(src, &j.dst)
		return
	}
	defer recoverPanic(&j.dst)
	callRejected(src, &j.dst, j.onR)
}

// callFulfilled settles dst with onF(src's value), or with that value if onF is nil.
func callFulfilled[T, U any](src *Promise[T], dst *Promise[U], onF func(T) (U, error)) {
	if onF == nil {
		passValue(src, dst)
		return
	}
	if v, err := onF(src.value); err != nil {
		dst.reject(err)
	} else {
		dst.fulfill(v)
	}
}

// callRejected settles dst with onR(src's reason), or rejects it with that reason if onR is
// nil.
func callRejected[T, U any](src *Promise[T], dst *Promise[U], onR func(error) (U, error)) {
	if onR == nil {
		dst.reject(src.Err())
		return
	}
	if v, err := onR(src.Err()); err != nil {
		dst.reject(err)
	} else {
		dst.fulfill(v)
	}
}

// passValue fulfills dst with the value of src if a T is a U, else rejects it with
// ErrTypeMismatch.
func passValue[T, U any](src *Promise[T], dst *Promise[U]) {
	if pv, ok := any(&src.value).(*U); ok {
		dst.fulfill(*pv)
	} else {
		dst.reject(ErrTypeMismatch)
	}
}

// recoverPanic rejects dst with a recovered panic; the value that unwinds a suspended async
// body passes through.
func recoverPanic[U any](dst *Promise[U]) {
	if v := recover(); v != nil {
		if v == unwinding {
			panic(v)
		}
		dst.reject(Reason(v))
	}
}

// Catch returns a promise for p's value, or for the result of onRejected if p rejects: Then
// with no onFulfilled.
func (p *Promise[T]) Catch(onRejected func(error) (T, error)) *Promise[T] {
	return Then(p, nil, onRejected)
}

// Chain is Then whose handlers return a Thenable for the result, which the returned promise
// adopts, as a JavaScript handler's return value is resolved: so one handler may return a
// plain value (Value(v): the returned promise is fulfilled in the handler's own microtask
// turn, as with Then), an error (Fail(err), as a throw), or a promise or a foreign thenable
// (adopted: two more turns for a native promise, as in V8) — the caller need not choose
// between Then and Chain. Returning the returned promise itself rejects it with ErrCycle, nil
// with ErrNilThenable. A nil handler passes the outcome through.
func Chain[T, U any](p *Promise[T], onFulfilled func(T) Thenable[U], onRejected func(error) Thenable[U]) *Promise[U] {
	j := &chainJob[T, U]{onF: onFulfilled, onR: onRejected}
	j.dst.rt = p.rt
	p.addReaction(j)
	return &j.dst
}

type chainJob[T, U any] struct {
	onF func(T) Thenable[U]
	onR func(error) Thenable[U]
	dst Promise[U]
}

func (j *chainJob[T, U]) run(b *base) {
	defer recoverPanic(&j.dst)
	src, dst := promiseOf[T](b), &j.dst
	var t Thenable[U]
	if src.state == Fulfilled {
		if j.onF == nil {
			passValue(src, dst)
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
	j := &finallyJob[T]{v: v, reason: reason, throw: throw}
	j.dst.rt = rt
	b.addReaction(j)
	return &j.dst
}

type finallyJob[T any] struct {
	v      T
	reason error
	throw  bool
	dst    Promise[T]
}

func (j *finallyJob[T]) run(src *base) {
	switch {
	case src.state == Rejected:
		j.dst.reject(src.Err())
	case j.throw:
		j.dst.reject(j.reason)
	default:
		j.dst.fulfill(j.v)
	}
}
