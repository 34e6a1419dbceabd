package uvloop

// streamRare is the part of a stream that only listeners, connects, shutdowns, failed binds,
// OnDrain, TCP keep-alive and reads through the ring that stopped with bytes in flight use. It
// is allocated by rare the first time one of them needs it, so that an accepted connection
// that only reads and writes does not carry it: TCP is 160 bytes (a size class) instead of 320.
type streamRare struct {
	connCb     func(error) // Listen's callback
	connectCb  func(error)
	shutdownCb func(error)
	drainCb    func()     // OnDrain's callback
	delayedErr error      // a connect or bind error reported in the pending phase
	held       []byte     // ring.go: bytes read while the stream did not read (ring.hasHeld)
	heldErr    error      // ring.go: the read's error that ring.heldEnd, or the next end read, stands for
	sockErr    error      // ring.go: the socket's error a receive took where readiness leaves it in the socket, for the next send's EPIPE (sockErrFor) or end read (deliver)
	acc        ringAccept // ring_accept.go: a listener's accepts through the ring
	acceptedFd int        // a listener's connection accepted and not yet taken by Accept; -1 if none
	keepalive  int32      // TCP: SetKeepAlive's seconds before the first probe, 0: off
}

// rare returns s's rare part, allocating it at the first call.
func (s *stream) rare() *streamRare {
	if s.x == nil {
		s.x = &streamRare{acceptedFd: -1}
	}
	return s.x
}

// delayed returns the connect or bind error waiting for the pending phase, or nil.
func (s *stream) delayed() error {
	if s.x == nil {
		return nil
	}
	return s.x.delayedErr
}

// delayedRecvErr takes the read error held with ring.heldEnd (nil for the end of the stream).
func (s *stream) delayedRecvErr() error {
	if s.x == nil {
		return nil
	}
	err := s.x.heldErr
	s.x.heldErr = nil
	return err
}

// clearDelayed forgets the error delayed returns.
func (s *stream) clearDelayed() {
	if s.x != nil {
		s.x.delayedErr = nil
	}
}
