// Package fsys is the file system-call floor under uvloop: one function per file operation
// that libuv's uv_fs_* requests perform, each a blocking call meant for a work-pool goroutine.
//
// Conventions, the same for every function:
//   - A failure is a bare syscall.Errno (or errors.ErrUnsupported on systems without an
//     implementation); callers add the operation's name and path. Nothing here formats an
//     error.
//   - EINTR is retried inside, never at the call sites (close(2) excepted: the descriptor
//     is gone after an interrupted close on the systems this package supports).
//   - Descriptors are opened close-on-exec.
//   - Paths are plain Go strings; a path with a NUL byte fails with EINVAL.
//
// The files split by mechanism, one //go:build list each: fsys_unix.go (POSIX calls
// through golang.org/x/sys/unix), stat_*.go (each system's stat layout), path_linux.go and
// path_posix.go (how a path reaches the kernel: on Linux through raw *at calls and a stack
// buffer, so the common calls allocate nothing), copy_linux.go and copy_posix.go (the
// copy loop of Copyfile and Sendfile), and fsys_other.go for systems without an
// implementation.
//
// Imports nothing of this module.
package fsys

import (
	"math"
	"syscall"
	"time"
)

// Timespec is a point in time as the kernel gives it: seconds and nanoseconds since the
// Unix epoch.
type Timespec struct {
	Sec  int64
	Nsec int64
}

// Time converts t to a time.Time.
func (t Timespec) Time() time.Time { return time.Unix(t.Sec, t.Nsec) }

// TimespecOf converts a time.Time to a Timespec.
func TimespecOf(t time.Time) Timespec { return Timespec{Sec: t.Unix(), Nsec: int64(t.Nanosecond())} }

// Statbuf is the portable result of stat, lstat and fstat, libuv's uv_stat_t. Mode holds the
// raw st_mode (file type bits S_IF* and permission bits). Fields a system does not report
// are zero (Birthtime on systems without it).
type Statbuf struct {
	Dev, Mode, Nlink, UID, GID, Rdev, Ino uint64
	Size, Blksize, Blocks                 int64
	Flags, Gen                            uint64
	Atime, Mtime, Ctime, Birthtime        Timespec
}

// The file type bits of Statbuf.Mode; the same values on every POSIX system.
const (
	S_IFMT   = 0o170000
	S_IFSOCK = 0o140000
	S_IFLNK  = 0o120000
	S_IFREG  = 0o100000
	S_IFBLK  = 0o060000
	S_IFDIR  = 0o040000
	S_IFCHR  = 0o020000
	S_IFIFO  = 0o010000
)

// DirentType is the kind of a directory entry, libuv's uv_dirent_type_t.
type DirentType uint8

// The kinds of directory entry.
const (
	DirentUnknown DirentType = iota
	DirentFile
	DirentDir
	DirentLink
	DirentFIFO
	DirentSocket
	DirentChar
	DirentBlock
)

// Dirent is one entry of a directory listing.
type Dirent struct {
	Name string
	Type DirentType
}

// The flags of Copyfile; libuv's and Node's values.
const (
	CopyfileExcl          = 1 // fail with EEXIST if the destination exists
	CopyfileFicloneTry    = 2 // try a copy-on-write clone, fall back to copying
	CopyfileFicloneForce  = 4 // a copy-on-write clone or ENOTSUP
	copyfileKnownFlags    = CopyfileExcl | CopyfileFicloneTry | CopyfileFicloneForce
	mkdtempSuffix         = "XXXXXX"
	mkdtempAttempts       = 100
	copyBufferSize        = 64 << 10
	pathStackBufferLength = 512
)

// iovMax is IOV_MAX, the most buffers one readv(2) or writev(2) takes (UIO_MAXIOV on Linux,
// 1024 on every system here): Writev writes more in chunks of it, Readv reads into the
// first iovMax buffers only, as libuv does.
const iovMax = 1024

// BadFd reports whether fd is not a descriptor: negative, or beyond int32, where the
// kernel would read its low 32 bits as another descriptor (or as AT_FDCWD). The calls on a
// descriptor fail with EBADF for it.
func BadFd(fd int) bool { return fd < 0 || fd > math.MaxInt32 }

// ignoringEINTR calls fn until it fails with something other than EINTR.
func ignoringEINTR(fn func() error) error {
	for {
		err := fn()
		if err != syscall.EINTR {
			return err
		}
	}
}

// ignoringEINTR2 is ignoringEINTR for calls that also return a count.
func ignoringEINTR2[T any](fn func() (T, error)) (T, error) {
	for {
		n, err := fn()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// errnoOf reduces an error from golang.org/x/sys/unix or package os to its errno.
func errnoOf(err error) error {
	if err == nil {
		return nil
	}
	for {
		switch e := err.(type) {
		case syscall.Errno:
			return e
		case interface{ Unwrap() error }:
			if err = e.Unwrap(); err == nil {
				return syscall.EIO
			}
		default:
			return err
		}
	}
}

// mkdtempChars are the characters that replace the template's XXXXXX.
const mkdtempChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
