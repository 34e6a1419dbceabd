//go:build linux || freebsd || netbsd || dragonfly

package uvloop

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// writev writes bufs with one writev(2), through iovecs that the loop keeps, so a batched
// write allocates nothing.
func writev(fd int, bufs [][]byte, sh *streamShared) (int, error) {
	iov := sh.iov[:0]
	for _, b := range bufs {
		var v unix.Iovec
		if len(b) > 0 {
			v.Base = &b[0]
			v.SetLen(len(b))
		}
		iov = append(iov, v)
	}
	sh.iov = iov
	if len(iov) == 0 {
		return 0, nil
	}
	n, _, errno := unix.RawSyscall(unix.SYS_WRITEV, uintptr(fd), uintptr(unsafe.Pointer(&iov[0])), uintptr(len(iov)))
	clear(iov) // no pointers into the caller's bytes stay behind
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
