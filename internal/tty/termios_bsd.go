//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package tty

import "golang.org/x/sys/unix"

func getTermios(fd int) (*unix.Termios, error) {
	for {
		t, err := unix.IoctlGetTermios(fd, unix.TIOCGETA)
		if err != unix.EINTR {
			return t, bare(err)
		}
	}
}

func setTermios(fd int, t *unix.Termios) error {
	for {
		err := unix.IoctlSetTermios(fd, unix.TIOCSETAW, t)
		if err != unix.EINTR {
			return bare(err)
		}
	}
}

// ttyName: no reopen on these systems; the fd itself is used.
func ttyName(fd int) (string, error) { return "", unix.ENOTSUP }
