//go:build netbsd || openbsd

package poller

import (
	"os"

	"golang.org/x/sys/unix"
)

var _ interface {
	wakeBackend
	isWakeEvent(*unix.Kevent_t) bool
} = (*Poller)(nil)

// wakeState is a non-blocking pipe whose read end is registered for EVFILT_READ.
type wakeState struct {
	r, w int      // the pipe's ends; Wake reads w under wakeMu
	buf  [64]byte // drainWake's buffer; loop goroutine only
}

// wakeByte is what wakeup writes. Read-only.
var wakeByte = [1]byte{1}

func (p *Poller) openWake() error {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
		return os.NewSyscallError("pipe2", err)
	}
	if err := p.apply(p.change(0, fds[0], unix.EVFILT_READ, unix.EV_ADD, 0)); err != nil {
		unix.Close(fds[0])
		unix.Close(fds[1])
		return err
	}
	p.w.r, p.w.w = fds[0], fds[1]
	return nil
}

func (p *Poller) wakeup() error {
	// EAGAIN means the pipe is full, so its read end is readable anyway.
	if _, err := unix.Write(p.w.w, wakeByte[:]); err != nil && err != unix.EAGAIN {
		return os.NewSyscallError("write", err)
	}
	return nil
}

func (p *Poller) drainWake() {
	for {
		n, err := unix.Read(p.w.r, p.w.buf[:])
		if err != nil || n < len(p.w.buf) {
			return
		}
	}
}

func (p *Poller) closeWake() error {
	err := unix.Close(p.w.r)
	if e := unix.Close(p.w.w); e != nil && err == nil {
		err = e
	}
	p.w.r, p.w.w = -1, -1
	if err != nil {
		return os.NewSyscallError("close", err)
	}
	return nil
}

func (p *Poller) wakeOwns(fd int) bool { return fd == p.w.r || fd == p.w.w }

func (p *Poller) isWakeEvent(kev *unix.Kevent_t) bool {
	return kev.Filter == unix.EVFILT_READ && int(kev.Ident) == p.w.r
}
