package promise

import "reflect"

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
// before it run first), else from the reaction itself. A reason that is JavaScript's falsy
// value (a *ValueError of nil, false, a zero number, NaN or "": Reject(nil), panic(0)) reaches
// cb as a *FalsyValueRejectionError, as Node's ERR_FALSY_VALUE_REJECTION. It counts as a
// handler of p.
func Callbackify[T any](p *Promise[T], cb func(err error, v T)) {
	call := func() {
		v, err := p.Result()
		if ve, ok := err.(*ValueError); ok && falsy(ve.Value) {
			err = &FalsyValueRejectionError{Reason: ve.Value, err: ve}
		}
		cb(err, v)
	}
	if t, ok := p.rt.sched.(Ticker); ok {
		p.addReaction(funcJob(func() { t.NextTick(call) }))
		return
	}
	p.addReaction(funcJob(call))
}

// FalsyValueRejectionError is the error Callbackify's callback gets for a promise rejected
// with a falsy value (Node's ERR_FALSY_VALUE_REJECTION), so that the callback never sees an
// error it could take for success. Reason is the value; the error unwraps to the
// *ValueError the promise was rejected with.
type FalsyValueRejectionError struct {
	Reason any
	err    error
}

func (e *FalsyValueRejectionError) Error() string { return "Promise was rejected with falsy value" }

// Unwrap returns the promise's reason, a *ValueError.
func (e *FalsyValueRejectionError) Unwrap() error { return e.err }

// Name is the error's name, as Node prints it ("Error").
func (e *FalsyValueRejectionError) Name() string { return "Error" }

// Code is Node's error code, "ERR_FALSY_VALUE_REJECTION".
func (e *FalsyValueRejectionError) Code() string { return "ERR_FALSY_VALUE_REJECTION" }

// falsy reports whether v is what JavaScript counts false: nil, false, a zero number, NaN or
// "".
func falsy(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return !rv.Bool()
	case reflect.String:
		return rv.Len() == 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return rv.Uint() == 0
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		return f == 0 || f != f
	}
	return false
}
