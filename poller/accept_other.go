//go:build !linux

package poller

// Only the io_uring backend accepts for its caller.

func (p *Poller) canAccept() bool                      { return false }
func (p *Poller) acceptStart(fd int, tag uint32) error { return errBackend(BackendIOURing, nil) }
func (p *Poller) acceptStop(fd int) error              { return errBackend(BackendIOURing, nil) }
func (p *Poller) acceptForget(fd int) error            { return errBackend(BackendIOURing, nil) }
