// Package promise is Promises/A+ for Go on a single-threaded event loop, with Node.js v20's
// (V8's) scheduling: every reaction runs as one microtask on the loop, async bodies run
// synchronously up to their first Await, and unhandled rejections are tracked after the
// nextTick/microtask drain as Node does it.
//
// The package depends on one small interface, Scheduler, which *uvloop.Loop satisfies. Extra
// capabilities are discovered by type assertion on the scheduler (as io.Copy discovers
// io.WriterTo): Checkpointer (unhandled-rejection tracking), Holder (keep the loop alive while
// another goroutine will settle a promise), Poster (settle from another goroutine), Closer
// (unwind suspended async bodies when the loop closes), Failer (make Run return the error of
// an unhandled rejection) and JobInspector (a faster Await).
//
// # Promises
//
//	p := promise.New(loop, func(resolve func(int), reject func(error)) { resolve(1) })
//	q := promise.Then(p, func(v int) (string, error) { return strconv.Itoa(v), nil }, nil)
//	r := q.Catch(func(err error) (string, error) { return "recovered", nil })
//
// Then is a function because a Go method cannot add a type parameter. A handler returns a
// value and an error: a non-nil error rejects the derived promise, as a throw does in
// JavaScript; a panic in a handler or an executor rejects it too (a panic value that is not an
// error is wrapped in a *ValueError). A nil handler passes the outcome through, as a
// non-function handler does in JavaScript. Chain is Then whose handlers return a Thenable to
// adopt, which is JavaScript's handler returning whatever it likes: Value(v) for a plain
// value (no extra microtask turn, as Then), Fail(err) for a throw, or another promise or a
// foreign thenable. NewAdopting is New whose resolve takes the same, as JavaScript's
// executor's resolve adopts a promise or a thenable.
//
// Node-style callbacks (func(err error, v T), called once) convert both ways: Promisify,
// PromisifyErr, Promisify1 and Promisify2 are util.promisify, Callbackify is
// util.callbackify. Any's rejection is an *AggregateError with V8's message, "All promises
// were rejected".
//
// Resolution follows Promises/A+ 2.3 and ECMAScript's promise resolve functions: adopting a
// native promise or a foreign Thenable takes a NewPromiseResolveThenableJob (one microtask)
// that calls its Then, a promise resolved with itself is rejected with ErrCycle, and of the
// resolving functions handed to a thenable only the first call counts.
//
// # Microtask turns
//
// The turns match V8 (Node v20): a reaction to a settled promise runs one turn later; a
// handler returning a native promise settles the derived promise two turns after a handler
// returning a value; Finally takes the same turns as Promise.prototype.finally; the
// combinators settle in the turn of the reaction to the last (or first) input. Await of a
// settled native promise resumes the body one turn later, of a foreign thenable (through
// From) two; an async body that returns a native promise (AsyncPromise) settles its promise
// two turns later than one that returns a value.
//
// # Goroutines
//
// Everything in this package belongs to the goroutine that runs the scheduler's microtasks
// (the loop goroutine), except Remote's methods, Wait and WithContext, which say otherwise.
// Async bodies run on coroutines (iter.Pull) that the loop goroutine switches to and back
// from; only one of them runs at a time, while the loop goroutine waits, so a body may use the
// loop as if it ran on the loop goroutine. For a loop that locks its OS thread
// (uvloop.WithLockOSThread; see ThreadLocker) they run on goroutines instead, handed control
// the same way, since a coroutine must run with the thread-lock state it was made with.
package promise
