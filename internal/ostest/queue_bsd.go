//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package ostest

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// KernelQueue creates the system's kernel event queue, empty, as a close-on-exec descriptor
// that the caller closes: a kqueue here.
func KernelQueue() (int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	fd, err := unix.Kqueue()
	if err == nil {
		unix.CloseOnExec(fd)
	}
	return fd, err
}
