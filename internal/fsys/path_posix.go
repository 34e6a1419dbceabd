//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// On these systems paths reach the kernel through the golang.org/x/sys/unix wrappers (which
// go through libc where the system demands it).

// Open opens path with flags (os.O_* values) and mode, close-on-exec.
func Open(path string, flags int, mode uint32) (int, error) {
	fd, err := ignoringEINTR2(func() (int, error) { return unix.Open(path, flags|unix.O_CLOEXEC, mode) })
	if err != nil {
		return -1, errnoOf(err)
	}
	return fd, nil
}

// Stat fills st for path, following symbolic links.
func Stat(path string, st *Statbuf) error {
	var s unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Stat(path, &s) }); err != nil {
		return errnoOf(err)
	}
	fromStatT(st, &s)
	return nil
}

// Lstat fills st for path itself, not following a symbolic link.
func Lstat(path string, st *Statbuf) error {
	var s unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Lstat(path, &s) }); err != nil {
		return errnoOf(err)
	}
	fromStatT(st, &s)
	return nil
}

// Fstat fills st for fd.
func Fstat(fd int, st *Statbuf) error {
	var s unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Fstat(fd, &s) }); err != nil {
		return errnoOf(err)
	}
	fromStatT(st, &s)
	return nil
}

// Fdatasync flushes fd's data to the device (fsync here).
func Fdatasync(fd int) error { return Fsync(fd) }

// Readv reads into bufs in order at off, or at the current position if off < 0, one buffer
// at a time, stopping at a short read: into the first iovMax buffers only, as libuv's
// readv(2) does.
func Readv(fd int, bufs [][]byte, off int64) (int, error) {
	return eachBuf(Read, fd, bufs[:min(len(bufs), iovMax)], off)
}

// Writev writes bufs in order at off, or at the current position if off < 0, one buffer at
// a time, stopping at a short write.
func Writev(fd int, bufs [][]byte, off int64) (int, error) { return eachBuf(Write, fd, bufs, off) }

// eachBuf is Readv and Writev: op (Read or Write) on each buffer in turn, at off plus what
// is done so far when off >= 0. It stops at a short transfer; an error after earlier
// buffers moved bytes returns their count and no error, as readv(2) and writev(2) would.
func eachBuf(op func(fd int, p []byte, off int64) (int, error), fd int, bufs [][]byte, off int64) (int, error) {
	total := 0
	for _, b := range bufs {
		o := off
		if off >= 0 {
			o = off + int64(total)
		}
		n, err := op(fd, b, o)
		total += n
		if err != nil {
			if total > n {
				return total - n, nil
			}
			return 0, err
		}
		if n < len(b) {
			break
		}
	}
	return total, nil
}

// Sendfile copies up to n bytes of in, from offset off, to out at its current position and
// returns how many it copied. sendfile(2) on these systems only writes to sockets, so this
// is a read and write loop, as libuv's fallback.
func Sendfile(out, in int, off, n int64) (int64, error) {
	if off < 0 || n < 0 {
		return 0, syscall.EINVAL
	}
	return sendfileEmulated(out, in, off, n)
}

// clone is not available: ENOTSUP.
func clone(out, in int) error { return syscall.ENOTSUP }
