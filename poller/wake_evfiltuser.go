//go:build darwin || freebsd

package poller

import (
	"os"

	"golang.org/x/sys/unix"
)

var _ interface {
	wakeBackend
	isWakeEvent(*unix.Kevent_t) bool
} = (*Poller)(nil)

// wakeState is empty: the wake-up is an EVFILT_USER event of the kqueue itself, registered
// with EV_CLEAR so that retrieving it re-arms it. It has no descriptor.
type wakeState struct{}

// userIdent identifies the wake-up among EVFILT_USER events (their own name space, not fds).
const userIdent = 1

// userTrigger is the change list that fires the wake-up. Read-only after init: any number of
// Wakes hand it to the kernel at once.
var userTrigger = func() (t [1]unix.Kevent_t) {
	unix.SetKevent(&t[0], userIdent, unix.EVFILT_USER, 0)
	t[0].Fflags = unix.NOTE_TRIGGER
	return t
}()

func (p *Poller) openWake() error {
	return p.apply(p.change(0, userIdent, unix.EVFILT_USER, unix.EV_ADD|unix.EV_CLEAR, 0))
}

func (p *Poller) wakeup() error {
	if _, err := unix.Kevent(p.q.kq, userTrigger[:], nil, nil); err != nil {
		return os.NewSyscallError("kevent", err)
	}
	return nil
}

func (p *Poller) drainWake() {} // EV_CLEAR re-armed it when wait retrieved it

func (p *Poller) closeWake() error { return nil } // it goes with the kqueue

func (p *Poller) wakeOwns(fd int) bool { return false }

func (p *Poller) isWakeEvent(kev *unix.Kevent_t) bool {
	return kev.Filter == unix.EVFILT_USER && kev.Ident == userIdent
}
