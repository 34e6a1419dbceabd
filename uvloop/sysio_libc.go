//go:build darwin || openbsd

package uvloop

import "golang.org/x/sys/unix"

// sysRead and sysWrite are read(2) and write(2) through libc, the only way on these systems.
// On error they return 0 and the errno.
func sysRead(fd int, p []byte) (int, error) {
	n, err := unix.Read(fd, p)
	if err != nil {
		return 0, err
	}
	return n, nil
}

func sysWrite(fd int, p []byte) (int, error) {
	n, err := unix.Write(fd, p)
	if err != nil {
		return 0, err
	}
	return n, nil
}
