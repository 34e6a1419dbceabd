//go:build linux || freebsd || netbsd || dragonfly

package uvloop

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// sysRead and sysWrite are read(2) and write(2) on the loop's non-blocking sockets. They are
// raw system calls: such a call cannot block, so there is no reason to tell the Go scheduler
// (unix.Read does, and may then hand the loop's processor to another thread and take it
// back). On error they return 0 and the errno.
func sysRead(fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, _, errno := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

func sysWrite(fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, _, errno := unix.RawSyscall(unix.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
