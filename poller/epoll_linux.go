package poller

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// epollState is the epoll backend's state.
type epollState struct {
	epfd   int                        // the epoll descriptor
	events [maxEvents]unix.EpollEvent // epoll_wait's output; loop goroutine only
}

// Registration errors, boxed once.
var (
	errBadFd    = os.NewSyscallError("epoll_ctl", unix.EBADF)
	errOwnFd    = os.NewSyscallError("epoll_ctl", unix.EINVAL)
	errAdded    = os.NewSyscallError("epoll_ctl", unix.EEXIST)
	errNotAdded = os.NewSyscallError("epoll_ctl", unix.ENOENT)
)

func (p *Poller) epollOpen() error {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return os.NewSyscallError("epoll_create1", err)
	}
	p.q.epoll.epfd = epfd
	p.kind = BackendEpoll
	if err := p.openWake(); err != nil {
		unix.Close(epfd)
		return err
	}
	return nil
}

// ctl calls epoll_ctl with fd in the low half of epoll_data and tag in the high half.
// EPOLLRDHUP (a peer's half-close, reported as Hangup) is asked for with Readable only: it
// concerns the reading side, and as a level-triggered condition it would otherwise end every
// Wait at once for an fd that waits to become writable.
func (p *Poller) ctl(op, fd int, ev Events, tag uint32) error {
	e := unix.EpollEvent{Fd: int32(fd), Pad: int32(tag)}
	if ev&Readable != 0 {
		e.Events |= unix.EPOLLIN | unix.EPOLLRDHUP
	}
	if ev&Writable != 0 {
		e.Events |= unix.EPOLLOUT
	}
	if err := unix.EpollCtl(p.q.epoll.epfd, op, fd, &e); err != nil {
		return os.NewSyscallError("epoll_ctl", err)
	}
	return nil
}

// epollAddWake registers the wake-up's eventfd for EPOLLIN, with its own number as data.
func (p *Poller) epollAddWake(fd int) error {
	e := unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fd)}
	if err := unix.EpollCtl(p.q.epoll.epfd, unix.EPOLL_CTL_ADD, fd, &e); err != nil {
		return os.NewSyscallError("epoll_ctl", err)
	}
	return nil
}

// An fd with no interest is kept out of the epoll set: epoll reports EPOLLHUP and EPOLLERR
// without being asked, so a hung-up fd with no interest would end every Wait at once.

func (p *Poller) epollRegister(fd int, ev Events, tag uint32) error {
	// Add even with no interest, so that an fd epoll cannot watch fails here as it would
	// with interest (EBADF, EPERM for a regular file).
	if err := p.ctl(unix.EPOLL_CTL_ADD, fd, ev, tag); err != nil {
		return err
	}
	if ev == 0 {
		return p.ctl(unix.EPOLL_CTL_DEL, fd, 0, 0)
	}
	return nil
}

func (p *Poller) epollUpdate(fd int, ev Events, tag uint32) error {
	switch old := p.fds.Load(fd).interest; {
	case old == 0 && ev == 0:
		return nil // only the tag changed, and the kernel does not hold it
	case old == 0:
		return p.ctl(unix.EPOLL_CTL_ADD, fd, ev, tag)
	case ev == 0:
		return p.ctl(unix.EPOLL_CTL_DEL, fd, 0, 0)
	default:
		return p.ctl(unix.EPOLL_CTL_MOD, fd, ev, tag)
	}
}

func (p *Poller) epollUnregister(fd int) error {
	if p.fds.Load(fd).interest == 0 {
		return nil
	}
	return p.ctl(unix.EPOLL_CTL_DEL, fd, 0, 0)
}

// wait reports what is ready, waiting up to msec (-1: forever). With msec 0 it asks the
// kernel through a raw system call that leaves the Go scheduler out (it cannot block);
// otherwise it makes the blocking call, around which the runtime may hand this thread's
// processor to another thread and take it back. The loop looks with a zero timeout before it
// blocks, so a busy loop rarely pays for that hand-off, and a sleep costs one call, not two.
func (p *Poller) epollWait(msec int) (int, bool, error) {
	var n int
	var err error
	if msec == 0 {
		n, err = p.epollPoll()
	} else {
		n, err = unix.EpollWait(p.q.epoll.epfd, p.q.epoll.events[:], msec)
	}
	if err != nil {
		if err == unix.EINTR {
			return 0, false, ErrInterrupted
		}
		return 0, false, os.NewSyscallError("epoll_wait", err)
	}
	k, woke := 0, false
	for i := range n {
		e := &p.q.epoll.events[i]
		fd := int(e.Fd)
		if p.wakeOwns(fd) {
			p.consumeWake()
			woke = true
			continue
		}
		var ev Events
		if e.Events&unix.EPOLLIN != 0 {
			ev |= Readable
		}
		if e.Events&unix.EPOLLOUT != 0 {
			ev |= Writable
		}
		if e.Events&(unix.EPOLLRDHUP|unix.EPOLLHUP) != 0 {
			ev |= Hangup
		}
		if e.Events&unix.EPOLLERR != 0 {
			ev |= Error
		}
		if e.Events&(unix.EPOLLHUP|unix.EPOLLERR) != 0 {
			ev |= p.fds.Load(fd).interest // let the callback read the EOF or write into the error
		}
		p.out[k] = Event{Fd: e.Fd, Tag: uint32(e.Pad), Events: ev}
		k++
	}
	return k, woke, nil
}

// poll is epoll_wait with a zero timeout, as a raw system call: it cannot block.
func (p *Poller) epollPoll() (int, error) {
	r, _, errno := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(p.q.epoll.epfd),
		uintptr(unsafe.Pointer(&p.q.epoll.events[0])), uintptr(len(p.q.epoll.events)), 0, 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(r), nil
}

func (p *Poller) epollRelease() error {
	err := p.closeWake()
	if e := unix.Close(p.q.epoll.epfd); e != nil && err == nil {
		err = os.NewSyscallError("close", e)
	}
	p.q.epoll.epfd = -1
	return err
}
