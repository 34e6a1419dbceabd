package tty

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// OpenPty opens a new pseudo-terminal: its master and its slave, both close-on-exec (for
// tests and for programs that drive a terminal).
func OpenPty() (master, slave int, err error) {
	m, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, -1, bare(err)
	}
	var unlock int32
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(m), unix.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		unix.Close(m)
		return -1, -1, e
	}
	n, err := unix.IoctlGetInt(m, unix.TIOCGPTN)
	if err != nil {
		unix.Close(m)
		return -1, -1, bare(err)
	}
	s, err := unix.Open("/dev/pts/"+itoa(n), unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		unix.Close(m)
		return -1, -1, bare(err)
	}
	return m, s, nil
}
