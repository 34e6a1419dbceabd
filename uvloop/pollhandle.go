package uvloop

import (
	"os"
	"syscall"

	"github.com/uvgo/uvgo/internal/sock"
)

// Poll watches a file descriptor that the caller owns for readability and writability
// (uv_poll_t). The callback gets the events that are ready; it is level-triggered, so it runs
// again every iteration while the condition holds. Hangup is reported when the peer hung up
// (also without asking for it), and err is non-nil when the fd is in an error state (then the
// handle stops). The caller keeps ownership of the fd: Close the handle before closing the fd
// (Close stops watching and forgets the fd at once, and works even if the fd was closed
// first). On io_uring an fd closed under an active handle stays open in the kernel (the
// poll request holds it: its peer sees no end of stream) until the handle stops, and the
// handle may hear once of the old file's readiness. On io_uring the callback may also run
// once for a readiness the kernel announced that the fd does not have (an urgent byte alone
// on a TCP socket wakes it as readable); the read then finds EAGAIN, which a poll handle's
// owner must expect anyway, as libuv says. Loop goroutine only.
type Poll struct {
	handle
	io ioWatcher // loop goroutine only, as every field
	cb func(p *Poll, events Events, err error)
}

// NewPoll creates a poll handle for fd. It fails with ErrBadFd for a negative fd, ErrFdInUse
// if another handle of this loop watches fd, ErrNilCallback without a callback and ErrClosed
// on a closed loop.
func (l *Loop) NewPoll(fd int, cb func(p *Poll, events Events, err error)) (*Poll, error) {
	if l.closed {
		return nil, ErrClosed
	}
	if cb == nil {
		return nil, ErrNilCallback
	}
	p := &Poll{cb: cb}
	if err := l.io.attach(&p.io, fd, p.ready); err != nil {
		return nil, err
	}
	p.handle.init(l, p, KindPoll)
	return p, nil
}

// Fd returns the watched file descriptor.
func (p *Poll) Fd() int { return p.io.fd }

// Start sets the events to watch for (Readable, Writable or both), replacing the previous set.
// Start(0) is the same as Stop.
func (p *Poll) Start(events Events) error {
	if err := p.usable(); err != nil {
		return err
	}
	events &= Readable | Writable
	if events == 0 {
		p.stopPoll()
		return nil
	}
	p.loop.io.stop(&p.io, (Readable|Writable)&^events)
	p.loop.io.start(&p.io, events)
	p.handle.start()
	return nil
}

// Stop stops watching; the fd stays open, and the poller lets go of it at once, so that the
// caller may close it next.
func (p *Poll) Stop() error {
	p.stopPoll()
	return nil
}

func (p *Poll) stopPoll() {
	p.loop.io.stopNow(p.loop.poller, &p.io)
	p.handle.stop()
}

// closeStart stops watching and forgets the fd, which the caller owns; it works even if the
// fd was closed first (the poller then forgets it regardless).
func (p *Poll) closeStart() {
	p.stopPoll()
	p.loop.io.detach(p.loop.poller, &p.io)
}

func (p *Poll) closeFinish() {}

func (p *Poll) ready(events Events, err error) {
	if events&Error != 0 {
		p.stopPoll()
		if err == nil {
			err = p.fdError()
		}
		p.cb(p, events, err)
		return
	}
	p.cb(p, events, nil)
}

// fdError is the pending error of a socket, or EBADF-like EIO for anything else.
func (p *Poll) fdError() error {
	if v, err := sock.SocketError(p.io.fd); err == nil && v != 0 {
		return os.NewSyscallError("poll", v)
	}
	return os.NewSyscallError("poll", syscall.EIO)
}
