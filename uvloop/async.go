package uvloop

import "sync/atomic"

// Async wakes the loop from any goroutine and runs its callback there (uv_async_t). Sends
// coalesce: however many Sends happen before the loop gets to it, the callback runs at least
// once after the last of them. An Async is active from creation until Close and keeps the
// loop alive while ref'd.
//
// Send is safe from any goroutine; every other method is for the loop goroutine only.
type Async struct {
	handle
	state atomic.Uint32 // asyncIdle, asyncPending or asyncClosed; atomic: Send runs on any goroutine
	cb    func(*Async)  // set by NewAsync, called on the loop goroutine
	index int           // position in Loop.asyncs; loop goroutine only
}

const (
	asyncIdle uint32 = iota
	asyncPending
	asyncClosed
)

// NewAsync creates an active async handle. cb may be nil: then Send only wakes the loop.
func (l *Loop) NewAsync(cb func(*Async)) *Async {
	a := &Async{cb: cb}
	a.handle.init(l, a, KindAsync)
	if l.closed {
		a.flags |= flagClosed
		a.state.Store(asyncClosed)
		return a
	}
	a.index = len(l.asyncs)
	l.asyncs = append(l.asyncs, a)
	a.handle.start()
	return a
}

// Send makes the callback run on the loop goroutine. Safe from any goroutine. It returns
// ErrClosed once the handle or the loop is closed.
func (a *Async) Send() error {
	for {
		switch a.state.Load() {
		case asyncPending:
			return nil
		case asyncClosed:
			return ErrClosed
		}
		if a.state.CompareAndSwap(asyncIdle, asyncPending) {
			l := a.loop
			if !l.asyncSent.Load() {
				l.asyncSent.Store(true)
			}
			return l.wake()
		}
	}
}

// closeStart makes Send fail and takes the handle out of the loop's scan.
func (a *Async) closeStart() {
	a.state.Store(asyncClosed)
	l := a.loop
	k := a.index
	copy(l.asyncs[k:], l.asyncs[k+1:])
	l.asyncs[len(l.asyncs)-1] = nil
	l.asyncs = l.asyncs[:len(l.asyncs)-1]
	for _, b := range l.asyncs[k:] {
		b.index--
	}
	if k <= l.asyncPos { // closed during the scan, behind the scan position
		l.asyncPos--
	}
}

func (a *Async) closeFinish() {}

// runAsyncs runs the callback of every Async sent since the last scan, in creation order.
// Loop.asyncSent is cleared before the scan, so a Send during it sets it again: the next poll
// phase scans again.
func (l *Loop) runAsyncs() {
	l.asyncSent.Store(false)
	defer func() {
		if l.asyncPos < len(l.asyncs) { // a callback panicked: scan again in the next poll phase
			l.asyncSent.Store(true)
		}
		l.asyncPos = -1
	}()
	for l.asyncPos = 0; l.asyncPos < len(l.asyncs); l.asyncPos++ {
		a := l.asyncs[l.asyncPos]
		if !a.state.CompareAndSwap(asyncPending, asyncIdle) {
			continue
		}
		if a.cb != nil {
			a.cb(a)
			l.afterCallback()
		}
	}
}
