package uvloop

import (
	"os"
	"runtime/debug"
	"sync"
	"syscall"

	"github.com/uvgo/uvgo/internal/queue"
)

// This file is the work pool (libuv's threadpool.c): blocking work runs on a bounded set of
// worker goroutines, and its completion callback runs on the loop goroutine in the poll
// phase, as uv_queue_work's after_work_cb does.

// DefaultWorkers is the size of the work pool unless WithWorkers says otherwise, as libuv's
// UV_THREADPOOL_SIZE defaults to 4.
const DefaultWorkers = 4

// WithWorkers sets how many goroutines the work pool may run at once (QueueWork, ReadFile).
// n < 1 means DefaultWorkers.
func WithWorkers(n int) Option {
	return func(o *options) {
		if n < 1 {
			n = DefaultWorkers
		}
		o.workers = n
	}
}

// errWorkCanceled is what the after callback of canceled work gets (uv_cancel's
// UV_ECANCELED).
var errWorkCanceled error = os.NewSyscallError("queue work", syscall.ECANCELED)

// Work is one item queued with QueueWork (uv_work_t). Its methods are for the loop goroutine
// only.
type Work struct {
	loop  *Loop
	work  func()          // nil once taken by a worker or canceled; guarded by the pool's mu
	after func(err error) // loop goroutine only
	state workState       // guarded by the pool's mu
	err   error           // set by the worker (or Cancel) before the item is published as done; read by the loop after
}

type workState uint8

const (
	workQueued workState = iota
	workRunning
	workCanceled
)

// workPool is the loop's pool of worker goroutines. They start lazily, as work is queued, up
// to size, and all end at Close.
type workPool struct {
	size int              // most workers at once; set by New
	slab queue.Slab[Work] // where QueueWork's items come from; loop goroutine only

	mu      sync.Mutex
	cond    sync.Cond         // signalled when work is queued or the pool closes; L is &mu
	queue   queue.Ring[*Work] // queued, oldest first; guarded by mu
	started int               // workers started; guarded by mu
	idle    int               // workers waiting on cond and not yet signalled; guarded by mu
	closed  bool              // guarded by mu
	wg      sync.WaitGroup

	done queue.Handoff[*Work] // finished or canceled, not yet delivered; Put by workers and Cancel, Run on the loop
}

// QueueWork runs work on the work pool and then after on the loop goroutine, in the poll
// phase of a later iteration, followed by the nextTick/microtask drain (uv_queue_work).
// after gets nil, an error wrapping syscall.ECANCELED if Cancel took the work off the queue
// before a worker started it, or a *PanicError if work panicked: a panic in work is recovered
// on the worker and does not reach Run. A panic in after follows the loop's policy (Run
// returns a *PanicError; the completions not yet delivered wait for the next Run).
//
// Work in flight — queued, running, or done with after not yet called — counts as a request:
// it keeps the loop alive, and Close fails with ErrBusy until after has run. work must not
// touch the loop; it may Post to it. QueueWork is for the loop goroutine only; it returns
// ErrNilCallback if work or after is nil and ErrClosed after Close.
func (l *Loop) QueueWork(work func(), after func(err error)) (*Work, error) {
	if work == nil || after == nil {
		return nil, ErrNilCallback
	}
	if l.closed {
		return nil, ErrClosed
	}
	p := &l.work
	w := p.slab.New()
	*w = Work{loop: l, work: work, after: after}
	l.reqStart(ReqWork)
	p.mu.Lock()
	p.queue.Push(w)
	switch {
	case p.idle > 0:
		p.idle--
		p.cond.Signal()
	case p.started < p.size:
		p.started++
		p.wg.Add(1)
		go p.worker(l)
	}
	p.mu.Unlock()
	return w, nil
}

// Cancel takes the work off the queue if no worker has started it (uv_cancel): its after
// callback then runs in the next poll phase with an error wrapping syscall.ECANCELED. Once
// the work has started (or finished, or was canceled already) Cancel returns an error
// wrapping ErrBusy and changes nothing.
func (w *Work) Cancel() error {
	p := &w.loop.work
	p.mu.Lock()
	if w.state != workQueued {
		p.mu.Unlock()
		return errorf(ErrBusy, "work already started or canceled")
	}
	w.state = workCanceled
	w.work = nil
	w.err = errWorkCanceled
	p.mu.Unlock()
	p.publish(w)
	return nil
}

// worker runs queued work until the pool closes.
func (p *workPool) worker(l *Loop) {
	defer p.wg.Done()
	p.mu.Lock()
	for {
		for p.queue.Len() == 0 && !p.closed {
			p.idle++
			p.cond.Wait()
		}
		if p.closed {
			p.mu.Unlock()
			return
		}
		w, _ := p.queue.Pop()
		if w.state != workQueued { // canceled
			continue
		}
		w.state = workRunning
		fn := w.work
		w.work = nil
		p.mu.Unlock()
		w.err = runWork(fn)
		p.publish(w)
		p.mu.Lock()
	}
}

// runWork calls fn and turns a panic into a *PanicError.
func runWork(fn func()) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	fn()
	return nil
}

// publish hands finished (or canceled) work to the loop, and wakes it if it sleeps; the loop
// takes every completion queued by then in one poll phase.
func (p *workPool) publish(w *Work) {
	p.done.Put(w)
	w.loop.wake()
}

// runWorkDone calls the after callbacks of the work finished before it began, in the order
// the work finished, each followed by the nextTick/microtask drain. If one panics, the rest go
// back in front and the loop wakes itself to run them after the next wait.
func (l *Loop) runWorkDone() {
	q := &l.work.done
	q.Take()
	defer q.End() // a panic cut the batch short: the rest waits, queued, for the next poll phase
	for w, ok := q.Next(); ok; w, ok = q.Next() {
		l.reqDone(ReqWork)
		after := w.after
		w.after = nil
		after(w.err)
		l.afterTask(after)
	}
}

// close ends the pool's goroutines; Close calls it once no work is in flight.
func (p *workPool) close() {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
	p.wg.Wait()
}
