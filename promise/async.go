package promise

import (
	"iter"

	"github.com/uvgo/uvgo/internal/gocheck"
)

// unwinding is the panic value with which Await unwinds a suspended body when its scheduler
// closes; Async recovers it. Deferred functions of the body run, and an Await in them panics
// with it again.
var unwinding any = &unwindSignal{}

type unwindSignal struct{}

func (*unwindSignal) String() string { return "promise: async body unwound: the scheduler closed" }

// coro is one async body: it runs on a worker, a coroutine (iter.Pull) that the loop
// goroutine switches to in order to run the body up to its next Await, and that switches
// back there.
type coro struct {
	rt        *Runtime
	w         *worker // the worker it runs on, until it ends
	inJob     bool    // resumed by its resume job, which returns to the drain as soon as it yields
	unwound   bool    // its scheduler closed: Await panics with unwinding
	done      bool    // the body has returned or panicked
	lprev     *coro
	lnext     *coro
	resumeJob resumeJob
}

type resumeJob struct{ co *coro }

func (j *resumeJob) run(*base) {
	co := j.co
	co.inJob = true
	co.resume()
}

// resume switches to the body until its next Await or its end; at its end the worker goes
// back to the pool. The body that ran is no longer current even if it ended the goroutine
// (runtime.Goexit, raised again here): a later Await or InBody must not see it.
func (co *coro) resume() {
	rt := co.rt
	prev := rt.current
	rt.current = co
	defer func() { rt.current = prev }()
	co.w.next()
	if co.done {
		if co.lnext != nil {
			co.unlink()
		}
		w := co.w
		co.w = nil
		rt.putWorker(w)
	}
}

func (co *coro) link() {
	s := &co.rt.coros
	co.lprev, co.lnext = s.lprev, s
	s.lprev.lnext = co
	s.lprev = co
}

func (co *coro) unlink() {
	co.lprev.lnext = co.lnext
	co.lnext.lprev = co.lprev
	co.lprev, co.lnext = nil, nil
}

// unwind stops a suspended body: its Await panics with unwinding, its deferred functions run.
// Its worker ends with it.
func (co *coro) unwind() {
	co.unwound = true
	co.w.stop()
}

// worker is a coroutine that runs async bodies one after another, so that an Async call
// need not start a goroutine: between bodies it waits in its Runtime's pool.
type worker struct {
	next  func() (struct{}, bool)
	stop  func()
	yield func(struct{}) bool
	body  bodyRunner // the body to run when next resumes it idle
	idle  *worker    // the next one in the pool
}

// bodyRunner runs one async body to its end, recovering whatever it panics with.
type bodyRunner interface{ runBody() }

// maxIdleWorkers bounds the pool of a Runtime: workers beyond it end with their body.
const maxIdleWorkers = 32

func (w *worker) loop(yield func(struct{}) bool) {
	w.yield = yield
	for {
		b := w.body
		w.body = nil
		b.runBody()
		if !yield(struct{}{}) { // idle until the next body, or stopped
			return
		}
	}
}

// getWorker returns an idle worker, or a new one.
func (rt *Runtime) getWorker() *worker {
	if w := rt.idle; w != nil {
		rt.idle, w.idle = w.idle, nil
		rt.nIdle--
		return w
	}
	w := &worker{}
	if rt.goWorkers {
		sched := rt.sched
		w.next, w.stop = goPull(func(yield func(struct{}) bool) {
			if gocheck.Enabled { // the body may use its loop, as a coroutine may
				gocheck.Adopt(sched)
				defer gocheck.Disown(sched)
			}
			w.loop(yield)
		})
	} else {
		w.next, w.stop = iter.Pull(w.loop)
	}
	return w
}

// putWorker keeps w, whose body has ended, for the next Async call, if the Runtime will stop
// it when its scheduler closes (only a Closer's does) and the pool has room; else w ends.
func (rt *Runtime) putWorker(w *worker) {
	if rt.closed || !rt.pooling || rt.nIdle >= maxIdleWorkers {
		w.stop()
		return
	}
	w.idle, rt.idle = rt.idle, w
	rt.nIdle++
}

// stopWorkers ends the idle workers.
func (rt *Runtime) stopWorkers() {
	for rt.idle != nil {
		w := rt.idle
		rt.idle, w.idle = w.idle, nil
		rt.nIdle--
		w.stop()
	}
}

// Async runs body as a JavaScript async function does: synchronously, up to its first Await
// (which suspends it until the awaited promise has settled and one more microtask has run),
// and returns a promise for its result. An error from body rejects the promise, and so does a
// panic. Only one body runs at a time; it runs on a coroutine while the loop goroutine waits.
//
// A body suspended when its scheduler closes (a Closer) is unwound: Await panics with an
// unexported value, its deferred functions run, Async recovers it, and the promise stays
// pending. Do not recover that value in the body and carry on.
//
// The coroutine of a body that has ended waits for the next Async call of the same
// scheduler (up to 32 of them do, and only for a Closer, whose Close ends them), so that a
// call costs no new goroutine. A coroutine must resume with the thread-lock count it was
// made with: a body must not hold a runtime.LockOSThread of its own across an Await (a
// fatal error of the runtime), except on a ThreadLocker that locks, whose bodies run on
// goroutines.
func Async[T any](s Scheduler, body func() (T, error)) *Promise[T] {
	a := &asyncBody[T]{body: body}
	return a.start(RuntimeOf(s))
}

// AsyncPromise is Async whose body returns a thenable for its result, which the promise
// adopts: for a native promise that is two microtasks later than a body returning the value,
// as in V8.
func AsyncPromise[T any](s Scheduler, body func() (Thenable[T], error)) *Promise[T] {
	a := &asyncBody[T]{bodyT: body}
	return a.start(RuntimeOf(s))
}

type asyncBody[T any] struct {
	co    coro
	body  func() (T, error)
	bodyT func() (Thenable[T], error)
	p     Promise[T]
}

func (a *asyncBody[T]) start(rt *Runtime) *Promise[T] {
	a.p.rt = rt
	co := &a.co
	co.rt = rt
	co.resumeJob.co = co
	if rt.closed {
		a.p.reject(ErrClosed)
		return &a.p
	}
	if rt.owner != nil && !rt.owner.OnOwnThread() {
		rt.owner.RunOnOwnThread(func() { a.run(rt) })
		return &a.p
	}
	a.run(rt)
	return &a.p
}

// run starts the body on a worker: up to its first Await, or to its end.
func (a *asyncBody[T]) run(rt *Runtime) {
	co := &a.co
	co.w = rt.getWorker()
	co.w.body = a
	co.link()
	co.resume()
}

func (a *asyncBody[T]) runBody() {
	defer a.end()
	if a.body != nil {
		v, err := a.body()
		if err != nil {
			a.p.reject(err)
		} else {
			a.p.fulfill(v)
		}
		return
	}
	t, err := a.bodyT()
	if err != nil {
		a.p.reject(err)
	} else {
		a.p.adopt(t)
	}
}

func (a *asyncBody[T]) end() {
	a.co.done = true
	if v := recover(); v != nil && v != unwinding {
		a.p.reject(Reason(v))
	}
}

// Await suspends the Async body that calls it until p has settled, and returns p's value or
// reason, as JavaScript's await does: the body resumes in a microtask, so an Await of a
// settled promise costs exactly one microtask turn. It marks p handled. Outside an Async body
// of p's scheduler it returns ErrNotInAsync at once.
//
// To await a foreign thenable, await From(s, t): two turns, as in V8.
func Await[T any](p *Promise[T]) (T, error) {
	rt := p.rt
	co := rt.current
	if co == nil {
		var zero T
		return zero, ErrNotInAsync
	}
	if co.unwound {
		panic(unwinding)
	}
	if p.state != Pending && co.inJob && rt.jobs.Len() == 0 && rt.inspect != nil && !rt.inspect.JobsPending() {
		// The resumption would be the very next job of this drain: continue without the two
		// coroutine switches. Nothing can tell the difference.
		if p.state == Rejected && p.flags&flagHandled == 0 {
			rt.handledLate(&p.base)
		}
		p.flags |= flagHandled
		return p.Result()
	}
	// addReaction without handing p to the queue (the resumption does not need it), so
	// that a promise made only to be awaited can live on the body's stack.
	if p.state == Pending {
		p.addPending(&co.resumeJob)
	} else {
		p.markHandled()
		rt.enqueue(&co.resumeJob, nil)
	}
	co.inJob = false
	if !co.w.yield(struct{}{}) {
		co.unwound = true
		panic(unwinding)
	}
	return p.Result()
}
