package uvloop

import (
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/uvgo/uvgo/immediate"
	"github.com/uvgo/uvgo/internal/queue"
	"github.com/uvgo/uvgo/nexttick"
	"github.com/uvgo/uvgo/poller"
	"github.com/uvgo/uvgo/timers"
)

// RunMode selects how long Run runs, as uv_run_mode does.
type RunMode int

const (
	// RunDefault runs until nothing keeps the loop alive or Stop is called.
	RunDefault RunMode = iota
	// RunOnce runs one iteration, blocking in poll for I/O if there is nothing else to do.
	RunOnce
	// RunNoWait runs one iteration without blocking.
	RunNoWait
)

// Loop is a single-threaded event loop (uv_loop_t).
//
// One goroutine at a time owns a Loop. While Run runs, the owner is the goroutine that called
// it, and every callback runs there, one at a time (on a loop WithOwnThread, on the loop's
// own goroutine, while the caller waits). Before the first Run and between runs, the owner is
// whoever calls Run next: it may create and start handles, queue work and call Close.
// Every method of the Loop and of its handles, timeouts and immediates is for the owner only,
// with two exceptions that are safe from any goroutine: Post and Async.Send. Work given to
// QueueWork runs on a worker goroutine and may call only those two. Calling anything else from
// another goroutine is a data race, not an error that the loop can report (except Run while
// the loop runs, which fails with ErrRunning).
//
// Every field below is for the owner ("loop goroutine only") unless its comment says
// otherwise.
type Loop struct {
	poller *poller.Poller // Wake is safe from any goroutine (Post, Async.Send, workers); the rest is the owner's
	timers *timers.Heap
	epoch  time.Time // the monotonic origin of Now; set by New, read-only after
	now    int64     // cached loop time, ns since epoch

	running  atomic.Bool // inside Run; atomic, so that a Run or Close from a wrong goroutine is refused
	stopFlag bool
	closed   bool
	fatal    error // a poller failure or Fail between runs: Run returns it

	handles    handleList
	activeRefs int     // active and ref'd handles, and Holds
	activeReqs int     // requests in flight (work, writes, connects, shutdowns, sends)
	closing    *handle // handles waiting for the close phase, last closed first

	idle, prepare, check watcherList

	pending queue.Ring[func()] // callbacks deferred to the pending phase

	io ioTable // fd watchers

	asyncs   []*Async              // all open Async handles, scanned on a wake-up
	asyncPos int                   // the scan position while runAsyncs runs, else -1
	posted   queue.Handoff[func()] // Post's functions: Put from any goroutine, Run on the loop
	work     workPool              // QueueWork's worker goroutines and completions; each field says who may touch it (work.go)
	ringFS   ringFS                // the file requests on the io_uring backend's ring (ring_fs.go)

	// How other goroutines wake the loop (wake.go).
	sleep      atomic.Uint32 // sleepAwake, sleepChan, sleepKernel or sleepWoken; atomic: wakers flip it
	asyncSent  atomic.Bool   // an Async was sent since runAsyncs last began; atomic: set by Send
	wakeups    atomic.Uint64 // sleeps ended by a waker's signal (Metrics.Wakeups); atomic
	wakeCh     chan struct{} // a waker's signal to a loop asleep with no fd registered; capacity 1
	sleepTimer *time.Timer   // the timeout of a sleep on wakeCh; loop goroutine only
	slept      bool          // the last poll phase's wait blocked and woke for one event at most (kernelWait); loop goroutine only
	looks      uint64        // kernelWait's looks without blocking (tests count them)
	lockThread bool          // WithLockOSThread (or WithOwnThread); set by New
	own        *ownThread    // WithOwnThread's goroutine; nil without it; set by New
	ownMode    RunMode       // the mode of the Run that runs on own, and its results
	ownAlive   bool
	ownErr     error
	ownRunFn   func() // runs Run's body with ownMode on own; bound once

	ticks         nexttick.Queues       // Node's nextTick and microtask queues
	immediates    immediate.Queue       // Node's setImmediate queue, run in the check phase
	immediateSlab queue.Slab[Immediate] // where SetImmediate's objects come from
	node          nodeTimers            // Node's setTimeout lists

	metrics metrics       // the counters (metrics.go)
	obs     observer      // timing, long tasks, trace regions, the logger (observe.go)
	idleCbs idleCallbacks // RequestIdleCallback's queue (idlecb.go)

	promise promiseHooks // checkpoints, close hooks (promise_hooks.go); loop goroutine only
	fsWatch *fsWatchSet  // the kernel watch instance of the FSEvent handles (fsevent.go); nil while none watches
	streams streamShared // the read buffer, iovecs, write requests and reserve fd of the streams (stream.go); loop goroutine only
	dns     dnsQueue     // the lookups holding a slot of the pool and those waiting for one (dns.go); loop goroutine only
	sig     *loopSignals // the Signal handles' state (signal.go), nil until the first Start; loop goroutine only
}

// Option configures a Loop.
type Option func(*options)

type options struct {
	workers        int  // the work pool's size
	lockThread     bool // WithLockOSThread
	ownThread      bool // WithOwnThread
	phaseTiming    bool
	longTask       time.Duration
	longTaskReport func(LongTask)
	logger         *slog.Logger
	nestingClamp   bool // the HTML timer-nesting clamp (node.go)
	backend        Backend
}

func defaultOptions() options { return options{workers: DefaultWorkers} }

// WithLockOSThread makes Run lock the goroutine that calls it to its OS thread
// (runtime.LockOSThread) until it returns, as a server that gives each loop a thread of its
// own does. The loop then never yields its thread before it sleeps: on a locked thread a yield
// is a hand-off of the processor to another thread and back, two thread wake-ups, while an
// unlocked loop yields after an empty look at the poller so that the goroutines its callbacks
// made ready run before it blocks in the kernel. The price: while a locked loop sleeps in the
// kernel, a goroutine that one of its callbacks made ready (a channel send to a waiting
// goroutine) waits for the runtime to take the processor back (tens of microseconds or more);
// so lock a loop that serves I/O, not one that answers goroutines. Lock the thread with this
// option, not around Run, so that the loop knows. On io_uring it also lets the kernel keep a
// completion's work for the loop's thread until the loop enters the kernel, instead of
// interrupting it (IORING_SETUP_COOP_TASKRUN: see poller.Options.ThreadBound): a third less
// CPU per HTTP request on one core.
func WithLockOSThread() Option {
	return func(o *options) { o.lockThread = true }
}

// LocksOSThread reports whether Run locks the goroutine that calls it to its OS thread
// (WithLockOSThread). Package promise asks, to run Async bodies on goroutines rather than
// coroutines for such a loop (see promise.ThreadLocker). A loop WithOwnThread reports false:
// its goroutine is locked for its whole life, so coroutines made on it can run there. Safe
// from any goroutine.
func (l *Loop) LocksOSThread() bool { return l.lockThread && l.own == nil }

// OnOwnThread reports whether the caller may run the loop's code where it is: true, unless
// the loop has a thread of its own (WithOwnThread) and the caller is not on it (the owner
// between runs). Package promise asks, to start an Async body on the loop's thread (see
// promise.ThreadOwner).
func (l *Loop) OnOwnThread() bool { return l.own == nil || l.own.On() }

// RunOnOwnThread runs f on the loop's own thread (WithOwnThread) and returns when f has;
// without one, or on it, it runs f at once. A panic of f is raised again in the caller.
// Between runs only, as the loop's owner.
func (l *Loop) RunOnOwnThread(f func()) {
	if l.own == nil {
		f()
		return
	}
	l.own.Do(f)
}

// New creates a loop. It owns a poller (epoll, kqueue or io_uring: see WithBackend) and its
// wake-up until Close. On a system with none (Windows, DragonFly) it fails with an error
// wrapping errors.ErrUnsupported.
func New(opts ...Option) (*Loop, error) {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	if os.Getenv(OwnThreadEnv) == "1" {
		o.ownThread = true
	}
	var own *ownThread
	var p *poller.Poller
	var err error
	if o.ownThread {
		o.lockThread = true
		own = startOwnThread()
		own.Do(func() { p, err = openPoller(&o, own) }) // a pinned ring is made on its thread
	} else {
		p, err = openPoller(&o, nil)
	}
	if err != nil {
		if own != nil {
			own.stop()
		}
		return nil, err
	}
	l := &Loop{poller: p, timers: timers.New(), epoch: time.Now(), asyncPos: -1,
		wakeCh: make(chan struct{}, 1), lockThread: o.lockThread, own: own}
	if own != nil {
		l.ownRunFn = func() { l.ownAlive, l.ownErr = l.run(l.ownMode) }
	}
	l.idle.init(l, PhaseIdle)
	l.prepare.init(l, PhasePrepare)
	l.check.init(l, PhaseCheck)
	l.work.size = o.workers
	l.work.cond.L = &l.work.mu
	l.node.init(l)
	l.node.clamp = o.nestingClamp
	l.obs.init(&o)
	return l, nil
}

// Now returns the cached loop time: the monotonic time since the loop was created, as of the
// start of the current iteration (or the last UpdateTime). Callbacks of one phase see the same
// value, as with uv_now.
func (l *Loop) Now() time.Duration { return time.Duration(l.now) }

// UpdateTime refreshes the cached loop time from the monotonic clock.
func (l *Loop) UpdateTime() { l.now = int64(time.Since(l.epoch)) }

// Stop makes Run return after the current iteration (or before the next one starts, if
// called between runs). Loop goroutine only: from another goroutine, Post(l.Stop).
func (l *Loop) Stop() {
	l.checkOwner("Stop")
	l.stopFlag = true
}

// Alive reports whether the loop has work: an active ref'd handle, a request in flight, a
// pending callback, a closing handle, a ref'd immediate or a posted function not yet run.
func (l *Loop) Alive() bool {
	return l.activeRefs > 0 || l.activeReqs > 0 || l.pending.Len() > 0 || l.closing != nil ||
		l.immediates.RefCount() > 0 || l.posted.Len() > 0
}

// Run runs the loop in the given mode and reports whether it is still alive. It returns an
// error wrapping ErrRunning if the loop is already running (a re-entrant call from a callback,
// or a call from another goroutine), ErrClosed after Close, ErrInvalidMode, a *PanicError if
// a callback panicked, or the poller's error if waiting for I/O failed.
//
// One iteration, in libuv's order:
//
//	pending -> idle -> prepare -> poll -> check (+ immediates) -> close -> timers
//
// RunDefault also runs due timers once before the first iteration. Before any of it, as Node
// does, Run drains the nextTick callbacks and microtasks queued before it (the "main script")
// and finishes a batch of immediates that a panic interrupted.
func (l *Loop) Run(mode RunMode) (alive bool, err error) {
	if mode < RunDefault || mode > RunNoWait {
		return false, errorf(ErrInvalidMode, "%d", mode)
	}
	if l.closed {
		return false, ErrClosed
	}
	if !l.running.CompareAndSwap(false, true) {
		return false, ErrRunning
	}
	if err := l.fatal; err != nil { // Fail was called between runs
		l.fatal = nil
		l.running.Store(false)
		return l.Alive(), err
	}
	if l.own != nil && !l.own.On() {
		l.ownMode = mode
		l.own.Do(l.ownRunFn)
		alive, err, l.ownErr = l.ownAlive, l.ownErr, nil
		// The hand-off and back leaves this goroutine first in line for the processor: a
		// caller that runs the loop in a spin (RunNoWait) would keep every other goroutine
		// from it at GOMAXPROCS=1. So it yields.
		runtime.Gosched()
		return alive, err
	}
	return l.run(mode)
}

// run is Run's body, on the goroutine that runs the loop.
func (l *Loop) run(mode RunMode) (alive bool, err error) {
	if l.lockThread && l.own == nil {
		runtime.LockOSThread()
	}
	l.enterOwner()
	defer l.leave(&alive, &err)
	if err := l.poller.Rebind(); err != nil {
		l.fatal = err
	}
	l.startMetrics()

	goOn := l.promise.deferDrain && l.promise.midIteration // DeferDrain: no timers phase first
	l.promise.midIteration = false
	l.nodePrologue()
	l.endPhase() // the writes of the main script (each phase submits its own: ring_write.go)
	r := l.Alive()
	if !r {
		l.UpdateTime()
	}
	if mode == RunDefault && r && !l.stopFlag && !goOn {
		l.UpdateTime()
		l.observeIteration()
		l.runTimers()
	}
	for r && !l.stopFlag && l.fatal == nil {
		canSleep := l.pending.Len() == 0 && l.idle.empty()

		l.runPending()
		l.idle.run()
		l.prepare.run()

		var timeout time.Duration
		if mode == RunOnce && canSleep || mode == RunDefault {
			timeout = l.backendTimeout()
			if timeout != 0 && l.idleCbs.len() > 0 {
				timeout = l.runIdleCallbacks() // PhaseIdleCallbacks
			}
		}
		l.enterPoll() // and count the iteration
		l.poll(timeout)
		for i := 0; i < 8 && l.pending.Len() > 0; i++ {
			l.runPending()
		}

		l.check.run()
		l.runImmediates()
		l.runClosing()

		l.UpdateTime()
		l.observeIteration()
		l.runTimers()

		r = l.Alive()
		if mode != RunDefault {
			break
		}
	}
	l.stopFlag = false
	if l.fatal != nil {
		err, l.fatal = l.fatal, nil
		return r, err
	}
	return r, nil
}

// nodePrologue is what Node does before the loop's first phase: it drains the ticks and
// microtasks queued before Run (the "main script"), then, if an immediate panicked in the
// last Run, runs the rest of its batch before anything else, as Node's processImmediate runs
// its outstanding queue right after an uncaught exception; or, if the drain that opens a
// check phase panicked (and DeferDrain), the batch of immediates that check phase was to
// run, as Node goes on to processImmediate. After a close callback panicked (and
// DeferDrain), it runs the close callbacks left, as libuv goes on with its close phase.
func (l *Loop) nodePrologue() {
	checkStart := l.promise.checkStart && l.promise.deferDrain
	closeRest := l.promise.closeRest && l.promise.deferDrain
	l.promise.checkStart, l.promise.closeRest = false, false
	if l.promise.deferDrain {
		l.promise.deferDrain = false
	} else {
		l.drain()
	}
	if l.immediates.Outstanding() > 0 || checkStart {
		l.enter(PhaseCheck)
		l.runImmediateBatch()
	}
	if closeRest {
		l.runClosing()
	}
}

// leave ends a Run: it turns a panic from a callback into a *PanicError.
func (l *Loop) leave(alive *bool, err *error) {
	l.leaveOwner()
	inCheckDrain := l.promise.inCheckDrain // a panic there left it set
	l.promise.inCheckDrain = false
	if v := recover(); v != nil {
		if f, ok := v.(failure); ok { // Fail
			*err = f.err
		} else {
			*err = &PanicError{Value: v, Stack: debug.Stack()}
			l.promise.checkStart = inCheckDrain
			l.promise.closeRest = !inCheckDrain && l.metrics.phase == PhaseClose
			l.promise.midIteration = !inCheckDrain && l.metrics.phase > PhaseTimers && l.metrics.phase <= PhasePoll
		}
		*alive = l.Alive()
		l.stopFlag = false
	}
	if l.lockThread && l.own == nil {
		l.poller.Unbind() // what is submitted before the next Run, it moves to that Run's thread
		runtime.UnlockOSThread()
	}
	l.leavePhases()
	l.running.Store(false)
}

// backendTimeout is how long poll may block (uv__backend_timeout): not at all if the loop was
// stopped, nothing ref'd is active, callbacks are pending, idle handles run, ref'd immediates
// are queued or handles are closing; otherwise until the next timer; otherwise forever (-1).
// Unref'd immediates do not shorten the wait: as in Node, they run when something else wakes
// the loop.
func (l *Loop) backendTimeout() time.Duration {
	// Posted functions need no zero timeout: the poll phase looks at the queues before it
	// sleeps.
	if l.stopFlag || l.activeRefs == 0 && l.activeReqs == 0 && l.posted.Len() == 0 || l.pending.Len() > 0 ||
		!l.idle.empty() || l.immediates.RefCount() > 0 || l.closing != nil {
		return 0
	}
	deadline, ok := l.timers.Next()
	if !ok {
		return -1
	}
	if d := deadline - l.now; d > 0 {
		return time.Duration(d)
	}
	return 0
}

// afterCallback runs the nextTick/microtask drain that follows every callback the loop calls,
// and counts the callback for Metrics. A drain that only a checkpoint asks for
// (RequestCheckpoint) runs on the slow path of the check that follows (afterSlow): the
// checkpoint raises the observer's flag, so that the fast path tests one flag for both.
func (l *Loop) afterCallback() { l.afterTask(nil) }

// afterTask is afterCallback for a site that knows the callback it called, fn, so that a
// long task can be named.
func (l *Loop) afterTask(fn any) {
	l.countCallback()
	if l.ticks.Pending() {
		l.promise.checkpointDue = false
		l.ticks.Drain()
	}
	if atomic.LoadUint32(&l.obs.due) != 0 { // a check (observe.go), or a checkpoint requested
		l.afterSlow(fn)
	}
}

// drain is afterCallback without counting a callback (the same body: a call from one to the
// other would cost every callback a call).
func (l *Loop) drain() { l.drainTask(nil) }

// drainTask is drain after the callback fn.
func (l *Loop) drainTask(fn any) {
	if l.ticks.Pending() {
		l.promise.checkpointDue = false
		l.ticks.Drain()
	}
	if atomic.LoadUint32(&l.obs.due) != 0 { // a check (observe.go), or a checkpoint requested
		l.afterSlow(fn)
	}
}

// afterImmediate is afterCallback for an immediate, which it names for long tasks; the
// immediates are counted by the batch (runImmediateBatch). drainTask's body again, so that
// the immediate's func is loaded only on the slow path.
func (l *Loop) afterImmediate(im *immediate.Immediate) {
	if l.ticks.Pending() {
		l.promise.checkpointDue = false
		l.ticks.Drain()
	}
	if atomic.LoadUint32(&l.obs.due) != 0 { // a check (observe.go), or a checkpoint requested
		l.afterSlow(im.Fn)
	}
}

// afterSlow is the slow path of the check after a callback: the drain of a checkpoint that
// was requested (RequestCheckpoint) with no tick or microtask queued, then the observation
// (observeCallback).
func (l *Loop) afterSlow(fn any) {
	if l.promise.checkpointDue {
		l.promise.checkpointDue = false
		l.ticks.Drain()
	}
	l.observeCallback(fn)
}

// runImmediateBatch runs one batch of immediates and counts them (a batch that a panic cuts
// short goes uncounted).
func (l *Loop) runImmediateBatch() {
	n := l.immediates.RunEach(l.afterImmediate)
	l.metrics.callbacks[PhaseCheck] += uint64(n)
}

// runPending runs the callbacks deferred to the pending phase before it began; those they
// defer wait for the next pending phase.
func (l *Loop) runPending() {
	n := l.pending.Len()
	if n == 0 {
		return
	}
	l.enter(PhasePending)
	for ; n > 0; n-- {
		fn, _ := l.pending.Pop()
		fn()
		l.afterTask(fn)
	}
	l.endPhase()
}

// defer runs fn in the next pending phase (uv__io_feed): write completions, connect errors.
func (l *Loop) deferPending(fn func()) { l.pending.Push(fn) }

// runImmediates runs Node's immediates queued before the check phase began. If an immediate
// panicked in an earlier check phase, the rest of its batch runs first, alone, as Node's
// outstanding queue does.
func (l *Loop) runImmediates() {
	if l.ticks.Pending() {
		// Left by an uncaught exception (DeferDrain): Node's check phase opens a callback
		// scope of its own first (for its native immediates), whose end drains them.
		l.promise.inCheckDrain = true
		l.drain()
		l.promise.inCheckDrain = false
	}
	if l.immediates.Len() == 0 {
		return
	}
	leftover := l.immediates.Outstanding() > 0
	if atomic.LoadUint32(&l.obs.due) != 0 { // enter(PhaseCheck) written out: see enterPoll
		l.observePhase(PhaseCheck)
	}
	l.metrics.phase = PhaseCheck
	l.runImmediateBatch()
	l.endPhase()
	if leftover { // that was the rest of a batch a panic cut short; now the batch queued since
		l.runImmediates()
	}
}

// runClosing runs the close callbacks of the handles closed before this phase began, last
// closed first. Handles closed by these callbacks wait for the next close phase. If a
// callback panics, the handles not yet finished wait for the next close phase, ahead of those
// closed meanwhile; a handle whose kind's part (closeFinish) panicked is among them.
func (l *Loop) runClosing() {
	h := l.closing
	if h == nil {
		return
	}
	l.enter(PhaseClose)
	l.closing = nil
	var cur *handle
	defer func() {
		if cur != nil && cur.flags&flagClosed == 0 { // panicked before it was closed
			cur.nextClose, h = h, cur
		}
		if h != nil {
			tail := h
			for tail.nextClose != nil {
				tail = tail.nextClose
			}
			tail.nextClose, l.closing = l.closing, h
		}
	}()
	for h != nil {
		cur, h = h, h.nextClose
		cur.nextClose = nil
		cur.finishClose()
	}
	l.endPhase()
}

// runTimers runs the due timers (uv__run_timers).
func (l *Loop) runTimers() {
	if l.timers.RunExpired(l.now) > 0 { // the phase is entered by its first timer (enterTimers)
		l.endPhase()
	}
}

// Walk calls fn for every open handle (including closing ones whose close callback has not
// run yet), in creation order. Handles created by fn are not visited. It returns
// ErrNilCallback if fn is nil.
func (l *Loop) Walk(fn func(Handle)) error {
	if fn == nil {
		return ErrNilCallback
	}
	l.checkOwner("Walk")
	last := l.handles.tail
	for h := l.handles.head; h != nil; h = h.next {
		if h.flags&flagInternal == 0 {
			fn(h.self)
		}
		if h == last {
			break
		}
	}
	return nil
}

// Close releases the loop's poller and wake-up and ends the work pool's goroutines. It fails
// with an error wrapping ErrBusy while a handle is open (close them and run the loop until
// their close callbacks have run) or a request is in flight (work, a write, a connect, a
// send), with ErrRunning from inside Run or from an Async body (even one started between
// runs), and with ErrClosed the second time.
//
// What is left of Node's scheduling API does not make Close fail: Close cancels it, as a Node
// process drops it when it exits. Timeouts and intervals still set are cleared (their
// callbacks never run again), queued immediates are dropped, and so are the nextTick
// callbacks and microtasks not yet run and the functions posted and not yet run. After Close,
// SetTimeout, SetInterval and SetImmediate return nil, NextTick and QueueMicrotask do nothing,
// and Post returns ErrClosed.
func (l *Loop) Close() error {
	if l.closed {
		return ErrClosed
	}
	if l.running.Load() {
		return errorf(ErrRunning, "Close called from inside Run")
	}
	if l.inAsyncBody() {
		return errorf(ErrRunning, "Close called from an Async body")
	}
	if l.own == nil {
		return l.close()
	}
	var err error
	l.own.Do(func() { err = l.close() }) // the poller's release enters the kernel on its thread
	if l.closed {
		l.own.stop()
	}
	return err
}

// close is Close's body, on the goroutine that runs the loop.
func (l *Loop) close() error {
	open := 0
	for h := l.handles.head; h != nil; h = h.next {
		if h.flags&flagInternal == 0 {
			open++
		}
	}
	if open > 0 || l.activeReqs > 0 {
		return errorf(ErrBusy, "%d handles open, %d requests in flight", open, l.activeReqs)
	}
	l.runCloseHooks()
	l.node.close()
	l.idleCbs.clear()
	l.immediates.Clear()
	l.ticks = nexttick.Queues{}
	for h := l.handles.head; h != nil; h = h.next { // the loop's own handles
		h.self.closeStart()
		h.stop()
		h.flags = h.flags&^flagRef | flagClosed
	}
	l.handles = handleList{}
	l.posted.Close()
	if l.sleepTimer != nil {
		l.sleepTimer.Stop()
	}
	l.work.close()
	l.closed = true
	return l.poller.Close()
}

// Post queues fn to run on the loop goroutine in the poll phase of the current or next
// iteration, and wakes the loop. It is safe from any goroutine. Posted functions run in the
// order they were posted, each followed by the nextTick/microtask drain; a posted function
// not yet run keeps the loop alive. After Close, Post returns ErrClosed.
func (l *Loop) Post(fn func()) error {
	if fn == nil {
		return ErrNilCallback
	}
	if _, ok := l.posted.Put(fn); !ok {
		return ErrClosed
	}
	return l.wake()
}

// runPosted runs the functions posted before it began. If one panics, the rest go back in
// front, for the next poll phase.
func (l *Loop) runPosted() {
	q := &l.posted
	q.Take()
	defer q.End() // a panic cut the batch short: the rest waits, queued, for the next poll phase
	for fn, ok := q.Next(); ok; fn, ok = q.Next() {
		fn()
		l.afterTask(fn)
	}
}
