//go:build !linux

package poller

// Only the io_uring backend reads for its caller.

func (p *Poller) canRecv() bool                      { return false }
func (p *Poller) recvLimit() int                     { return 0 }
func (p *Poller) recvStart(fd int, tag uint32) error { return errBackend(BackendIOURing, nil) }
func (p *Poller) recvStop(fd int) error              { return errBackend(BackendIOURing, nil) }
func (p *Poller) recvForget(fd int) (bool, error)    { return false, errBackend(BackendIOURing, nil) }
func (p *Poller) recvBuf(bid uint16, n int) []byte   { return nil }
func (p *Poller) rebind() error                      { return nil }
func (p *Poller) unbind()                            {}
