package nodenet

import "github.com/uvgo/uvgo/uvloop"

// Wrap makes a Socket of h, a connected TCP or Pipe stream obtained elsewhere (an
// upgraded HTTP connection, say): reading starts at once, as for a socket a Server
// accepted, and the Socket owns h from now on.
func Wrap(l *uvloop.Loop, h uvloop.Stream, allowHalfOpen bool) *Socket {
	s := newSocket(l)
	s.setHandle(h)
	s.AllowHalfOpen = allowHalfOpen
	s.startReading()
	return s
}
