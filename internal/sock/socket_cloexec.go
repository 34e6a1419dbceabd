//go:build linux || freebsd || dragonfly

package sock

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// Socket creates a non-blocking, close-on-exec socket of family and typ in one system call.
func Socket(family, typ int) (int, error) {
	for {
		fd, err := unix.Socket(family, typ|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// Accept takes a connection from fd, a listening socket, as a non-blocking, close-on-exec
// socket (accept4). Without one waiting it fails with EAGAIN.
func Accept(fd int) (int, error) {
	for {
		nfd, err := accept4(fd, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
		if err != syscall.EINTR {
			return nfd, err
		}
	}
}
