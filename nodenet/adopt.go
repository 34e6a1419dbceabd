package nodenet

import "github.com/uvgo/uvgo/uvloop"

// SocketOptions are NewSocket's: Node's net.Socket options for a socket over a handle.
type SocketOptions struct {
	// Readable: the socket reads the stream. Otherwise its readable side is ended from the
	// start (it never emits "end").
	Readable bool
	// Writable: the socket writes the stream. Otherwise its writable side is ended from the
	// start (Write fails with ErrWriteAfterEnd).
	Writable bool
	// ManualStart: a readable socket starts reading only when it flows (a "data" listener,
	// Resume), as Node's process.stdin does; otherwise at once, its bytes waiting in the
	// socket until it flows.
	ManualStart bool
}

// NewSocket wraps an open stream — a child's stdio pipe, a TTY, a pipe or socket on fd 0-2 —
// in a Socket, as Node's new net.Socket({handle, readable, writable}) does. The socket is
// destroyed once both sides are done; the handle is the socket's, closed with it.
func NewSocket(l *uvloop.Loop, h uvloop.Stream, opts SocketOptions) *Socket {
	s := newSocket(l)
	s.setHandle(h)
	if !opts.Writable {
		s.ending, s.finalCalled, s.finished = true, true, true
	}
	switch {
	case !opts.Readable:
		s.readEnded, s.endEmitted = true, true
	case !opts.ManualStart:
		s.startReading()
	}
	return s
}
