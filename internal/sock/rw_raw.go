//go:build linux || freebsd || netbsd || dragonfly

package sock

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Read, Write and Writev are read(2), write(2) and writev(2) on the loop's non-blocking
// sockets, as raw system calls: such a call cannot block, so there is no reason to tell the Go
// scheduler (unix.Read does, and may then hand the loop's processor to another thread and
// take it back).

// IOVecs is Writev's scratch: the iovecs of the last call, kept so that a batched write
// allocates nothing once it has grown. One goroutine at a time; the zero value is ready.
type IOVecs struct {
	v []unix.Iovec
}

// Read reads into p; on error it returns 0 and the errno (EAGAIN: nothing to read).
func Read(fd int, p []byte) (int, error) { return rw(unix.SYS_READ, fd, p) }

// Write writes p; on error it returns 0 and the errno (EAGAIN: the socket is full).
func Write(fd int, p []byte) (int, error) { return rw(unix.SYS_WRITE, fd, p) }

// rw is read(2) or write(2), retried on EINTR.
func rw(trap uintptr, fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, _, errno := unix.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		if errno == 0 {
			return int(n), nil
		}
		if errno != syscall.EINTR {
			return 0, errno
		}
	}
}

// Writev writes bufs with one writev(2), through iovecs kept in iov; on error it returns 0
// and the errno. No pointer into bufs stays in iov afterwards.
func Writev(fd int, bufs [][]byte, iov *IOVecs) (int, error) {
	v := iov.v[:0]
	for _, b := range bufs {
		var e unix.Iovec
		if len(b) > 0 {
			e.Base = &b[0]
			e.SetLen(len(b))
		}
		v = append(v, e)
	}
	iov.v = v
	if len(v) == 0 {
		return 0, nil
	}
	for {
		n, _, errno := unix.RawSyscall(unix.SYS_WRITEV, uintptr(fd), uintptr(unsafe.Pointer(&v[0])), uintptr(len(v)))
		if errno == syscall.EINTR {
			continue
		}
		clear(v)
		if errno != 0 {
			return 0, errno
		}
		return int(n), nil
	}
}
