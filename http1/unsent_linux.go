package http1

import "golang.org/x/sys/unix"

// socketUnsent is what the socket fd holds that its peer has not acknowledged (SIOCOUTQ;
// for a Unix socket, what the peer has not read), or 0 if the system does not say.
func socketUnsent(fd int) int {
	n, err := unix.IoctlGetInt(fd, unix.SIOCOUTQ)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
