package uvloop

// Handle is what every handle of the loop (Timer, Idle, Prepare, Check, Async, Poll, ...)
// has in common. All its methods are for the loop goroutine only.
type Handle interface {
	// Loop returns the loop the handle belongs to.
	Loop() *Loop
	// Close stops the handle and schedules cb (which may be nil) for the close phase of the
	// current or next iteration. The handle keeps the loop alive until cb has run. Closing a
	// handle that is already closing or closed returns an error wrapping ErrClosed.
	Close(cb func()) error
	// Ref makes an active handle keep the loop alive (the default). Idempotent.
	Ref()
	// Unref stops an active handle from keeping the loop alive. Idempotent.
	Unref()
	// HasRef reports whether the handle is ref'd.
	HasRef() bool
	// IsActive reports whether the handle is started (what that means depends on the kind).
	IsActive() bool
	// IsClosing reports whether Close was called (also once the close callback has run).
	IsClosing() bool

	// Kind tells what kind of handle it is.
	Kind() HandleKind

	base() *handle
	closer
}

// closer is the one way a handle kind hooks its close, as libuv's uv_close and
// uv__finish_close switch on the handle type. Every kind defines both methods (the shared
// handle defines neither, so a kind that forgets one does not compile).
type closer interface {
	// closeStart is the kind's part of Close, run before the handle joins the closing list:
	// stop what the kind started and release what must go at once (an fd leaves the poller
	// and is closed now, so that it can be reused). A kind that must wait for something before
	// its close can complete (FSPoll's stat in flight) sets flagDeferred here and calls
	// closePending once that is done.
	closeStart()
	// closeFinish is the kind's part of the close phase, run before the handle leaves the
	// loop and its close callback runs: it completes the requests still in flight (with
	// ECANCELED). It must be resumable: if a callback it runs panics, the handle stays in the
	// closing list and closeFinish runs again, to finish the rest, in the next close phase.
	closeFinish()
}

// HandleKind tells the kinds of handle apart, as uv_handle_type does.
type HandleKind uint8

// The kinds of handle.
const (
	KindTimer HandleKind = iota + 1
	KindIdle
	KindPrepare
	KindCheck
	KindAsync
	KindPoll
	KindUDP
	KindTCP
	KindPipe
	KindFSEvent
	KindFSPoll
	KindSignal
	KindProcess
	KindTTY
)

var kindNames = [...]string{"unknown", "timer", "idle", "prepare", "check", "async", "poll", "udp", "tcp", "pipe", "fs_event", "fs_poll", "signal", "process", "tty"}

// String returns the kind's name: "timer", "idle", ...
func (k HandleKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return kindNames[0]
}

type handleFlags uint8

const (
	flagActive   handleFlags = 1 << iota // started
	flagRef                              // keeps the loop alive while active
	flagClosing                          // Close called; in the closing list
	flagClosed                           // close callback ran; out of the handle list
	flagInternal                         // the loop's own (Node timers, immediates): not walked, closed by Loop.Close
	flagDeferred                         // set by closeStart: the kind calls closePending when it is ready (uv__fs_poll_close)
)

// handle is the part every handle kind embeds. Every field is for the loop goroutine only.
type handle struct {
	loop       *Loop
	self       Handle // the embedding handle: Walk hands it out, Close calls its closer methods
	kind       HandleKind
	flags      handleFlags
	closeCb    func()  // Close's callback, until the close phase runs it
	prev, next *handle // the loop's list of open handles
	nextClose  *handle // the loop's closing list (last closed first)
}

func (h *handle) init(l *Loop, self Handle, kind HandleKind) {
	l.checkOwner("a handle's New")
	h.loop, h.self, h.kind = l, self, kind
	h.flags = flagRef
	if l.closed { // a handle of a closed loop is born closed and never joins the list
		h.flags |= flagClosed
		return
	}
	l.handles.push(h)
}

func (h *handle) base() *handle { return h }

// Kind tells what kind of handle it is.
func (h *handle) Kind() HandleKind { return h.kind }

// Loop returns the loop the handle belongs to.
func (h *handle) Loop() *Loop { return h.loop }

// HasRef reports whether the handle is ref'd.
func (h *handle) HasRef() bool { return h.flags&flagRef != 0 }

// IsActive reports whether the handle is started.
func (h *handle) IsActive() bool { return h.flags&flagActive != 0 }

// IsClosing reports whether Close was called on the handle.
func (h *handle) IsClosing() bool { return h.flags&(flagClosing|flagClosed) != 0 }

// Ref makes the handle keep the loop alive while it is active.
func (h *handle) Ref() {
	h.loop.checkOwner("Ref")
	if h.flags&flagRef != 0 {
		return
	}
	h.flags |= flagRef
	if h.flags&flagActive != 0 {
		h.loop.activeRefs++
	}
}

// Unref stops the handle from keeping the loop alive.
func (h *handle) Unref() {
	h.loop.checkOwner("Unref")
	if h.flags&flagRef == 0 {
		return
	}
	h.flags &^= flagRef
	if h.flags&flagActive != 0 {
		h.loop.activeRefs--
	}
}

// start marks the handle active, as uv__handle_start does.
func (h *handle) start() {
	h.loop.checkOwner("a handle's Start")
	if h.flags&flagActive != 0 {
		return
	}
	h.flags |= flagActive
	if h.flags&flagRef != 0 {
		h.loop.activeRefs++
	}
}

// stop marks the handle inactive, as uv__handle_stop does.
func (h *handle) stop() {
	h.loop.checkOwner("a handle's Stop")
	if h.flags&flagActive == 0 {
		return
	}
	h.flags &^= flagActive
	if h.flags&flagRef != 0 {
		h.loop.activeRefs--
	}
}

// usable returns ErrClosed for a closing or closed handle or a closed loop.
func (h *handle) usable() error {
	h.loop.checkOwner("a handle method")
	if h.flags&(flagClosing|flagClosed) != 0 || h.loop.closed {
		return ErrClosed
	}
	return nil
}

// Close stops the handle and schedules cb for the close phase (uv_close). What the kind
// releases at once and what it completes in the close phase, before cb, is the kind's
// closeStart and closeFinish.
func (h *handle) Close(cb func()) error {
	h.loop.checkOwner("Close")
	if h.flags&(flagClosing|flagClosed) != 0 {
		return errorf(ErrClosed, "%s handle is already closing", h.kind)
	}
	if h.loop.closed {
		return ErrClosed
	}
	h.self.closeStart()
	h.stop()
	h.flags |= flagClosing
	h.closeCb = cb
	if h.flags&flagDeferred == 0 {
		h.closePending()
	}
	return nil
}

// closePending puts a closing handle on the loop's closing list (uv__make_close_pending): at
// once from Close, or later from a kind whose closeStart set flagDeferred, when what it
// waited for is done.
func (h *handle) closePending() {
	h.flags &^= flagDeferred
	h.nextClose = h.loop.closing
	h.loop.closing = h
}

// finishClose is the close phase's work for one handle (uv__finish_close): the kind completes
// what is in flight, then the handle leaves the loop, unref'd (HasRef is false from the close
// callback on), and its callback runs. If the kind's part panics, the handle is not closed
// yet: runClosing keeps it for the next close phase.
func (h *handle) finishClose() {
	h.self.closeFinish()
	h.flags |= flagClosed
	h.flags &^= flagRef
	h.loop.handles.remove(h)
	if cb := h.closeCb; cb != nil {
		h.closeCb = nil
		cb()
		h.loop.afterTask(cb)
	}
}

// handleList is the loop's doubly linked list of open handles (libuv's handle_queue), in
// creation order. Loop goroutine only.
type handleList struct {
	head, tail *handle
	n          int
}

func (q *handleList) push(h *handle) {
	h.prev, h.next = q.tail, nil
	if q.tail != nil {
		q.tail.next = h
	} else {
		q.head = h
	}
	q.tail = h
	q.n++
}

func (q *handleList) remove(h *handle) {
	if h.prev != nil {
		h.prev.next = h.next
	} else {
		q.head = h.next
	}
	if h.next != nil {
		h.next.prev = h.prev
	} else {
		q.tail = h.prev
	}
	h.prev, h.next = nil, nil
	q.n--
}
