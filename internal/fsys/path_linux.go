//go:build linux

package fsys

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// On Linux the calls that run most often (open, stat, lstat, fstat) go to the kernel as raw
// *at system calls with the path copied into a stack buffer, so they allocate nothing; the
// x/sys wrappers allocate a copy of every path. stat uses statx, as libuv does, for the
// birth time.

// cpath copies path and a NUL into buf if it fits, else into a new slice.
func cpath(buf *[pathStackBufferLength]byte, path string) (*byte, error) {
	if len(path) < len(buf) {
		for i := 0; i < len(path); i++ {
			if path[i] == 0 {
				return nil, syscall.EINVAL
			}
			buf[i] = path[i]
		}
		buf[len(path)] = 0
		return &buf[0], nil
	}
	p, err := unix.BytePtrFromString(path)
	if err != nil {
		return nil, syscall.EINVAL
	}
	return p, nil
}

// Open opens path with flags (os.O_* values) and mode, close-on-exec.
func Open(path string, flags int, mode uint32) (int, error) {
	var buf [pathStackBufferLength]byte
	p, err := cpath(&buf, path)
	if err != nil {
		return -1, err
	}
	for {
		fd, _, e := unix.Syscall6(unix.SYS_OPENAT, atFdcwd, uintptr(unsafe.Pointer(p)),
			uintptr(flags|OpenFlags), uintptr(mode), 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return -1, e
		}
		return int(fd), nil
	}
}

// atFdcwd is AT_FDCWD as a system-call argument.
var atFdcwd = func() uintptr { fd := unix.AT_FDCWD; return uintptr(fd) }()

// StatxMask is the mask of the statx calls: the basic fields and the birth time.
const StatxMask = unix.STATX_BASIC_STATS | unix.STATX_BTIME

// OpenFlags are the flags Open adds to the caller's: close-on-exec, large files.
const OpenFlags = unix.O_CLOEXEC | unix.O_LARGEFILE

func statx(dirfd int, p *byte, flags int, st *Statbuf) error {
	var sx unix.Statx_t
	for {
		_, _, e := unix.Syscall6(unix.SYS_STATX, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(flags),
			StatxMask, uintptr(unsafe.Pointer(&sx)), 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return e
		}
		break
	}
	FromStatx(st, &sx)
	return nil
}

// FromStatx converts what statx(2) wrote (with StatxMask) to st: the conversion Stat, Lstat
// and Fstat make, for a caller that ran statx itself (the loop's io_uring requests).
func FromStatx(st *Statbuf, sx *unix.Statx_t) {
	*st = Statbuf{
		Dev:       unix.Mkdev(sx.Dev_major, sx.Dev_minor),
		Mode:      uint64(sx.Mode),
		Nlink:     uint64(sx.Nlink),
		UID:       uint64(sx.Uid),
		GID:       uint64(sx.Gid),
		Rdev:      unix.Mkdev(sx.Rdev_major, sx.Rdev_minor),
		Ino:       sx.Ino,
		Size:      int64(sx.Size),
		Blksize:   int64(sx.Blksize),
		Blocks:    int64(sx.Blocks),
		Atime:     Timespec{sx.Atime.Sec, int64(sx.Atime.Nsec)},
		Mtime:     Timespec{sx.Mtime.Sec, int64(sx.Mtime.Nsec)},
		Ctime:     Timespec{sx.Ctime.Sec, int64(sx.Ctime.Nsec)},
		Birthtime: Timespec{sx.Btime.Sec, int64(sx.Btime.Nsec)},
	}
}

// Stat fills st for path, following symbolic links.
func Stat(path string, st *Statbuf) error {
	var buf [pathStackBufferLength]byte
	p, err := cpath(&buf, path)
	if err != nil {
		return err
	}
	return statx(unix.AT_FDCWD, p, unix.AT_STATX_SYNC_AS_STAT, st)
}

// Lstat fills st for path itself, not following a symbolic link.
func Lstat(path string, st *Statbuf) error {
	var buf [pathStackBufferLength]byte
	p, err := cpath(&buf, path)
	if err != nil {
		return err
	}
	return statx(unix.AT_FDCWD, p, unix.AT_STATX_SYNC_AS_STAT|unix.AT_SYMLINK_NOFOLLOW, st)
}

var emptyPath = [1]byte{0}

// Fstat fills st for fd.
func Fstat(fd int, st *Statbuf) error {
	if BadFd(fd) {
		return syscall.EBADF
	}
	return statx(fd, &emptyPath[0], unix.AT_STATX_SYNC_AS_STAT|unix.AT_EMPTY_PATH, st)
}

// Fdatasync flushes fd's data (and the metadata needed to read it) to the device.
func Fdatasync(fd int) error {
	return errnoOf(ignoringEINTR(func() error { return unix.Fdatasync(fd) }))
}

// Readv reads into bufs in order at off, or at the current position if off < 0: into the
// first iovMax buffers only, as libuv does (one readv(2) takes no more).
func Readv(fd int, bufs [][]byte, off int64) (int, error) {
	bufs = bufs[:min(len(bufs), iovMax)]
	n, err := ignoringEINTR2(func() (int, error) {
		if off < 0 {
			return unix.Readv(fd, bufs)
		}
		return unix.Preadv(fd, bufs, off)
	})
	if err != nil {
		return 0, errnoOf(err)
	}
	return n, nil
}

// Writev writes bufs in order at off, or at the current position if off < 0, as libuv's
// uv_fs_write does: in chunks of iovMax buffers (one writev(2) takes no more), each short
// write followed by one of the rest, until all is written or a write moves nothing or fails.
// A failure after some bytes were written returns their count and no error.
func Writev(fd int, bufs [][]byte, off int64) (int, error) {
	total := 0
	for len(bufs) > 0 {
		chunk := bufs[:min(len(bufs), iovMax)]
		n, err := ignoringEINTR2(func() (int, error) {
			if off < 0 {
				return unix.Writev(fd, chunk)
			}
			return unix.Pwritev(fd, chunk, off)
		})
		if err != nil {
			if total > 0 {
				break
			}
			return 0, errnoOf(err)
		}
		if n == 0 {
			break
		}
		total += n
		if off >= 0 {
			off += int64(n)
		}
		for len(bufs) > 0 && n >= len(bufs[0]) { // the buffers written whole
			n -= len(bufs[0])
			bufs = bufs[1:]
		}
		if n > 0 { // the rest of one written in part
			rest := bufs[0][n:]
			m, _ := Write(fd, rest, off)
			total += m
			if m < len(rest) {
				break
			}
			if off >= 0 {
				off += int64(m)
			}
			bufs = bufs[1:]
		}
	}
	return total, nil
}

// Sendfile copies up to n bytes of in, from offset off, to out at its current position
// (sendfile(2); where the kernel refuses, a read and write loop), and returns how many it
// copied.
func Sendfile(out, in int, off, n int64) (int64, error) {
	if off < 0 || n < 0 {
		return 0, syscall.EINVAL
	}
	var done int64
	for done < n {
		o := off + done
		m, err := ignoringEINTR2(func() (int, error) { return unix.Sendfile(out, in, &o, int(min(n-done, 1<<30))) })
		if err != nil {
			if done == 0 && (err == syscall.EINVAL || err == syscall.ENOSYS || err == syscall.EOPNOTSUPP || err == syscall.EXDEV) {
				return sendfileEmulated(out, in, off, n)
			}
			if err == syscall.EAGAIN && done > 0 {
				return done, nil
			}
			return done, errnoOf(err)
		}
		if m == 0 {
			break
		}
		done += int64(m)
	}
	return done, nil
}

// clone makes out a copy-on-write clone of in (ioctl FICLONE).
func clone(out, in int) error {
	err := ignoringEINTR(func() error { return unix.IoctlFileClone(out, in) })
	if err == syscall.ENOTTY || err == syscall.EINVAL || err == syscall.EXDEV || err == syscall.EOPNOTSUPP {
		return syscall.ENOTSUP
	}
	return errnoOf(err)
}
