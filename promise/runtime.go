package promise

import (
	"io"
	"log/slog"
	"sync"

	"github.com/uvgo/uvgo/internal/queue"
)

// Scheduler queues microtasks: functions that run one at a time, in the order they were
// queued, on the goroutine that owns the scheduler (for *uvloop.Loop, in the microtask
// checkpoint after the current callback). Every reaction of a promise is one microtask.
type Scheduler interface {
	QueueMicrotask(fn func())
}

// Checkpointer is a Scheduler that can run a function after each microtask checkpoint that
// leaves the nextTick queue empty, where Node processes unhandled rejections.
// RequestCheckpoint asks for a checkpoint after the current callback even if no microtask is
// queued. Without it, unhandled rejections are not tracked.
type Checkpointer interface {
	AddCheckpoint(fn func() bool)
	RequestCheckpoint()
}

// Holder is a Scheduler that can be kept alive until release is called (on the scheduler's
// goroutine). Remote uses it so that a loop does not end while a promise waits for another
// goroutine.
type Holder interface {
	Hold() (release func())
}

// Poster is a Scheduler that can run fn on its goroutine when called from any other.
type Poster interface {
	Post(fn func()) error
}

// Closer is a Scheduler that runs fn when it is closed. The package unwinds suspended Async
// bodies there, so that no coroutine outlives the loop.
type Closer interface {
	OnClose(fn func())
}

// ThreadLocker is a Scheduler whose goroutine may lock its OS thread for part of its life:
// LocksOSThread reports whether it does (a *uvloop.Loop WithLockOSThread locks it while Run
// runs, and each Run may be on another thread). The runtime lets a coroutine run only with
// the thread-lock state it was made with, so for such a scheduler the package runs Async
// bodies on goroutines instead of coroutines (iter.Pull), with a channel hand-off where a
// coroutine switches. That is slow: each hand-off wakes the loop's locked thread, and an Await
// that suspends was measured at about 38 µs, against 1.5 µs on an unlocked loop's coroutines.
type ThreadLocker interface {
	LocksOSThread() bool
}

// ThreadOwner is a Scheduler that may have an OS thread of its own for its whole life (a
// *uvloop.Loop WithOwnThread): its loop code runs on one goroutine locked to that thread, and
// the goroutine that owns the scheduler waits while it does. Async bodies run on coroutines
// made on that goroutine; an Async call from anywhere else (the owner before a Run) has the
// scheduler start the body there (RunOnOwnThread), since a coroutine must run on the thread
// it was made on. OnOwnThread reports whether the caller is where loop code runs (always
// true for a scheduler without a thread of its own).
type ThreadOwner interface {
	OnOwnThread() bool
	RunOnOwnThread(f func())
}

// Failer is a Scheduler whose run can be ended with an error; in ModeThrow and ModeStrict an
// unhandled rejection ends it with an *UnhandledRejectionError, as it ends a Node process.
// Without it, the error is raised as a panic from the checkpoint.
type Failer interface {
	Fail(err error)
}

// JobInspector is a Scheduler that can tell whether any microtask (or nextTick callback) is
// queued. With it, an Await of a settled promise from a body that the microtask queue resumed
// continues without a coroutine switch when its resumption would be the very next job anyway.
type JobInspector interface {
	JobsPending() bool
}

// RuntimeHolder is a Scheduler that keeps its Runtime itself, in a slot it lends the package:
// finding the Runtime of such a scheduler costs a method call, where any other scheduler is
// looked up in a map shared by the whole process (which loops on several cores would contend
// for). RuntimeSlot returns what SetRuntimeSlot stored last, nil at first; the package stores
// the Runtime when it first uses the scheduler and nil when the Runtime closes. Only this
// package calls SetRuntimeSlot, on the scheduler's goroutine. *uvloop.Loop is a RuntimeHolder.
type RuntimeHolder interface {
	RuntimeSlot() any
	SetRuntimeSlot(v any)
}

// job is one microtask of this package: a reaction, a resolve-thenable job, a resumption.
// A reaction runs with the promise it reacts to (src), so that it need not keep a pointer
// to it; src is nil for the other jobs.
type job interface{ run(src *base) }

// Runtime is the per-scheduler state of the package: its job queue, the async bodies that
// are suspended, and unhandled-rejection tracking. There is one per Scheduler, made on first
// use; get it with RuntimeOf. A RuntimeHolder keeps it in its slot; other schedulers are
// looked up in a process-wide map. Loop goroutine only.
type Runtime struct {
	sched    Scheduler
	holder   RuntimeHolder      // sched, if it keeps this Runtime in its slot; nil for other schedulers
	inspect  JobInspector       // nil if the scheduler cannot tell
	jobs     queue.Ring[queued] // paired one to one with runJob microtasks queued on sched
	runJobFn func()             // rt.runJob, bound once

	current   *coro   // the async body running now; nil on the loop goroutine
	coros     coro    // sentinel of the list of bodies started and not finished
	idle      *worker // the pool of workers waiting for a body
	nIdle     int
	pooling   bool        // the scheduler is a Closer: Close stops the pool's workers
	goWorkers bool        // the scheduler is a ThreadLocker that locks: workers are goroutines (goPull)
	owner     ThreadOwner // the scheduler, if it is one: a body starts on its thread
	closed    bool
	done      chan struct{} // closed by Close

	tracking         bool // the scheduler is a Checkpointer
	requestCP        func()
	mode             Mode
	hook             func(RejectionEvent)
	warnings         io.Writer    // SetWarningOutput's writer, while warnWriter
	warnWriter       bool         // SetWarningOutput was called after any SetLogger: warnings go to warnings (nil: nowhere)
	logger           *slog.Logger // SetLogger's; nil: the scheduler's Logger, or slog.Default()
	failer           Failer
	nextUID          uint64
	maybeUnhandled   map[*base]trackedEntry // Node's maybeUnhandledPromises
	pendingUnhandled []trackedEntry         // rejected with no handler since the last checkpoint
	asyncHandled     []trackedEntry         // handled after the Unhandled event: Handled is due
}

// runtimes maps each Scheduler that is not a RuntimeHolder to its *Runtime.
var runtimes sync.Map

// RuntimeOf returns the Runtime of s, making it on first use. A Runtime made for a Closer is
// forgotten when the scheduler closes; for other schedulers call Runtime.Close when done.
func RuntimeOf(s Scheduler) *Runtime {
	if h, ok := s.(RuntimeHolder); ok {
		if rt, ok := h.RuntimeSlot().(*Runtime); ok {
			return rt
		}
		return heldRuntime(s, h)
	}
	return foreignRuntime(s)
}

// heldRuntime makes the Runtime of a RuntimeHolder and puts it in its slot.
func heldRuntime(s Scheduler, h RuntimeHolder) *Runtime {
	rt := newRuntime(s)
	rt.holder = h
	h.SetRuntimeSlot(rt)
	rt.attach()
	return rt
}

// foreignRuntime finds or makes the Runtime of a scheduler that is not a RuntimeHolder.
func foreignRuntime(s Scheduler) *Runtime {
	if v, ok := runtimes.Load(s); ok {
		return v.(*Runtime)
	}
	if s == nil {
		panic("promise: nil Scheduler")
	}
	rt := newRuntime(s)
	if v, loaded := runtimes.LoadOrStore(s, rt); loaded {
		return v.(*Runtime)
	}
	rt.attach()
	return rt
}

func newRuntime(s Scheduler) *Runtime {
	rt := &Runtime{sched: s, done: make(chan struct{})}
	rt.runJobFn = rt.runJob
	rt.coros.lnext, rt.coros.lprev = &rt.coros, &rt.coros
	rt.inspect, _ = s.(JobInspector)
	rt.failer, _ = s.(Failer)
	if tl, ok := s.(ThreadLocker); ok {
		rt.goWorkers = tl.LocksOSThread()
	}
	rt.owner, _ = s.(ThreadOwner)
	return rt
}

// attach registers rt's checkpoint and close hook with its scheduler, once rt is the one.
func (rt *Runtime) attach() {
	s := rt.sched
	if cp, ok := s.(Checkpointer); ok {
		rt.tracking = true
		rt.requestCP = cp.RequestCheckpoint
		cp.AddCheckpoint(rt.checkpoint)
	}
	if c, ok := s.(Closer); ok {
		rt.pooling = true
		c.OnClose(rt.Close)
	}
}

// InBody reports whether it is called from inside an Async body of rt (one that runs now).
// A scheduler uses it to refuse what a body must not do, such as closing the scheduler.
func (rt *Runtime) InBody() bool { return rt.current != nil }

// Close unwinds every suspended Async body (Await panics inside it with an unexported value
// that the body's deferred functions see and that Async recovers) and ends the idle
// coroutines kept for the next bodies (only a Closer's Runtime keeps any), so that no
// coroutine outlives the scheduler, and forgets the Runtime. The promises of the unwound
// bodies stay pending. The scheduler's Close calls it for a Closer; it is safe to call twice.
// Called from an Async body, it panics (the body's promise rejects).
func (rt *Runtime) Close() {
	if rt.closed {
		return
	}
	if rt.current != nil {
		panic("promise: Runtime.Close called from an Async body (it would unwind the body calling it)")
	}
	if rt.owner != nil && !rt.owner.OnOwnThread() { // the bodies' coroutines are the thread's
		rt.owner.RunOnOwnThread(rt.Close)
		return
	}
	rt.closed = true
	close(rt.done)
	for rt.coros.lnext != &rt.coros {
		co := rt.coros.lnext
		co.unlink()
		co.unwind()
	}
	rt.stopWorkers()
	if h := rt.holder; h != nil {
		if h.RuntimeSlot() == any(rt) {
			h.SetRuntimeSlot(nil)
		}
	} else {
		runtimes.CompareAndDelete(rt.sched, rt)
	}
}

// enqueue queues j, to run with src, as one microtask.
func (rt *Runtime) enqueue(j job, src *base) {
	rt.jobs.Push(queued{j, src})
	rt.sched.QueueMicrotask(rt.runJobFn)
}

func (rt *Runtime) runJob() {
	if q, ok := rt.jobs.Pop(); ok {
		q.j.run(q.src)
	}
}

// queued is a job and the promise it runs with.
type queued struct {
	j   job
	src *base
}

// funcJob adapts a func to a job (for the rare paths).
type funcJob func()

func (f funcJob) run(*base) { f() }
