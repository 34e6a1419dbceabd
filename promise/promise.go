package promise

import (
	"errors"
	"fmt"
	"unsafe"
)

// State is the state of a promise.
type State uint8

const (
	Pending   State = iota // neither fulfilled nor rejected yet
	Fulfilled              // settled with a value
	Rejected               // settled with an error
)

func (s State) String() string {
	switch s {
	case Pending:
		return "pending"
	case Fulfilled:
		return "fulfilled"
	case Rejected:
		return "rejected"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Sentinel errors.
var (
	// ErrCycle rejects a promise resolved with itself (Promises/A+ 2.3.1; V8's "Chaining
	// cycle detected for promise").
	ErrCycle = errors.New("promise: chaining cycle detected: a promise was resolved with itself")
	// ErrNilThenable rejects a promise resolved with a nil Thenable.
	ErrNilThenable = errors.New("promise: resolved with a nil thenable")
	// ErrNotInAsync is returned by Await outside an Async body of the promise's scheduler.
	ErrNotInAsync = errors.New("promise: Await outside an async body")
	// ErrTypeMismatch rejects the promise of Then with a nil onFulfilled when the value of
	// type T cannot pass through as a U.
	ErrTypeMismatch = errors.New("promise: value cannot pass through to a different type")
	// ErrClosed is returned when the scheduler is closed (a Remote settles too late, say).
	ErrClosed = errors.New("promise: scheduler closed")
	// ErrNoPoster is returned by the cross-goroutine helpers when the scheduler cannot Post.
	ErrNoPoster = errors.New("promise: scheduler cannot Post from other goroutines")
)

// ValueError is the reason of a rejection with something that is not an error: a panic with
// a non-error value, or Reject(nil). Nothing is lost: Value is what was given.
type ValueError struct {
	Value any
}

func (e *ValueError) Error() string {
	if e.Value == nil {
		return "promise: rejected with nil"
	}
	return fmt.Sprintf("promise: rejected with %T: %v", e.Value, e.Value)
}

// Reason turns any value into a rejection reason: an error as it is, anything else (nil
// included) wrapped in a *ValueError.
func Reason(v any) error {
	if err, ok := v.(error); ok && err != nil {
		return err
	}
	return &ValueError{Value: v}
}

// AnyPromise is a *Promise[T] of any T, for code that only cares about the outcome: the
// rejection hook, Finally's wait. It is implemented by *Promise[T] only.
type AnyPromise interface {
	State() State
	Err() error
	core() *base
}

// Thenable is anything a promise can adopt (Promises/A+ 2.3.3): a *Promise[T] or a foreign
// implementation. Then is called at most once per adoption, in a microtask of its own, with
// fresh resolving functions: of their calls only the first counts, and a panic in Then after
// one of them was called is ignored; before, it rejects.
type Thenable[T any] interface {
	Then(r *Resolvers[T])
}

// flags of a promise
const (
	flagHandled uint8 = 1 << iota // has or had a reaction (V8's has_handler)
	flagLocked                    // its own resolving functions were used (alreadyResolved)
	flagTracked                   // in the maybe-unhandled set
	flagWarned                    // reported as unhandled
)

// base is the part of a promise that does not depend on T. It is 32 bytes: the reactions of
// a pending promise and the reason of a rejected one share x, since a promise never needs
// both.
type base struct {
	rt    *Runtime
	state State
	flags uint8
	// x is, while pending, the reactions: nil, one job (most promises have at most one), or
	// a *reactionList; once rejected, the reason (a non-nil error); once fulfilled, nil.
	x any
}

// reactionList holds the reactions of a promise that has more than one, in registration
// order. It is not a job.
type reactionList struct{ js []job }

// Promise is a Promises/A+ promise with a value of type T or an error. The zero value is not
// usable: make promises with New, Resolve, Reject, WithResolvers, Then and the rest. Loop
// goroutine only (see Wait and Remote for other goroutines).
type Promise[T any] struct {
	base
	value T
}

func (b *base) core() *base { return b }

// promiseOf returns the *Promise[T] whose base b is. Every base is the first field of a
// Promise[T] (nothing else embeds or makes one), and a reaction runs with the base of the
// promise it was added to, whose T it knows: so the conversion is exact.
func promiseOf[T any](b *base) *Promise[T] {
	return (*Promise[T])(unsafe.Pointer(b))
}

// State reports whether p is pending, fulfilled or rejected.
func (b *base) State() State { return b.state }

// Err returns the reason of a rejected promise, else nil.
func (b *base) Err() error {
	if b.state == Rejected {
		return b.x.(error)
	}
	return nil
}

// Value returns the value of a fulfilled promise, else the zero value.
func (p *Promise[T]) Value() T { return p.value }

// Result returns the value and the error: (v, nil) once fulfilled, (zero, reason) once
// rejected, (zero, nil) while pending.
func (p *Promise[T]) Result() (T, error) {
	if p.state == Rejected {
		return p.value, p.x.(error)
	}
	return p.value, nil
}

func (p *Promise[T]) String() string {
	switch p.state {
	case Fulfilled:
		return fmt.Sprintf("Promise{fulfilled: %v}", p.value)
	case Rejected:
		return fmt.Sprintf("Promise{rejected: %v}", p.Err())
	}
	return "Promise{pending}"
}

// addReaction registers j to run (as a microtask) once b settles, or queues it now if b has
// settled; it marks b handled, reporting a rejection handled late.
func (b *base) addReaction(j job) {
	if b.state == Pending {
		b.addPending(j)
		return
	}
	b.markHandled()
	b.rt.enqueue(j, b)
}

// addPending is addReaction for a pending b.
func (b *base) addPending(j job) {
	switch x := b.x.(type) {
	case nil:
		b.x = j
	case *reactionList:
		x.js = append(x.js, j)
	default:
		b.x = &reactionList{js: []job{x.(job), j}}
	}
	b.flags |= flagHandled
}

// markHandled marks b handled (V8's has_handler), reporting a rejection handled late.
func (b *base) markHandled() {
	if b.flags&flagHandled == 0 {
		if b.state == Rejected {
			b.rt.handledLate(b)
		}
		b.flags |= flagHandled
	}
}

// settle records the outcome of a pending promise (x: nil, or the reason) and queues its
// reactions, in registration order.
func (b *base) settle(state State, x any) {
	rs := b.x
	b.x = x
	b.state = state
	switch rs := rs.(type) {
	case nil:
	case *reactionList:
		for _, j := range rs.js {
			b.rt.enqueue(j, b)
		}
	default:
		b.rt.enqueue(rs.(job), b)
	}
}

func (p *Promise[T]) fulfill(v T) {
	if p.state != Pending {
		return
	}
	p.value = v
	p.settle(Fulfilled, nil)
}

func (p *Promise[T]) reject(err error) { p.base.reject(err, p) }

func (b *base) reject(err error, owner AnyPromise) {
	if b.state != Pending {
		return
	}
	if err == nil {
		err = &ValueError{}
	}
	if b.flags&flagHandled == 0 {
		// no reactions: record the reason first, so that the tracker sees a rejected promise
		b.x = err
		b.state = Rejected
		b.rt.unhandled(b, owner)
		return
	}
	b.settle(Rejected, err)
}

func newPromise[T any](rt *Runtime) *Promise[T] {
	return &Promise[T]{base: base{rt: rt}}
}

// New returns a promise and runs executor synchronously with its resolving functions, as
// JavaScript's new Promise does. Only the first call of resolve or reject counts; a panic in
// executor rejects the promise, unless it was resolved before.
func New[T any](s Scheduler, executor func(resolve func(T), reject func(error))) (p *Promise[T]) {
	p = newPromise[T](RuntimeOf(s))
	r := &Resolvers[T]{p: p, own: true}
	defer r.recoverInto()
	executor(r.Resolve, r.Reject)
	return p
}

// NewAdopting is New whose resolve takes a Thenable, as JavaScript's resolve takes any
// value: resolve(Value(v)) fulfills the promise with v at once (no extra microtask turn),
// resolve(Fail(err)) rejects it, and resolve(q) with a promise or a foreign thenable adopts
// it through a microtask that calls its Then (V8's NewPromiseResolveThenableJob: a native
// promise settles the new one two turns after its own settlement). Only the first call of
// resolve or reject counts; a panic in executor rejects the promise, unless it was resolved
// before.
func NewAdopting[T any](s Scheduler, executor func(resolve func(Thenable[T]), reject func(error))) (p *Promise[T]) {
	p = newPromise[T](RuntimeOf(s))
	r := &Resolvers[T]{p: p, own: true}
	defer r.recoverInto()
	executor(r.Adopt, r.Reject)
	return p
}

// Value returns v as a Thenable that adopting settles at once: given to NewAdopting's
// resolve, Resolvers.Adopt, From or returned from a Chain handler, it fulfills the promise
// with v in the same microtask turn, as a plain value given to a JavaScript resolve or
// returned from a handler does. Its Then, called by anything else, resolves with v.
func Value[T any](v T) Thenable[T] { return &settledThenable[T]{v: v} }

// Fail returns err as a Thenable that adopting rejects at once, with no extra microtask
// turn, as a throw does in a JavaScript executor or handler (nil becomes a *ValueError).
func Fail[T any](err error) Thenable[T] { return &settledThenable[T]{err: Reason(err), failed: true} }

// settledThenable is what Value and Fail return.
type settledThenable[T any] struct {
	v      T
	err    error
	failed bool
}

func (s *settledThenable[T]) Then(r *Resolvers[T]) {
	if s.failed {
		r.Reject(s.err)
	} else {
		r.Resolve(s.v)
	}
}

// Resolve returns a promise fulfilled with v (Promise.resolve of a non-thenable).
func Resolve[T any](s Scheduler, v T) *Promise[T] {
	return &Promise[T]{base: base{rt: RuntimeOf(s), state: Fulfilled}, value: v}
}

// Reject returns a promise rejected with err (a nil err becomes a *ValueError). Like
// JavaScript's Promise.reject, it counts as an unhandled rejection unless a handler is added
// before the next checkpoint.
func Reject[T any](s Scheduler, err error) *Promise[T] {
	p := newPromise[T](RuntimeOf(s))
	p.reject(err)
	return p
}

// From returns a promise for t, as Promise.resolve(t) does: t itself if it is a promise of
// this scheduler, else a new promise that adopts t (one microtask to call t.Then).
func From[T any](s Scheduler, t Thenable[T]) *Promise[T] {
	rt := RuntimeOf(s)
	if p, ok := t.(*Promise[T]); ok && p != nil && p.rt == rt {
		return p
	}
	p := newPromise[T](rt)
	(&Resolvers[T]{p: p, own: true}).Adopt(t)
	return p
}

// WithResolvers returns a pending promise and its resolving functions (ES2024's
// Promise.withResolvers).
func WithResolvers[T any](s Scheduler) (*Promise[T], *Resolvers[T]) {
	p := newPromise[T](RuntimeOf(s))
	return p, &Resolvers[T]{p: p, own: true}
}

// Resolvers are the resolving functions of one promise: of all calls of Resolve, Adopt and
// Reject on one Resolvers (for the promise's own resolvers: on all of them) only the first
// counts. Loop goroutine only.
type Resolvers[T any] struct {
	p    *Promise[T]
	own  bool // the promise's own resolving functions: the flag lives in the promise
	done bool // alreadyResolved, for the functions handed to a thenable
}

// Promise returns the promise these functions resolve.
func (r *Resolvers[T]) Promise() *Promise[T] { return r.p }

func (r *Resolvers[T]) lock() bool {
	if r.own {
		if r.p.flags&flagLocked != 0 {
			return false
		}
		r.p.flags |= flagLocked
		return true
	}
	if r.done {
		return false
	}
	r.done = true
	return true
}

// Resolve fulfills the promise with v.
func (r *Resolvers[T]) Resolve(v T) {
	if r.lock() {
		r.p.fulfill(v)
	}
}

// Reject rejects the promise with err (nil becomes a *ValueError).
func (r *Resolvers[T]) Reject(err error) {
	if r.lock() {
		r.p.reject(err)
	}
}

// Adopt resolves the promise with a thenable (Promises/A+ 2.3): the promise itself rejects it
// with ErrCycle, nil with ErrNilThenable, Value and Fail settle it at once; anything else is
// adopted through a microtask that calls its Then (V8's NewPromiseResolveThenableJob).
func (r *Resolvers[T]) Adopt(t Thenable[T]) {
	if !r.lock() {
		return
	}
	r.p.adopt(t)
}

func (p *Promise[T]) adopt(t Thenable[T]) {
	if t == nil {
		p.reject(ErrNilThenable)
		return
	}
	if st, ok := t.(*settledThenable[T]); ok && st != nil {
		if st.failed {
			p.reject(st.err)
		} else {
			p.fulfill(st.v)
		}
		return
	}
	if q, ok := t.(*Promise[T]); ok {
		if q == p {
			p.reject(ErrCycle)
			return
		}
		if q == nil {
			p.reject(ErrNilThenable)
			return
		}
	}
	p.rt.enqueue(&thenableJob[T]{p: p, t: t}, nil)
}

// thenableJob is V8's NewPromiseResolveThenableJob: it calls t.Then with fresh resolving
// functions for p.
type thenableJob[T any] struct {
	p *Promise[T]
	t Thenable[T]
	r Resolvers[T]
}

func (j *thenableJob[T]) run(*base) {
	j.r.p = j.p
	defer j.r.recoverInto()
	j.t.Then(&j.r)
}

// recoverInto rejects the promise with a recovered panic unless a resolving function was
// called already (then the panic is ignored, Promises/A+ 2.3.3.3.4.1). The value that
// unwinds a suspended async body passes through.
func (r *Resolvers[T]) recoverInto() {
	if v := recover(); v != nil {
		if v == unwinding {
			panic(v)
		}
		r.Reject(Reason(v))
	}
}

// Then makes p, a native promise, a Thenable: r settles as p does. Adopting a native promise
// therefore takes two microtasks, as in V8: the job that calls Then, and the reaction.
func (p *Promise[T]) Then(r *Resolvers[T]) {
	p.addReaction(&forwardJob[T]{r: r})
}

type forwardJob[T any] struct {
	r *Resolvers[T]
}

func (j *forwardJob[T]) run(b *base) {
	if src := promiseOf[T](b); src.state == Fulfilled {
		j.r.Resolve(src.value)
	} else {
		j.r.Reject(src.Err())
	}
}
