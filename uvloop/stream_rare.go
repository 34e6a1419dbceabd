package uvloop

// streamRare is the part of a stream that only listeners, connects, shutdowns and failed
// binds use. It is allocated by rare the first time one of them needs it, so that an accepted
// connection that only reads and writes does not carry it: 40 bytes less per connection,
// which takes TCP from the 320-byte size class to the 288-byte one.
type streamRare struct {
	connCb     func(error) // Listen's callback
	connectCb  func(error)
	shutdownCb func(error)
	delayedErr error // a connect or bind error reported in the pending phase
}

// rare returns s's rare part, allocating it at the first call.
func (s *stream) rare() *streamRare {
	if s.x == nil {
		s.x = new(streamRare)
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

// clearDelayed forgets the error delayed returns.
func (s *stream) clearDelayed() {
	if s.x != nil {
		s.x.delayedErr = nil
	}
}
