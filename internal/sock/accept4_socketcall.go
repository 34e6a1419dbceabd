//go:build linux && (386 || s390x)

package sock

import "golang.org/x/sys/unix"

// accept4 is accept4(2) through unix.Accept4, which reaches it by socketcall here.
func accept4(fd, flags int) (int, error) {
	nfd, _, err := unix.Accept4(fd, flags)
	return nfd, err
}
