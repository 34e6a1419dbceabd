//go:build linux

package poller

import (
	"encoding/binary"
	"os"

	"golang.org/x/sys/unix"
)

var _ wakeBackend = (*Poller)(nil)

// wakeState is an eventfd, watched for reading by the backend (addWake): registered for
// EPOLLIN with its own number as epoll_data, or polled by a one-shot poll request on the ring.
type wakeState struct {
	fd  int     // the eventfd; read by Wake under wakeMu
	buf [8]byte // drainWake's buffer; loop goroutine only
}

// eventfdOne is what wakeup writes: the counter increment 1, in host byte order. Read-only.
var eventfdOne = func() (b [8]byte) {
	binary.NativeEndian.PutUint64(b[:], 1)
	return b
}()

func (p *Poller) openWake() error {
	fd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		return os.NewSyscallError("eventfd", err)
	}
	if err := p.addWake(fd); err != nil {
		unix.Close(fd)
		return err
	}
	p.w.fd = fd
	return nil
}

func (p *Poller) wakeup() error {
	// EAGAIN would mean the counter is full, so the eventfd is readable anyway.
	if _, err := unix.Write(p.w.fd, eventfdOne[:]); err != nil && err != unix.EAGAIN {
		return os.NewSyscallError("write", err)
	}
	return nil
}

func (p *Poller) drainWake() {
	// One read resets the counter to zero; EAGAIN means there was nothing to drain.
	unix.Read(p.w.fd, p.w.buf[:])
}

func (p *Poller) closeWake() error {
	err := unix.Close(p.w.fd)
	p.w.fd = -1
	if err != nil {
		return os.NewSyscallError("close", err)
	}
	return nil
}

func (p *Poller) wakeOwns(fd int) bool { return fd == p.w.fd }
