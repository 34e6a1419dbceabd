package uvloop

import (
	"time"

	"github.com/uvgo/uvgo/internal/fsys"
)

// The file system requests, one method per uv_fs_* call. Each starts req (see FSReq for
// reuse, nil requests, buffers and errors) and returns an error only if the request could
// not start: ErrBusy if req is in flight, ErrClosed after Close, ErrNilCallback for a nil req
// without a callback. With a nil cb the call runs synchronously and returns its own error. A
// call on a descriptor outside 0..MaxInt32 fails with EBADF before any system call (the
// kernel would read the low 32 bits as another descriptor).

// fsDo is every FS* method: start req for op (fsStart resets it), let set fill in the
// arguments, and submit it. set runs once, before fsDo returns, so it does not escape: the
// closures the methods pass live on their stack and a reused request allocates nothing.
func (l *Loop) fsDo(req *FSReq, op fsOp, cb func(*FSReq), set func(*FSReq)) error {
	r, err := l.fsStart(req, op, cb)
	if err != nil {
		return err
	}
	set(r)
	return r.submit()
}

// The argument shapes that several calls share.

func (l *Loop) fsPath(req *FSReq, op fsOp, path string, cb func(*FSReq)) error {
	return l.fsDo(req, op, cb, func(r *FSReq) { r.path = path })
}

func (l *Loop) fsPathMode(req *FSReq, op fsOp, path string, mode uint32, cb func(*FSReq)) error {
	return l.fsDo(req, op, cb, func(r *FSReq) { r.path, r.mode = path, mode })
}

func (l *Loop) fsPath2(req *FSReq, op fsOp, path, path2 string, flags int, cb func(*FSReq)) error {
	return l.fsDo(req, op, cb, func(r *FSReq) { r.path, r.path2, r.flags = path, path2, flags })
}

func (l *Loop) fsFd(req *FSReq, op fsOp, fd int, cb func(*FSReq)) error {
	return l.fsDo(req, op, cb, func(r *FSReq) { r.fd = fd })
}

// fsBuf is a read or write of one buffer, kept in the request's buf1 so that it needs no
// slice of its own; fsBufs one of several.
func (l *Loop) fsBuf(req *FSReq, op fsOp, fd int, buf []byte, off int64, cb func(*FSReq)) error {
	return l.fsDo(req, op, cb, func(r *FSReq) {
		r.fd, r.off = fd, off
		r.buf1[0] = buf
		r.bufs = r.buf1[:]
	})
}

func (l *Loop) fsBufs(req *FSReq, op fsOp, fd int, bufs [][]byte, off int64, cb func(*FSReq)) error {
	return l.fsDo(req, op, cb, func(r *FSReq) { r.fd, r.off, r.bufs = fd, off, bufs })
}

func (l *Loop) fsOwner(req *FSReq, op fsOp, path string, fd, uid, gid int, cb func(*FSReq)) error {
	return l.fsDo(req, op, cb, func(r *FSReq) { r.path, r.fd, r.uid, r.gid = path, fd, uid, gid })
}

func (l *Loop) fsTimes(req *FSReq, op fsOp, path string, fd int, atime, mtime time.Time, cb func(*FSReq)) error {
	return l.fsDo(req, op, cb, func(r *FSReq) {
		r.path, r.fd = path, fd
		r.atime, r.mtime = fsys.TimespecOf(atime), fsys.TimespecOf(mtime)
	})
}

// FSOpen opens path (uv_fs_open). flags are os.O_* values (O_RDONLY, O_WRONLY|O_CREATE|O_TRUNC,
// ...), mode the permission bits of a created file; the descriptor, close-on-exec, is
// req.Result(). The caller owns it: close it with FSClose.
func (l *Loop) FSOpen(req *FSReq, path string, flags int, mode uint32, cb func(*FSReq)) error {
	return l.fsDo(req, fsOpen, cb, func(r *FSReq) { r.path, r.flags, r.mode = path, flags, mode })
}

// FSClose closes fd (uv_fs_close).
func (l *Loop) FSClose(req *FSReq, fd int, cb func(*FSReq)) error {
	return l.fsFd(req, fsClose, fd, cb)
}

// FSRead reads into buf from fd at offset off, or at the file's position if off is -1
// (uv_fs_read); req.Result() is the count, 0 at the end of the file. buf belongs to the
// request until cb starts.
func (l *Loop) FSRead(req *FSReq, fd int, buf []byte, off int64, cb func(*FSReq)) error {
	return l.fsBuf(req, fsRead, fd, buf, off, cb)
}

// FSReadv is FSRead into several buffers in order (preadv), into the first IOV_MAX (1024)
// only, as libuv's; no buffers at all fail with EINVAL, as in libuv. bufs and the buffers
// belong to the request until cb starts.
func (l *Loop) FSReadv(req *FSReq, fd int, bufs [][]byte, off int64, cb func(*FSReq)) error {
	return l.fsBufs(req, fsRead, fd, bufs, off, cb)
}

// FSWrite writes buf to fd at offset off, or at the file's position if off is -1
// (uv_fs_write); req.Result() is the count. A short write is followed by one of the rest,
// as libuv's, until all is written or a write fails (then the count so far, if any, and no
// error). buf belongs to the request until cb starts.
func (l *Loop) FSWrite(req *FSReq, fd int, buf []byte, off int64, cb func(*FSReq)) error {
	return l.fsBuf(req, fsWrite, fd, buf, off, cb)
}

// FSWritev is FSWrite from several buffers in order (pwritev), in chunks of IOV_MAX (1024)
// buffers, as libuv's; no buffers at all fail with EINVAL, as in libuv.
func (l *Loop) FSWritev(req *FSReq, fd int, bufs [][]byte, off int64, cb func(*FSReq)) error {
	return l.fsBufs(req, fsWrite, fd, bufs, off, cb)
}

// FSStat reports on path, following symbolic links (uv_fs_stat): req.Stat().
func (l *Loop) FSStat(req *FSReq, path string, cb func(*FSReq)) error {
	return l.fsPath(req, fsStat, path, cb)
}

// FSLstat reports on path itself, not following a symbolic link (uv_fs_lstat).
func (l *Loop) FSLstat(req *FSReq, path string, cb func(*FSReq)) error {
	return l.fsPath(req, fsLstat, path, cb)
}

// FSFstat reports on an open descriptor (uv_fs_fstat).
func (l *Loop) FSFstat(req *FSReq, fd int, cb func(*FSReq)) error {
	return l.fsFd(req, fsFstat, fd, cb)
}

// FSRename renames from to to, replacing to (uv_fs_rename).
func (l *Loop) FSRename(req *FSReq, from, to string, cb func(*FSReq)) error {
	return l.fsPath2(req, fsRename, from, to, 0, cb)
}

// FSUnlink removes a file (uv_fs_unlink).
func (l *Loop) FSUnlink(req *FSReq, path string, cb func(*FSReq)) error {
	return l.fsPath(req, fsUnlink, path, cb)
}

// FSMkdir creates a directory with the permission bits mode (uv_fs_mkdir).
func (l *Loop) FSMkdir(req *FSReq, path string, mode uint32, cb func(*FSReq)) error {
	return l.fsPathMode(req, fsMkdir, path, mode, cb)
}

// FSMkdtemp creates a directory, mode 0700, named after tpl with its trailing "XXXXXX"
// replaced by random characters (uv_fs_mkdtemp): req.ResultPath(). A template without that
// ending fails with EINVAL.
func (l *Loop) FSMkdtemp(req *FSReq, tpl string, cb func(*FSReq)) error {
	return l.fsPath(req, fsMkdtemp, tpl, cb)
}

// FSRmdir removes an empty directory (uv_fs_rmdir).
func (l *Loop) FSRmdir(req *FSReq, path string, cb func(*FSReq)) error {
	return l.fsPath(req, fsRmdir, path, cb)
}

// FSScandir lists a directory (uv_fs_scandir): req.Dirents(), sorted by name.
func (l *Loop) FSScandir(req *FSReq, path string, cb func(*FSReq)) error {
	return l.fsPath(req, fsScandir, path, cb)
}

// FSRealpath resolves path to an absolute path without symbolic links, "." or ".."
// (uv_fs_realpath): req.ResultPath().
func (l *Loop) FSRealpath(req *FSReq, path string, cb func(*FSReq)) error {
	return l.fsPath(req, fsRealpath, path, cb)
}

// FSReadlink reads a symbolic link's target (uv_fs_readlink): req.ResultPath().
func (l *Loop) FSReadlink(req *FSReq, path string, cb func(*FSReq)) error {
	return l.fsPath(req, fsReadlink, path, cb)
}

// FSSymlink creates the symbolic link link pointing at target (uv_fs_symlink).
func (l *Loop) FSSymlink(req *FSReq, target, link string, cb func(*FSReq)) error {
	return l.fsPath2(req, fsSymlink, target, link, 0, cb)
}

// FSLink creates newpath as a hard link to oldpath (uv_fs_link).
func (l *Loop) FSLink(req *FSReq, oldpath, newpath string, cb func(*FSReq)) error {
	return l.fsPath2(req, fsLink, oldpath, newpath, 0, cb)
}

// FSChmod sets the permission bits of path (uv_fs_chmod).
func (l *Loop) FSChmod(req *FSReq, path string, mode uint32, cb func(*FSReq)) error {
	return l.fsPathMode(req, fsChmod, path, mode, cb)
}

// FSFchmod sets the permission bits of an open descriptor (uv_fs_fchmod).
func (l *Loop) FSFchmod(req *FSReq, fd int, mode uint32, cb func(*FSReq)) error {
	return l.fsDo(req, fsFchmod, cb, func(r *FSReq) { r.fd, r.mode = fd, mode })
}

// FSChown sets the owner and group of path, following links; -1 keeps one (uv_fs_chown).
func (l *Loop) FSChown(req *FSReq, path string, uid, gid int, cb func(*FSReq)) error {
	return l.fsOwner(req, fsChown, path, -1, uid, gid, cb)
}

// FSFchown sets the owner and group of an open descriptor (uv_fs_fchown).
func (l *Loop) FSFchown(req *FSReq, fd, uid, gid int, cb func(*FSReq)) error {
	return l.fsOwner(req, fsFchown, "", fd, uid, gid, cb)
}

// FSLchown sets the owner and group of path itself, not following a link (uv_fs_lchown).
func (l *Loop) FSLchown(req *FSReq, path string, uid, gid int, cb func(*FSReq)) error {
	return l.fsOwner(req, fsLchown, path, -1, uid, gid, cb)
}

// FSUtime sets the access and modification times of path, following links (uv_fs_utime).
func (l *Loop) FSUtime(req *FSReq, path string, atime, mtime time.Time, cb func(*FSReq)) error {
	return l.fsTimes(req, fsUtime, path, -1, atime, mtime, cb)
}

// FSFutime sets the access and modification times of an open descriptor (uv_fs_futime).
func (l *Loop) FSFutime(req *FSReq, fd int, atime, mtime time.Time, cb func(*FSReq)) error {
	return l.fsTimes(req, fsFutime, "", fd, atime, mtime, cb)
}

// FSLutime sets the times of path itself, not following a link (uv_fs_lutime).
func (l *Loop) FSLutime(req *FSReq, path string, atime, mtime time.Time, cb func(*FSReq)) error {
	return l.fsTimes(req, fsLutime, path, -1, atime, mtime, cb)
}

// FSFsync flushes an open file's data and metadata to the device (uv_fs_fsync).
func (l *Loop) FSFsync(req *FSReq, fd int, cb func(*FSReq)) error {
	return l.fsFd(req, fsFsync, fd, cb)
}

// FSFdatasync flushes an open file's data to the device (uv_fs_fdatasync).
func (l *Loop) FSFdatasync(req *FSReq, fd int, cb func(*FSReq)) error {
	return l.fsFd(req, fsFdatasync, fd, cb)
}

// FSFtruncate sets an open file's size (uv_fs_ftruncate); a negative size fails with EINVAL.
func (l *Loop) FSFtruncate(req *FSReq, fd int, size int64, cb func(*FSReq)) error {
	return l.fsDo(req, fsFtruncate, cb, func(r *FSReq) { r.fd, r.off = fd, size })
}

// FSCopyfile copies src to dst (uv_fs_copyfile). flags: CopyfileExcl (fail with EEXIST if
// dst exists), CopyfileFicloneTry, CopyfileFicloneForce; unknown bits fail with EINVAL. dst
// gets src's permission bits; if the copy fails after dst was opened, dst is removed.
func (l *Loop) FSCopyfile(req *FSReq, src, dst string, flags int, cb func(*FSReq)) error {
	return l.fsPath2(req, fsCopyfile, src, dst, flags, cb)
}

// FSAccess checks path against mode (AccessExists, or AccessRead|AccessWrite|AccessExecute)
// for the real user (uv_fs_access).
func (l *Loop) FSAccess(req *FSReq, path string, mode uint32, cb func(*FSReq)) error {
	return l.fsPathMode(req, fsAccess, path, mode, cb)
}

// FSSendfile copies up to length bytes of inFd, from inOffset, to outFd at its position
// (uv_fs_sendfile); req.Result() is the count. A negative offset or length fails with
// EINVAL.
func (l *Loop) FSSendfile(req *FSReq, outFd, inFd int, inOffset, length int64, cb func(*FSReq)) error {
	return l.fsDo(req, fsSendfile, cb, func(r *FSReq) {
		r.fd, r.fd2, r.off, r.n = outFd, inFd, inOffset, length
	})
}
