//go:build darwin || netbsd || openbsd

package sock

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// These systems lack SOCK_CLOEXEC, or x/sys/unix lacks accept4 for them: the descriptor is
// marked close-on-exec under syscall.ForkLock, so that a concurrent fork cannot inherit it
// first (as package net does), and then made non-blocking.

// Socket creates a non-blocking, close-on-exec socket of family and typ.
func Socket(family, typ int) (int, error) {
	for {
		syscall.ForkLock.RLock()
		fd, err := unix.Socket(family, typ, 0)
		if err == nil {
			unix.CloseOnExec(fd)
		}
		syscall.ForkLock.RUnlock()
		if err == nil {
			return nonblock(fd)
		}
		if err != syscall.EINTR {
			return -1, err
		}
	}
}

// Accept takes a connection from fd, a listening socket, as a non-blocking, close-on-exec
// socket. Without one waiting it fails with EAGAIN.
func Accept(fd int) (int, error) {
	for {
		syscall.ForkLock.RLock()
		nfd, _, err := unix.Accept(fd)
		if err == nil {
			unix.CloseOnExec(nfd)
		}
		syscall.ForkLock.RUnlock()
		if err == nil {
			return nonblock(nfd)
		}
		if err != syscall.EINTR {
			return -1, err
		}
	}
}

// nonblock makes a new descriptor non-blocking, or closes it.
func nonblock(fd int) (int, error) {
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}
