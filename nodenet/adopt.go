package nodenet

import "github.com/uvgo/uvgo/uvloop"

// NewSocket wraps an open stream — a child's stdio pipe, a TTY, a pipe or socket on fd 0-2 —
// in a Socket, as Node's new net.Socket({handle, readable, writable}) does. A readable socket
// starts reading at once (the bytes wait in the socket until it flows); one that is not
// readable has its readable side ended from the start (it never emits "end"), and one that
// is not writable its writable side (Write fails with ErrWriteAfterEnd). The socket is
// destroyed once both sides are done. Close of the socket's handle is the socket's.
func NewSocket(l *uvloop.Loop, h uvloop.Stream, readable, writable bool) *Socket {
	s := newSocket(l)
	s.setHandle(h)
	if !writable {
		s.ending, s.finalCalled, s.finished = true, true, true
	}
	if readable {
		s.startReading()
	} else {
		s.readEnded, s.endEmitted = true, true
	}
	return s
}
