package uvloop

import "github.com/uvgo/uvgo/internal/sock"

// DropReserveFd closes the fd the EMFILE trick holds in reserve, as when another thread
// takes the fd the trick freed; ReserveFdHeld reports whether the loop holds one.
func (l *Loop) DropReserveFd() {
	if s := &l.streams; s.reserved {
		sock.Close(s.reserveFd)
		s.reserved = false
	}
}

func (l *Loop) ReserveFdHeld() bool { return l.streams.reserved }

// AcceptsThroughRing reports whether the listener accepts through the io_uring backend's
// multishot accept rather than on readiness.
func (s *stream) AcceptsThroughRing() bool { return s.accepting() }
