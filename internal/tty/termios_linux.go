package tty

import "golang.org/x/sys/unix"

func getTermios(fd int) (*unix.Termios, error) {
	for {
		t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		if err != unix.EINTR {
			return t, bare(err)
		}
	}
}

func setTermios(fd int, t *unix.Termios) error {
	for {
		// TCSETSW: after the output already written has been sent (TCSADRAIN), as libuv.
		err := unix.IoctlSetTermios(fd, unix.TCSETSW, t)
		if err != unix.EINTR {
			return bare(err)
		}
	}
}

// ttyName is the terminal's path, read from /proc/self/fd.
func ttyName(fd int) (string, error) {
	buf := make([]byte, 256)
	for {
		n, err := unix.Readlink("/proc/self/fd/"+itoa(fd), buf)
		if err != nil {
			return "", bare(err)
		}
		if n < len(buf) {
			path := string(buf[:n])
			if len(path) < 5 || path[:5] != "/dev/" {
				return "", unix.ENOTTY
			}
			if isMaster(path) {
				return "", unix.ENOTTY // reopening a pty master makes a new pair
			}
			return path, nil
		}
		buf = make([]byte, 2*len(buf))
	}
}

func isMaster(path string) bool { return path == "/dev/ptmx" }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
