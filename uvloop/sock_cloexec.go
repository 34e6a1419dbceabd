//go:build linux || freebsd

package uvloop

import "golang.org/x/sys/unix"

// newSocket creates a non-blocking, close-on-exec socket in one system call.
func newSocket(domain, typ int) (int, error) {
	for {
		fd, err := unix.Socket(domain, typ|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// accept takes a connection as a non-blocking, close-on-exec socket (accept4).
func accept(fd int) (int, error) {
	nfd, _, err := unix.Accept4(fd, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
	return nfd, err
}
