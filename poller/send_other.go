//go:build !linux

package poller

// Only the io_uring backend writes for its caller.

func (p *Poller) canSend() bool { return false }
func (p *Poller) send(fd int, bufs [][]byte, tag uint32) error {
	return errBackend(BackendIOURing, nil)
}
func (p *Poller) sendQueued() bool                     { return false }
func (p *Poller) submit() ([]Event, error)             { return nil, nil }
func (p *Poller) sendForget(fd int) (int, bool, error) { return 0, false, nil }
