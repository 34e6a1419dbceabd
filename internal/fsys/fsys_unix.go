//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Close closes fd. It is not retried on EINTR: the descriptor is released regardless.
func Close(fd int) error { return errnoOf(unix.Close(fd)) }

// Regular reports whether fd is open on a regular file (fstat(2)); false if fstat fails.
// It allocates nothing.
func Regular(fd int) bool {
	var st unix.Stat_t
	for {
		err := unix.Fstat(fd, &st)
		if err == nil {
			return st.Mode&unix.S_IFMT == unix.S_IFREG
		}
		if err != syscall.EINTR {
			return false
		}
	}
}

// Read reads into p at offset off, or at the current position if off < 0 (pread or read).
func Read(fd int, p []byte, off int64) (int, error) {
	n, err := ignoringEINTR2(func() (int, error) {
		if off < 0 {
			return unix.Read(fd, p)
		}
		return unix.Pread(fd, p, off)
	})
	if err != nil {
		return 0, errnoOf(err)
	}
	return n, nil
}

// Write writes p at offset off, or at the current position if off < 0 (pwrite or write),
// all of it, as libuv's uv_fs_write: a short write (a full pipe and a signal, a disk full) is
// followed by one of the rest, until all is written or a write moves nothing or fails. A
// failure after some bytes were written returns their count and no error.
func Write(fd int, p []byte, off int64) (int, error) {
	total := 0
	for {
		n, err := writeOnce(fd, p[total:], off)
		if err != nil {
			if total > 0 {
				return total, nil
			}
			return 0, err
		}
		total += n
		if off >= 0 {
			off += int64(n)
		}
		if n == 0 || total == len(p) {
			return total, nil
		}
	}
}

// writeOnce is one write or pwrite of p.
func writeOnce(fd int, p []byte, off int64) (int, error) {
	n, err := ignoringEINTR2(func() (int, error) {
		if off < 0 {
			return unix.Write(fd, p)
		}
		return unix.Pwrite(fd, p, off)
	})
	if err != nil {
		return 0, errnoOf(err)
	}
	return n, nil
}

// Rename renames from to to.
func Rename(from, to string) error {
	return errnoOf(ignoringEINTR(func() error { return unix.Rename(from, to) }))
}

// Unlink removes a file.
func Unlink(path string) error {
	return errnoOf(ignoringEINTR(func() error { return unix.Unlink(path) }))
}

// Rmdir removes an empty directory.
func Rmdir(path string) error {
	return errnoOf(ignoringEINTR(func() error { return unix.Rmdir(path) }))
}

// Mkdir creates a directory.
func Mkdir(path string, mode uint32) error {
	return errnoOf(ignoringEINTR(func() error { return unix.Mkdir(path, mode) }))
}

// Mkdtemp creates a directory, mode 0700, named after tpl with its trailing "XXXXXX"
// replaced by random characters, and returns its name. A template without that ending
// fails with EINVAL, as mkdtemp(3).
func Mkdtemp(tpl string) (string, error) {
	if !strings.HasSuffix(tpl, mkdtempSuffix) {
		return "", syscall.EINVAL
	}
	base := tpl[:len(tpl)-len(mkdtempSuffix)]
	var b [len(mkdtempSuffix)]byte
	var last error
	for range mkdtempAttempts {
		for i := range b {
			b[i] = mkdtempChars[rand.IntN(len(mkdtempChars))]
		}
		name := base + string(b[:])
		err := Mkdir(name, 0o700)
		if err == nil {
			return name, nil
		}
		if err != syscall.EEXIST {
			return name, err
		}
		last = err
	}
	return "", last
}

// Scandir lists a directory, without "." and "..", sorted by name in byte order as libuv's
// scandir sorts.
func Scandir(path string) ([]Dirent, error) {
	fd, err := Open(path, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), path)
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return nil, errnoOf(err)
	}
	out := make([]Dirent, len(entries))
	for i, e := range entries {
		out[i] = Dirent{Name: e.Name(), Type: direntType(e.Type())}
	}
	slices.SortFunc(out, func(a, b Dirent) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func direntType(m fs.FileMode) DirentType {
	switch m.Type() {
	case 0:
		return DirentFile
	case fs.ModeDir:
		return DirentDir
	case fs.ModeSymlink:
		return DirentLink
	case fs.ModeNamedPipe:
		return DirentFIFO
	case fs.ModeSocket:
		return DirentSocket
	case fs.ModeDevice | fs.ModeCharDevice:
		return DirentChar
	case fs.ModeDevice:
		return DirentBlock
	}
	return DirentUnknown
}

// Readlink returns the target of a symbolic link.
func Readlink(path string) (string, error) {
	for size := 256; ; size *= 2 {
		b := make([]byte, size)
		n, err := ignoringEINTR2(func() (int, error) { return unix.Readlink(path, b) })
		if err != nil {
			return "", errnoOf(err)
		}
		if n < size {
			return string(b[:n]), nil
		}
		if size >= 1<<20 {
			return "", syscall.ENAMETOOLONG
		}
	}
}

// Realpath returns the absolute path of path with every symbolic link, "." and ".."
// resolved, as realpath(3). Every component must exist.
func Realpath(path string) (string, error) {
	if path == "" {
		return "", syscall.ENOENT
	}
	if strings.IndexByte(path, 0) >= 0 {
		return "", syscall.EINVAL
	}
	resolved := "/"
	if path[0] != '/' {
		wd, err := unix.Getwd()
		if err != nil {
			return "", errnoOf(err)
		}
		resolved = wd
	}
	rest := path
	links := 0
	var st Statbuf
	for rest != "" {
		var comp string
		comp, rest, _ = strings.Cut(rest, "/")
		switch comp {
		case "", ".":
			continue
		case "..":
			resolved = parentOf(resolved)
			continue
		}
		next := joinPath(resolved, comp)
		if err := Lstat(next, &st); err != nil {
			return "", err
		}
		switch st.Mode & S_IFMT {
		case S_IFLNK:
			links++
			if links > 40 {
				return "", syscall.ELOOP
			}
			target, err := Readlink(next)
			if err != nil {
				return "", err
			}
			if strings.HasPrefix(target, "/") {
				resolved = "/"
			}
			if rest != "" {
				rest = target + "/" + rest
			} else {
				rest = target
			}
		case S_IFDIR:
			resolved = next
		default:
			if rest != "" { // a file in the middle of the path, or "file/"
				return "", syscall.ENOTDIR
			}
			resolved = next
		}
	}
	return resolved, nil
}

func parentOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "/"
}

func joinPath(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// Symlink creates link pointing at target.
func Symlink(target, link string) error {
	return errnoOf(ignoringEINTR(func() error { return unix.Symlink(target, link) }))
}

// Link creates the hard link newpath for oldpath.
func Link(oldpath, newpath string) error {
	return errnoOf(ignoringEINTR(func() error { return unix.Link(oldpath, newpath) }))
}

// Chmod changes the permission bits of path.
func Chmod(path string, mode uint32) error {
	return errnoOf(ignoringEINTR(func() error { return unix.Chmod(path, mode) }))
}

// Fchmod changes the permission bits of fd.
func Fchmod(fd int, mode uint32) error {
	return errnoOf(ignoringEINTR(func() error { return unix.Fchmod(fd, mode) }))
}

// Chown changes the owner of path (following links); -1 keeps a value.
func Chown(path string, uid, gid int) error {
	return errnoOf(ignoringEINTR(func() error { return unix.Chown(path, uid, gid) }))
}

// Fchown changes the owner of fd.
func Fchown(fd, uid, gid int) error {
	return errnoOf(ignoringEINTR(func() error { return unix.Fchown(fd, uid, gid) }))
}

// Lchown changes the owner of path itself (not following a link).
func Lchown(path string, uid, gid int) error {
	return errnoOf(ignoringEINTR(func() error { return unix.Lchown(path, uid, gid) }))
}

func timespecs(atime, mtime Timespec) []unix.Timespec {
	return []unix.Timespec{unix.NsecToTimespec(atime.Sec*1e9 + atime.Nsec), unix.NsecToTimespec(mtime.Sec*1e9 + mtime.Nsec)}
}

// Utime sets the access and modification times of path (following links).
func Utime(path string, atime, mtime Timespec) error {
	ts := timespecs(atime, mtime)
	return errnoOf(ignoringEINTR(func() error { return unix.UtimesNanoAt(unix.AT_FDCWD, path, ts, 0) }))
}

// Lutime sets the access and modification times of path itself (not following a link).
func Lutime(path string, atime, mtime Timespec) error {
	ts := timespecs(atime, mtime)
	return errnoOf(ignoringEINTR(func() error {
		return unix.UtimesNanoAt(unix.AT_FDCWD, path, ts, unix.AT_SYMLINK_NOFOLLOW)
	}))
}

// Futime sets the access and modification times of fd (microsecond precision on systems
// without futimens).
func Futime(fd int, atime, mtime Timespec) error {
	tv := []unix.Timeval{unix.NsecToTimeval(atime.Sec*1e9 + atime.Nsec), unix.NsecToTimeval(mtime.Sec*1e9 + mtime.Nsec)}
	return errnoOf(ignoringEINTR(func() error { return unix.Futimes(fd, tv) }))
}

// Fsync flushes fd's data and metadata to the device.
func Fsync(fd int) error { return errnoOf(ignoringEINTR(func() error { return unix.Fsync(fd) })) }

// Ftruncate sets fd's size.
func Ftruncate(fd int, size int64) error {
	if size < 0 {
		return syscall.EINVAL
	}
	return errnoOf(ignoringEINTR(func() error { return unix.Ftruncate(fd, size) }))
}

// Access checks path against mode (F_OK, or R_OK|W_OK|X_OK) for the real user.
func Access(path string, mode uint32) error {
	return errnoOf(ignoringEINTR(func() error { return unix.Access(path, mode) }))
}

// Copyfile copies src to dst, creating dst with src's permission bits, or truncating it
// (CopyfileExcl: failing with EEXIST instead). Copying a file onto itself changes nothing.
// If the copy fails after dst was opened, dst is removed, as libuv does.
func Copyfile(src, dst string, flags int) error {
	if flags&^copyfileKnownFlags != 0 {
		return syscall.EINVAL
	}
	in, err := Open(src, unix.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer Close(in)
	var sst Statbuf
	if err := Fstat(in, &sst); err != nil {
		return err
	}
	if sst.Mode&S_IFMT == S_IFDIR {
		return syscall.EISDIR
	}
	oflags := unix.O_WRONLY | unix.O_CREAT
	if flags&CopyfileExcl != 0 {
		oflags |= unix.O_EXCL
	}
	out, err := Open(dst, oflags, uint32(sst.Mode&0o7777))
	if err != nil {
		return err
	}
	var dstat Statbuf
	if err := Fstat(out, &dstat); err != nil {
		Close(out)
		return err
	}
	if dstat.Dev == sst.Dev && dstat.Ino == sst.Ino { // the same file
		return Close(out)
	}
	err = copyContents(out, in, sst, flags)
	if cerr := Close(out); err == nil {
		err = cerr
	}
	if err != nil {
		Unlink(dst)
	}
	return err
}

func copyContents(out, in int, sst Statbuf, flags int) error {
	if err := Fchmod(out, uint32(sst.Mode&0o7777)); err != nil && err != syscall.EPERM {
		return err
	}
	if err := Ftruncate(out, 0); err != nil {
		return err
	}
	if flags&(CopyfileFicloneTry|CopyfileFicloneForce) != 0 {
		err := clone(out, in)
		if err == nil {
			return nil
		}
		if flags&CopyfileFicloneForce != 0 {
			return err
		}
	}
	_, err := Sendfile(out, in, 0, sst.Size)
	return err
}

// sendfileEmulated copies with pread and write: where sendfile cannot go to a file.
func sendfileEmulated(out, in int, off, n int64) (int64, error) {
	buf := make([]byte, min(n, copyBufferSize))
	var done int64
	for done < n {
		chunk := buf[:min(int64(len(buf)), n-done)]
		r, err := Read(in, chunk, off+done)
		if err != nil {
			return done, err
		}
		if r == 0 {
			break
		}
		w := 0
		for w < r {
			m, err := Write(out, chunk[w:r], -1)
			if err != nil {
				return done + int64(w), err
			}
			w += m
		}
		done += int64(r)
	}
	return done, nil
}
