package uvloop

import (
	"time"

	"github.com/uvgo/uvgo/immediate"
	"github.com/uvgo/uvgo/internal/queue"
	"github.com/uvgo/uvgo/timers"
)

// This file is the Node.js-style API: setTimeout/setInterval with Node's timer lists,
// setImmediate, process.nextTick and queueMicrotask. All of it is for the loop goroutine only.

// maxTimeout is Node's TIMEOUT_MAX: 2^31-1 ms.
const maxTimeout = (1<<31 - 1) * time.Millisecond

// Timeout is a timer made by SetTimeout or SetInterval (Node's Timeout object). Its methods,
// and its fields, are for the loop goroutine only; the methods do nothing on a nil *Timeout.
type Timeout struct {
	loop      *Loop
	cb        func()
	after     time.Duration              // the coerced delay truncated to whole ms (its list's key); -1 once cleared (Node's _idleTimeout)
	entry     timers.ListEntry[*Timeout] // its place in Node's lists; Value is the Timeout
	repeat    bool
	refed     bool
	destroyed bool  // fired (one-shot) or cleared
	nesting   uint8 // the HTML timer nesting level, with WithTimerNestingClamp (saturates at 255)
}

// nodeTimers is Node's lib/internal/timers.js: the timer lists (timers.Lists) on top of one
// internal Timer handle. Loop goroutine only.
type nodeTimers struct {
	loop       *Loop
	handle     *Timer
	lists      timers.Lists[*Timeout] // by duration, in whole milliseconds (ns)
	nextExpiry int64                  // expiry the handle is armed for; maxInt64 while processing or idle
	refCount   int                    // ref'd timeouts not yet destroyed
	live       int                    // timeouts not yet destroyed (Metrics)
	clamp      bool                   // WithTimerNestingClamp; set by New
	level      uint8                  // the nesting level of the timeout whose callback runs; 0 outside
	slab       queue.Slab[Timeout]    // where SetTimeout's objects come from
}

const never = int64(^uint64(0) >> 1)

func (n *nodeTimers) init(l *Loop) {
	n.loop = l
	n.nextExpiry = never
	n.handle = l.NewTimer(n.run)
	n.handle.flags |= flagInternal
	n.handle.Unref()
}

// close clears every timeout still set, as ClearTimeout would (Loop.Close); the internal
// handle is the loop's own and Close closes it.
func (n *nodeTimers) close() {
	n.lists.RemoveAll(func(t *Timeout) {
		t.cb = nil
		n.unenroll(t)
	})
}

// freshNow is Node's getLibuvNow: it updates the cached loop time and returns it.
func (l *Loop) freshNow() int64 {
	l.UpdateTime()
	return l.now
}

// coerceDelay applies Node's rule: a delay below 1ms or above 2^31-1 ms becomes 1ms.
func coerceDelay(d time.Duration) time.Duration {
	if d < time.Millisecond || d > maxTimeout {
		return time.Millisecond
	}
	return d
}

// SetTimeout runs cb once, d from now (Node's setTimeout). A delay below 1ms or above
// 2^31-1 ms becomes 1ms; sub-millisecond parts are dropped.
//
// d is a time.Duration, not a number of milliseconds: SetTimeout(cb, 500) waits 500 ns,
// which becomes 1 ms. Node's setTimeout(cb, 500) is SetTimeout(cb, 500*time.Millisecond).
// cmd/uvgovet reports the bare number.
// Timeouts of one duration run in
// the order they were set; across durations by expiry. A timeout set from a timeout callback
// never runs in the same timers phase. A nil cb, or a closed loop, schedules nothing and
// returns nil.
func (l *Loop) SetTimeout(cb func(), d time.Duration) *Timeout {
	return l.newTimeout(cb, d, false)
}

// SetInterval runs cb every d (Node's setInterval), with SetTimeout's rules for d: d is a
// time.Duration, so write 100*time.Millisecond for Node's setInterval(cb, 100). The next
// run is measured from just before the callback started, so a slow callback does not push
// the schedule back by its own duration.
func (l *Loop) SetInterval(cb func(), d time.Duration) *Timeout {
	return l.newTimeout(cb, d, true)
}

func (l *Loop) newTimeout(cb func(), d time.Duration, repeat bool) *Timeout {
	l.checkOwner("SetTimeout/SetInterval")
	if cb == nil || l.closed {
		return nil
	}
	t := l.node.slab.New()
	*t = Timeout{loop: l, cb: cb, after: coerceDelay(d).Truncate(time.Millisecond), repeat: repeat, refed: true}
	t.entry.Value = t
	if l.node.clamp {
		l.node.nest(t, l.node.level)
	}
	l.node.live++
	l.node.incRef()
	l.node.insert(t, l.freshNow())
	return t
}

// ClearTimeout cancels t: its callback will not run again, also if it is due in the timers
// phase that is running now. Clearing nil or a cleared timeout does nothing.
func (l *Loop) ClearTimeout(t *Timeout) {
	l.checkOwner("ClearTimeout")
	if t == nil || t.loop != l || t.cb == nil {
		return
	}
	t.cb = nil
	l.node.unenroll(t)
}

// ClearInterval is ClearTimeout.
func (l *Loop) ClearInterval(t *Timeout) { l.ClearTimeout(t) }

// Ref makes t keep the loop alive (the default). It returns t.
func (t *Timeout) Ref() *Timeout {
	if t != nil {
		t.loop.checkOwner("Timeout.Ref")
	}
	if t != nil && !t.refed {
		t.refed = true
		if !t.destroyed {
			t.loop.node.incRef()
		}
	}
	return t
}

// Unref lets the loop end while t is pending. It returns t.
func (t *Timeout) Unref() *Timeout {
	if t != nil {
		t.loop.checkOwner("Timeout.Unref")
	}
	if t != nil && t.refed {
		t.refed = false
		if !t.destroyed {
			t.loop.node.decRef()
		}
	}
	return t
}

// HasRef reports whether t keeps the loop alive.
func (t *Timeout) HasRef() bool { return t != nil && t.refed }

// Refresh restarts t's countdown from now with its original delay, keeping its callback; a
// timeout that has already fired is scheduled again, a cleared one is not. It returns t.
func (t *Timeout) Refresh() *Timeout {
	if t == nil || t.after < 0 || t.loop.closed {
		return t
	}
	t.loop.checkOwner("Timeout.Refresh")
	n := &t.loop.node
	n.insert(t, t.loop.freshNow())
	if t.destroyed {
		t.destroyed = false
		n.live++
		if t.refed {
			n.incRef()
		}
	}
	return t
}

func (n *nodeTimers) incRef() {
	if n.refCount++; n.refCount == 1 {
		n.handle.Ref()
	}
}

func (n *nodeTimers) decRef() {
	if n.refCount--; n.refCount == 0 {
		n.handle.Unref()
	}
}

// insert appends t to the list of its duration, starting at start, creating the list (and
// arming the handle earlier) if needed.
func (n *nodeTimers) insert(t *Timeout, start int64) {
	if expiry, created := n.lists.Insert(&t.entry, int64(t.after), start); created && expiry < n.nextExpiry {
		n.arm(expiry)
	}
}

// unenroll takes t out of its list for good (Node's unenroll).
func (n *nodeTimers) unenroll(t *Timeout) {
	if !t.destroyed {
		t.destroyed = true
		n.live--
		if t.refed {
			n.decRef()
		}
	}
	n.lists.Remove(&t.entry)
	t.after = -1
}

// arm (re)starts the internal handle for an absolute expiry (Node's scheduleTimer).
func (n *nodeTimers) arm(expiry int64) {
	n.nextExpiry = expiry
	d := time.Duration(expiry - n.loop.now)
	if d <= 0 {
		d = time.Millisecond
	}
	n.handle.Start(d, 0)
}

// run is the internal handle's callback (Node's processTimers): every due list in (expiry,
// id) order, every due timeout of a list in insertion order. Whatever happens, even a panic
// in a callback, the handle is re-armed for the earliest list that remains.
func (n *nodeTimers) run(*Timer) {
	n.nextExpiry = never
	now := n.loop.freshNow()
	defer n.rearm(now)
	n.lists.Run(now, fireTimeout) // a plain function: a method value (n.fire) costs a thunk per call
}

// rearm arms the handle for the earliest list after run. A list still due at now is only
// left when a callback panicked: it is armed to be due at once, so that Run, called again,
// runs the rest of this timers phase before anything else, as Node's processTimers does
// after an uncaught exception.
func (n *nodeTimers) rearm(now int64) {
	switch expiry, ok := n.lists.Next(); {
	case !ok:
		n.nextExpiry = never
	case expiry <= now:
		n.nextExpiry = expiry
		n.handle.Start(0, 0)
	default:
		n.arm(expiry)
	}
}

// fireTimeout runs one due timeout; an interval goes back in its list, measured from before
// its callback, even if the callback panics.
func fireTimeout(t *Timeout) {
	n := &t.loop.node
	var start int64
	if t.repeat {
		start = n.loop.freshNow()
	}
	if n.clamp {
		n.level = t.nesting
	}
	defer func() {
		n.level = 0
		if t.repeat && t.after >= 0 {
			if n.clamp {
				n.nest(t, t.nesting) // an interval's next run is nested in this one
			}
			n.insert(t, start)
		} else if !t.entry.Listed() && !t.destroyed {
			t.destroyed = true
			n.live--
			if t.refed {
				n.decRef()
			}
		}
	}()
	cb := t.cb
	cb()
	n.loop.afterTask(cb)
}

// nestingClampMin and nestingClampLevel are the HTML standard's timer-nesting clamp: a
// timeout set at a nesting level above 5 waits at least 4 ms.
const (
	nestingClampMin   = 4 * time.Millisecond
	nestingClampLevel = 5
)

// nest applies the HTML timer initialization steps' nesting rule to t, set (or re-armed, for
// an interval) while a timeout of nesting level parent runs: above level 5 a delay below
// 4 ms becomes 4 ms, and t's level is parent+1.
func (n *nodeTimers) nest(t *Timeout, parent uint8) {
	if parent > nestingClampLevel && t.after < nestingClampMin {
		t.after = nestingClampMin
	}
	if parent < 255 {
		t.nesting = parent + 1
	}
}

// WithTimerNestingClamp turns on the HTML standard's timer-nesting clamp for SetTimeout and
// SetInterval: a timeout set from a timeout callback nested more than 5 levels deep (and each
// run of an interval after its sixth) waits at least 4 ms, as browsers do. Off by default, as
// in Node, which has no such clamp. For people who port browser code and want its timing.
func WithTimerNestingClamp() Option { return func(o *options) { o.nestingClamp = true } }

// Immediate is a callback queued by SetImmediate (Node's Immediate object). Its methods and
// fields are for the loop goroutine only; the methods do nothing on nil.
type Immediate struct {
	entry immediate.Immediate
	loop  *Loop
}

// SetImmediate queues cb for the check phase (Node's setImmediate). Immediates run in the
// order they were queued; one queued while immediates run waits for the next iteration. A
// ref'd immediate keeps the loop alive and keeps poll from blocking. A nil cb, or a closed
// loop, queues nothing and returns nil.
func (l *Loop) SetImmediate(cb func()) *Immediate {
	if cb == nil || l.closed {
		return nil
	}
	l.checkOwner("SetImmediate")
	im := l.immediateSlab.New()
	im.loop, im.entry.Fn = l, cb
	l.immediates.Push(&im.entry, true)
	return im
}

// ClearImmediate drops a queued immediate; it will not run, also if it is later in the batch
// running now. Clearing nil or an immediate that ran does nothing.
func (l *Loop) ClearImmediate(im *Immediate) {
	if im != nil && im.loop == l {
		l.checkOwner("ClearImmediate")
		l.immediates.Remove(&im.entry)
	}
}

// Ref makes the immediate keep the loop alive (the default). It returns im.
func (im *Immediate) Ref() *Immediate {
	if im != nil {
		im.loop.checkOwner("Immediate.Ref")
		im.loop.immediates.SetRef(&im.entry, true)
	}
	return im
}

// Unref lets the loop end while the immediate is queued. It returns im.
func (im *Immediate) Unref() *Immediate {
	if im != nil {
		im.loop.checkOwner("Immediate.Unref")
		im.loop.immediates.SetRef(&im.entry, false)
	}
	return im
}

// HasRef reports whether the immediate keeps the loop alive.
func (im *Immediate) HasRef() bool { return im != nil && im.entry.HasRef() }

// NextTick queues cb on Node's nextTick queue: it runs right after the current callback (or,
// before Run, when Run starts), before any promise reaction or microtask. A nil cb, or a
// closed loop, queues nothing.
func (l *Loop) NextTick(cb func()) {
	if cb != nil && !l.closed {
		l.checkOwner("NextTick")
		l.ticks.NextTick(cb)
	}
}

// QueueMicrotask queues cb on the microtask queue, which runs after the nextTick queue is
// empty. Promise reactions use the same queue. A nil cb, or a closed loop, queues nothing.
func (l *Loop) QueueMicrotask(cb func()) {
	if cb != nil && !l.closed {
		l.checkOwner("QueueMicrotask")
		l.ticks.QueueMicrotask(cb)
	}
}
