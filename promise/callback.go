package promise

// Node-style callbacks: the last argument is a func(err error, value T) called once, with a
// non-nil err on failure. Promisify and its variants turn such a call into a promise, as
// Node's util.promisify does; Callbackify goes the other way, as util.callbackify.

// Ticker is a Scheduler with Node's nextTick queue (*uvloop.Loop is one). Callbackify calls
// back from it, as Node's util.callbackify does.
type Ticker interface {
	NextTick(fn func())
}

// Promisify calls fn at once with a Node-style callback and returns a promise that the
// callback's first call settles, in that call: rejected with err if it is not nil, else
// fulfilled with v (later calls are ignored). A panic in fn before the callback was called
// rejects the promise, as a throw in the original function does under util.promisify.
func Promisify[T any](s Scheduler, fn func(cb func(err error, v T))) (p *Promise[T]) {
	p = newPromise[T](RuntimeOf(s))
	r := &Resolvers[T]{p: p, own: true}
	defer r.recoverInto()
	fn(func(err error, v T) {
		if err != nil {
			r.Reject(err)
		} else {
			r.Resolve(v)
		}
	})
	return p
}

// PromisifyErr is Promisify for a callback that gets only an error (fs.writeFile's, say):
// the promise is fulfilled with struct{}{} when err is nil.
func PromisifyErr(s Scheduler, fn func(cb func(err error))) *Promise[struct{}] {
	return Promisify(s, func(cb func(error, struct{})) {
		fn(func(err error) { cb(err, struct{}{}) })
	})
}

// Promisify1 is util.promisify(fn) for a function of one argument and a Node-style
// callback: each call of the function it returns calls fn and returns a promise for what
// the callback gets.
func Promisify1[A, T any](s Scheduler, fn func(a A, cb func(err error, v T))) func(A) *Promise[T] {
	return func(a A) *Promise[T] {
		return Promisify(s, func(cb func(error, T)) { fn(a, cb) })
	}
}

// Promisify2 is Promisify1 for a function of two arguments and a Node-style callback.
func Promisify2[A, B, T any](s Scheduler, fn func(a A, b B, cb func(err error, v T))) func(A, B) *Promise[T] {
	return func(a A, b B) *Promise[T] {
		return Promisify(s, func(cb func(error, T)) { fn(a, b, cb) })
	}
}

// Callbackify calls cb(nil, v) once p is fulfilled with v, or cb(err, zero) once it is
// rejected, as util.callbackify does: from a nextTick queued by the reaction to p when p's
// scheduler is a Ticker (so a panic in cb is not a rejection, and the microtasks queued
// before it run first), else from the reaction itself. It counts as a handler of p.
func Callbackify[T any](p *Promise[T], cb func(err error, v T)) {
	call := func() {
		v, err := p.Result()
		cb(err, v)
	}
	if t, ok := p.rt.sched.(Ticker); ok {
		p.addReaction(funcJob(func() { t.NextTick(call) }))
		return
	}
	p.addReaction(funcJob(call))
}
