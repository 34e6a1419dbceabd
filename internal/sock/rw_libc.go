//go:build darwin || openbsd

package sock

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// Read, Write and Writev are read(2), write(2) and writev(2) through libc, the only way on
// these systems.

// IOVecs is Writev's scratch where it needs one; here x/sys/unix builds the iovecs itself.
type IOVecs struct{}

// Read reads into p; on error it returns 0 and the errno (EAGAIN: nothing to read).
func Read(fd int, p []byte) (int, error) {
	for {
		n, err := unix.Read(fd, p)
		if err == nil {
			return n, nil
		}
		if err != syscall.EINTR {
			return 0, err
		}
	}
}

// Write writes p; on error it returns 0 and the errno (EAGAIN: the socket is full).
func Write(fd int, p []byte) (int, error) {
	for {
		n, err := unix.Write(fd, p)
		if err == nil {
			return n, nil
		}
		if err != syscall.EINTR {
			return 0, err
		}
	}
}

// Writev writes bufs with one writev(2); on error it returns 0 and the errno.
func Writev(fd int, bufs [][]byte, _ *IOVecs) (int, error) {
	for {
		n, err := unix.Writev(fd, bufs)
		if err == nil {
			return n, nil
		}
		if err != syscall.EINTR {
			return 0, err
		}
	}
}
