//go:build darwin || netbsd || openbsd

package uvloop

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// newSocket creates a non-blocking, close-on-exec socket. These systems lack SOCK_CLOEXEC
// (or x/sys/unix lacks it for them): ForkLock keeps a concurrent fork from inheriting the
// fd before it is marked, as package net does.
func newSocket(domain, typ int) (int, error) {
	syscall.ForkLock.RLock()
	fd, err := unix.Socket(domain, typ, 0)
	if err == nil {
		unix.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// accept takes a connection as a non-blocking, close-on-exec socket.
func accept(fd int) (int, error) {
	syscall.ForkLock.RLock()
	nfd, _, err := unix.Accept(fd)
	if err == nil {
		unix.CloseOnExec(nfd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, err
	}
	if err := unix.SetNonblock(nfd, true); err != nil {
		unix.Close(nfd)
		return -1, err
	}
	return nfd, nil
}
