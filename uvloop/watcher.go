package uvloop

// Idle, Prepare and Check handles are libuv's loop watchers: each runs its callback once per
// iteration in its phase while it is active. In a phase the most recently started handle runs
// first; a handle started during its phase waits for the next iteration, and one stopped
// during its phase before its turn does not run.

// watcher is a node of a phase's list. Loop goroutine only, as everything in this file.
type watcher struct {
	prev, next *watcher
	list       *watcherList // the list it is in; nil when stopped
	fire       func()
}

// watcherList is one phase's handles, most recently started first. run walks it with a cursor
// kept in the list, so a start during the phase (which inserts at the head, behind the
// cursor) waits a turn and a stop of the handle under the cursor moves the cursor on.
type watcherList struct {
	head   *watcher
	cursor *watcher // the next to run while run is running; nil otherwise
	loop   *Loop    // set by New
	phase  Phase    // the phase the list runs in, for Metrics; set by New
}

func (q *watcherList) init(l *Loop, p Phase) { q.loop, q.phase = l, p }

func (q *watcherList) empty() bool { return q.head == nil }

func (q *watcherList) insert(w *watcher) {
	w.prev, w.next, w.list = nil, q.head, q
	if q.head != nil {
		q.head.prev = w
	}
	q.head = w
}

func (q *watcherList) remove(w *watcher) {
	if q.cursor == w {
		q.cursor = w.next
	}
	if w.prev != nil {
		w.prev.next = w.next
	} else {
		q.head = w.next
	}
	if w.next != nil {
		w.next.prev = w.prev
	}
	w.prev, w.next, w.list = nil, nil, nil
}

func (q *watcherList) run() {
	if q.head == nil {
		return
	}
	q.loop.enter(q.phase)
	q.cursor = q.head
	defer func() { q.cursor = nil }() // also when a callback panics
	for q.cursor != nil {
		w := q.cursor
		q.cursor = w.next
		w.fire()
	}
	q.loop.endPhase()
}

// loopWatcher is what Idle, Prepare and Check share.
type loopWatcher struct {
	handle
	w    watcher
	list *watcherList
}

func (lw *loopWatcher) init(l *Loop, self Handle, kind HandleKind, list *watcherList, fire func()) {
	lw.list = list
	lw.w.fire = fire
	lw.handle.init(l, self, kind)
}

func (lw *loopWatcher) start(cbNil bool) error {
	if err := lw.usable(); err != nil {
		return err
	}
	if cbNil {
		return ErrNilCallback
	}
	if lw.w.list != nil {
		return nil // already started: like libuv, a no-op
	}
	lw.list.insert(&lw.w)
	lw.handle.start()
	return nil
}

func (lw *loopWatcher) stopWatching() {
	if lw.w.list != nil {
		lw.list.remove(&lw.w)
		lw.handle.stop()
	}
}

func (lw *loopWatcher) closeStart()  { lw.stopWatching() }
func (lw *loopWatcher) closeFinish() {}

// Idle runs its callback once per iteration, before prepare, and while any Idle is active the
// poll phase does not block. Loop goroutine only.
type Idle struct {
	loopWatcher
	cb func(*Idle)
}

// NewIdle creates an idle handle; Start starts it.
func (l *Loop) NewIdle(cb func(*Idle)) *Idle {
	h := &Idle{cb: cb}
	h.init(l, h, KindIdle, &l.idle, h.fire)
	return h
}

func (h *Idle) fire() {
	h.cb(h)
	h.loop.afterTask(h.cb)
}

// Start starts the handle; starting an active handle does nothing. It fails with ErrClosed
// on a closing handle and ErrNilCallback if the handle has no callback.
func (h *Idle) Start() error { return h.start(h.cb == nil) }

// Stop stops the handle; stopping a stopped handle does nothing.
func (h *Idle) Stop() error { h.stopWatching(); return nil }

// Prepare runs its callback once per iteration, right before the poll phase. Loop goroutine
// only.
type Prepare struct {
	loopWatcher
	cb func(*Prepare)
}

// NewPrepare creates a prepare handle; Start starts it.
func (l *Loop) NewPrepare(cb func(*Prepare)) *Prepare {
	h := &Prepare{cb: cb}
	h.init(l, h, KindPrepare, &l.prepare, h.fire)
	return h
}

func (h *Prepare) fire() {
	h.cb(h)
	h.loop.afterTask(h.cb)
}

// Start starts the handle; starting an active handle does nothing. It fails with ErrClosed
// on a closing handle and ErrNilCallback if the handle has no callback.
func (h *Prepare) Start() error { return h.start(h.cb == nil) }

// Stop stops the handle; stopping a stopped handle does nothing.
func (h *Prepare) Stop() error { h.stopWatching(); return nil }

// Check runs its callback once per iteration, right after the poll phase (and before the
// immediates of that check phase). Loop goroutine only.
type Check struct {
	loopWatcher
	cb func(*Check)
}

// NewCheck creates a check handle; Start starts it.
func (l *Loop) NewCheck(cb func(*Check)) *Check {
	h := &Check{cb: cb}
	h.init(l, h, KindCheck, &l.check, h.fire)
	return h
}

func (h *Check) fire() {
	h.cb(h)
	h.loop.afterTask(h.cb)
}

// Start starts the handle; starting an active handle does nothing. It fails with ErrClosed
// on a closing handle and ErrNilCallback if the handle has no callback.
func (h *Check) Start() error { return h.start(h.cb == nil) }

// Stop stops the handle; stopping a stopped handle does nothing.
func (h *Check) Stop() error { h.stopWatching(); return nil }
