//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd

package poller

var (
	_ backend     = (*Poller)(nil)
	_ wakeBackend = (*Poller)(nil)
)

// queueState and wakeState are empty: no Poller is ever opened here.
type (
	queueState struct{}
	wakeState  struct{}
)

// Registration errors; unreachable, since no Poller is ever open here.
var (
	errBadFd    = ErrUnsupported
	errOwnFd    = ErrUnsupported
	errAdded    = ErrUnsupported
	errNotAdded = ErrUnsupported
)

func (p *Poller) open(b Backend) error                         { return ErrUnsupported }
func (p *Poller) register(fd int, ev Events, tag uint32) error { return ErrUnsupported }
func (p *Poller) update(fd int, ev Events, tag uint32) error   { return ErrUnsupported }
func (p *Poller) unregister(fd int) error                      { return ErrUnsupported }
func (p *Poller) wait(msec int) (int, bool, error)             { return 0, false, ErrUnsupported }
func (p *Poller) owns(fd int) bool                             { return false }
func (p *Poller) release() error                               { return ErrUnsupported }
func (p *Poller) openWake() error                              { return ErrUnsupported }
func (p *Poller) wakeup() error                                { return ErrUnsupported }
func (p *Poller) drainWake()                                   {}
func (p *Poller) closeWake() error                             { return ErrUnsupported }
func (p *Poller) wakeOwns(fd int) bool                         { return false }
