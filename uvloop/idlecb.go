package uvloop

import "time"

// This file is the HTML standard's requestIdleCallback: callbacks that run when the loop would
// otherwise block in the poll phase, each with a deadline it can query, and an optional
// timeout after which a callback runs anyway.

// MaxIdlePeriod is the longest idle period: an idle callback's deadline is at most this far
// away, as in the HTML standard.
const MaxIdlePeriod = 50 * time.Millisecond

// IdleDeadline is what an idle callback gets (the HTML IdleDeadline). It is valid only until
// the callback returns.
type IdleDeadline struct {
	loop       *Loop
	deadline   int64 // ns since the loop's epoch
	didTimeout bool
}

// TimeRemaining returns how long the callback may run before the idle period ends: the time
// until the next timer is due or the period's 50 ms are up, whichever comes first, read from
// the clock at each call; 0 once the deadline has passed, and always 0 for a callback run by
// its timeout.
func (d IdleDeadline) TimeRemaining() time.Duration {
	if d.didTimeout || d.loop == nil {
		return 0
	}
	return max(time.Duration(d.deadline)-time.Since(d.loop.epoch), 0)
}

// DidTimeout reports whether the callback runs because its timeout elapsed rather than in an
// idle period.
func (d IdleDeadline) DidTimeout() bool { return d.didTimeout }

// IdleRequest is a callback queued by RequestIdleCallback; CancelIdleCallback takes it back.
// Its fields are for the loop goroutine only.
type IdleRequest struct {
	loop       *Loop
	cb         func(IdleDeadline)
	timer      *Timeout // the timeout, if any
	seq        uint64
	prev, next *IdleRequest
	queued     bool
}

// idleCallbacks is the queue of IdleRequests, oldest first. Loop goroutine only.
type idleCallbacks struct {
	head, tail *IdleRequest
	n          int
	seq        uint64 // the last request's sequence number
}

func (q *idleCallbacks) len() int { return q.n }

func (q *idleCallbacks) push(r *IdleRequest) {
	q.seq++
	r.seq, r.prev, r.next, r.queued = q.seq, q.tail, nil, true
	if q.tail != nil {
		q.tail.next = r
	} else {
		q.head = r
	}
	q.tail = r
	q.n++
}

func (q *idleCallbacks) remove(r *IdleRequest) {
	if r.prev != nil {
		r.prev.next = r.next
	} else {
		q.head = r.next
	}
	if r.next != nil {
		r.next.prev = r.prev
	} else {
		q.tail = r.prev
	}
	r.prev, r.next, r.queued = nil, nil, false
	q.n--
	r.loop.activeRefs--
}

// RequestIdleCallback queues cb to run in an idle period of the loop (the HTML
// requestIdleCallback): when the loop has nothing to run and would block in the poll phase,
// it runs the idle callbacks queued before that moment, oldest first, while the period lasts
// (until the next timer is due, at most MaxIdlePeriod) and nothing else became ready; the
// rest wait for the next idle period, as do those queued meanwhile. IdleDeadline tells cb how
// long it has. With timeout > 0, cb runs in the timers phase once timeout has elapsed if no
// idle period ran it before, with DidTimeout true.
//
// A queued idle callback keeps the loop alive: a loop with nothing else to do runs it in an
// idle period and then ends. Idle periods begin only where poll may block: in RunDefault, and
// in RunOnce with nothing pending, never in RunNoWait. A nil cb, or a closed loop, queues
// nothing and returns nil. Loop goroutine only.
func (l *Loop) RequestIdleCallback(cb func(IdleDeadline), timeout time.Duration) *IdleRequest {
	if cb == nil || l.closed {
		return nil
	}
	r := &IdleRequest{loop: l, cb: cb}
	l.idleCbs.push(r)
	l.activeRefs++ // a queued idle callback keeps the loop alive, as a ref'd handle does
	if timeout > 0 {
		r.timer = l.SetTimeout(r.timedOut, timeout)
		r.timer.Unref() // the request itself keeps the loop alive
	}
	return r
}

// CancelIdleCallback takes back a queued idle callback: it will not run. Canceling nil, or a
// request that ran or was canceled, does nothing.
func (l *Loop) CancelIdleCallback(r *IdleRequest) {
	if r == nil || r.loop != l || !r.queued {
		return
	}
	l.idleCbs.remove(r)
	l.ClearTimeout(r.timer)
	r.timer = nil
}

// timedOut is the callback of r's timeout.
func (r *IdleRequest) timedOut() {
	l := r.loop
	if !r.queued {
		return
	}
	l.idleCbs.remove(r)
	r.timer = nil
	r.cb(IdleDeadline{loop: l, didTimeout: true})
}

// runIdleCallbacks is an idle period, begun before a poll phase that would block. It returns
// the poll timeout to use after it: what the callbacks started may shorten it.
func (l *Loop) runIdleCallbacks() time.Duration {
	l.enter(PhaseIdleCallbacks)
	l.UpdateTime()
	deadline := l.now + int64(MaxIdlePeriod)
	if next, ok := l.timers.Next(); ok && next < deadline {
		deadline = next
	}
	q := &l.idleCbs
	last := q.seq
	for r := q.head; r != nil && r.seq <= last; r = q.head {
		if int64(time.Since(l.epoch)) >= deadline {
			break
		}
		q.remove(r)
		l.ClearTimeout(r.timer)
		r.timer = nil
		r.cb(IdleDeadline{loop: l, deadline: deadline})
		l.afterTask(r.cb)
		if l.stopFlag || l.pending.Len() > 0 || l.immediates.RefCount() > 0 || l.closing != nil || !l.idle.empty() {
			break // something else is ready: the idle period ends
		}
	}
	l.endPhase()
	l.UpdateTime()
	return l.backendTimeout()
}

// clear drops every queued idle callback (Loop.Close); their timeouts go with Node's.
func (q *idleCallbacks) clear() {
	for r := q.head; r != nil; r = q.head {
		q.remove(r)
		r.timer = nil
	}
}
