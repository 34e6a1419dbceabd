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
)

var kindNames = [...]string{"unknown", "timer", "idle", "prepare", "check", "async", "poll", "udp", "tcp", "pipe"}

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
)

// handle is the part every handle kind embeds. Loop goroutine only.
type handle struct {
	loop       *Loop
	self       Handle // the embedding handle, for Walk
	kind       HandleKind
	flags      handleFlags
	closeCb    func()
	stopFn     func()  // the kind's own stop, run by Close; may be nil
	prev, next *handle // the loop's list of open handles
	nextClose  *handle // the loop's closing list (last closed first)
}

func (h *handle) init(l *Loop, self Handle, kind HandleKind, stop func()) {
	h.loop, h.self, h.kind, h.stopFn = l, self, kind, stop
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
	if h.flags&(flagClosing|flagClosed) != 0 || h.loop.closed {
		return ErrClosed
	}
	return nil
}

// Close stops the handle and schedules cb for the close phase.
func (h *handle) Close(cb func()) error {
	if h.flags&(flagClosing|flagClosed) != 0 {
		return errorf(ErrClosed, "%s handle is already closing", h.kind)
	}
	if h.loop.closed {
		return ErrClosed
	}
	if h.stopFn != nil {
		h.stopFn()
	}
	h.stop()
	h.flags |= flagClosing
	h.closeCb = cb
	h.nextClose = h.loop.closing
	h.loop.closing = h
	return nil
}

// finishClose is the close phase's work for one handle: take it out of the loop and run its
// callback.
func (h *handle) finishClose() {
	h.flags |= flagClosed
	h.loop.handles.remove(h)
	if cb := h.closeCb; cb != nil {
		h.closeCb = nil
		cb()
		h.loop.afterCallback()
	}
}

// handleList is the loop's doubly linked list of open handles (libuv's handle_queue), in
// creation order.
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
