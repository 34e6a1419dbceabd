package uvloop

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/internal/fsys"
	"github.com/uvgo/uvgo/poller"
)

// This file is libuv's uv_fs_* requests: one blocking file system call on the work pool,
// its callback on the loop in the poll phase. The system calls themselves are in
// internal/fsys.

// FSReq is one file system request, libuv's uv_fs_t. A request is started by one of the
// Loop's FS* methods (FSOpen, FSRead, FSStat, ...), runs on the work pool, and then its
// callback runs on the loop goroutine in the poll phase, followed by the nextTick/microtask
// drain. The callback reads the outcome from the request: Err, Result, and for some calls
// Stat, Dirents or ResultPath.
//
// # Lifetime and reuse
//
// The caller owns the FSReq. While it is in flight (from the FS* call until its callback
// starts) it must not be started again (that returns an error wrapping ErrBusy). Once its
// callback has started it may be reused for another call, from inside the callback too; a
// request that is reused allocates nothing more, so a hot path keeps one per operation.
// Passing a nil *FSReq with a callback makes the call allocate one, which the callback gets.
//
// # Synchronous mode
//
// With a nil callback the call runs on the calling goroutine, blocking, and returns the
// operation's error, as libuv's uv_fs_* do without a callback; the results are read from the
// request as usual. The request must then not be nil.
//
// # Buffers
//
// FSRead, FSReadv, FSWrite and FSWritev use the caller's buffers from the worker goroutine:
// the caller must neither touch nor reuse them until the callback starts. The request keeps
// no reference to them after that. Dirents and ResultPath hand out values that the caller
// owns from then on; Stat returns a copy.
//
// # Requests and the loop
//
// A request in flight keeps the loop alive, and Close fails with ErrBusy until its callback
// has run. Cancel takes a request off the queue before a worker starts it; its callback then
// gets an error wrapping syscall.ECANCELED. On the io_uring backend the common calls (reads
// and writes of regular files, open, close, stat, fsync, ...) run as submissions to the ring
// instead of on the pool (ring_fs.go): same results, errors and callback phase; such a
// request cannot be cancelled once started (Cancel returns ErrBusy), as libuv's io_uring
// requests cannot.
//
// # Errors
//
// Err wraps the errno: errors.Is(err, syscall.ENOENT) and errors.Is(err, fs.ErrNotExist)
// both hold. A call with a path fails with an *fs.PathError (Op is the system call's name,
// as Op returns), a call with two paths (rename, link, symlink, copyfile) with an
// *os.LinkError, and a call on a descriptor with an *os.SyscallError.
//
// All methods are for the loop goroutine only (in synchronous mode: for the calling
// goroutine, with the request not in flight).
type FSReq struct {
	loop *Loop
	work *Work
	op   fsOp
	cb   func(*FSReq)
	run  func()         // r.execute, bound once per request
	done func(error)    // r.complete, bound once per request
	busy bool           // in flight: queued or running, callback not yet started
	ring poller.FileReq // the request as the ring runs it (ring_fs.go)

	// The arguments.
	path, path2  string
	fd, fd2      int
	flags        int
	mode         uint32
	off, n       int64
	bufs         [][]byte // the caller's buffers for readv/writev, or buf1[:]
	buf1         [1][]byte
	atime, mtime fsys.Timespec
	uid, gid     int

	// The results, written by the worker before it publishes the request.
	result  int64
	err     error
	stat    fsys.Statbuf
	dirents []Dirent
	str     string
}

// fsOp is the kind of a request, libuv's uv_fs_type.
type fsOp uint8

const (
	fsNone fsOp = iota
	fsOpen
	fsClose
	fsRead
	fsWrite
	fsStat
	fsLstat
	fsFstat
	fsRename
	fsUnlink
	fsMkdir
	fsMkdtemp
	fsRmdir
	fsScandir
	fsRealpath
	fsReadlink
	fsSymlink
	fsLink
	fsChmod
	fsFchmod
	fsChown
	fsFchown
	fsLchown
	fsUtime
	fsFutime
	fsLutime
	fsFsync
	fsFdatasync
	fsFtruncate
	fsCopyfile
	fsAccess
	fsSendfile
)

// fsOpNames are the system calls' names, as libuv reports them and Node prints them.
var fsOpNames = [...]string{"", "open", "close", "read", "write", "stat", "lstat", "fstat",
	"rename", "unlink", "mkdir", "mkdtemp", "rmdir", "scandir", "realpath", "readlink",
	"symlink", "link", "chmod", "fchmod", "chown", "fchown", "lchown", "utime", "futime",
	"lutime", "fsync", "fdatasync", "ftruncate", "copyfile", "access", "sendfile"}

// Dirent is one entry of FSScandir's listing: a name and, where the system tells it, a type.
type Dirent = fsys.Dirent

// DirentType is the kind of a directory entry (uv_dirent_type_t).
type DirentType = fsys.DirentType

// The kinds of directory entry. DirentUnknown: the file system did not say.
const (
	DirentUnknown = fsys.DirentUnknown
	DirentFile    = fsys.DirentFile
	DirentDir     = fsys.DirentDir
	DirentLink    = fsys.DirentLink
	DirentFIFO    = fsys.DirentFIFO
	DirentSocket  = fsys.DirentSocket
	DirentChar    = fsys.DirentChar
	DirentBlock   = fsys.DirentBlock
)

// The flags of FSCopyfile (uv_fs_copyfile's, and Node's fs.constants.COPYFILE_*).
const (
	// CopyfileExcl fails with EEXIST if the destination exists.
	CopyfileExcl = fsys.CopyfileExcl
	// CopyfileFicloneTry tries a copy-on-write clone first and copies if that fails.
	CopyfileFicloneTry = fsys.CopyfileFicloneTry
	// CopyfileFicloneForce makes a copy-on-write clone or fails with ENOTSUP.
	CopyfileFicloneForce = fsys.CopyfileFicloneForce
)

// The modes of FSAccess (F_OK, R_OK, W_OK, X_OK).
const (
	AccessExists  = 0
	AccessExecute = 1
	AccessWrite   = 2
	AccessRead    = 4
)

// Timespec is a file time: seconds and nanoseconds since the Unix epoch.
type Timespec struct {
	Sec  int64
	Nsec int64
}

// Time converts t to a time.Time.
func (t Timespec) Time() time.Time { return time.Unix(t.Sec, t.Nsec) }

// Stat is what FSStat, FSLstat and FSFstat report, libuv's uv_stat_t. Mode is the raw
// st_mode: the file type bits (S_IFREG, S_IFDIR, ...) and the permission bits. Fields the
// system does not report are zero (Birthtime on OpenBSD and DragonFly).
type Stat struct {
	Dev, Mode, Nlink, UID, GID, Rdev, Ino uint64
	Size, Blksize, Blocks                 int64
	Flags, Gen                            uint64
	Atime, Mtime, Ctime, Birthtime        Timespec
}

// The file type bits of Stat.Mode.
const (
	S_IFMT   = fsys.S_IFMT
	S_IFSOCK = fsys.S_IFSOCK
	S_IFLNK  = fsys.S_IFLNK
	S_IFREG  = fsys.S_IFREG
	S_IFBLK  = fsys.S_IFBLK
	S_IFDIR  = fsys.S_IFDIR
	S_IFCHR  = fsys.S_IFCHR
	S_IFIFO  = fsys.S_IFIFO
)

// IsDir reports whether the file is a directory.
func (s Stat) IsDir() bool { return s.Mode&S_IFMT == S_IFDIR }

// IsRegular reports whether the file is a regular file.
func (s Stat) IsRegular() bool { return s.Mode&S_IFMT == S_IFREG }

// IsSymlink reports whether the file is a symbolic link (only FSLstat sees one).
func (s Stat) IsSymlink() bool { return s.Mode&S_IFMT == S_IFLNK }

// FileMode converts Mode to Go's fs.FileMode.
func (s Stat) FileMode() fs.FileMode {
	m := fs.FileMode(s.Mode & 0o777)
	switch s.Mode & S_IFMT {
	case S_IFDIR:
		m |= fs.ModeDir
	case S_IFLNK:
		m |= fs.ModeSymlink
	case S_IFIFO:
		m |= fs.ModeNamedPipe
	case S_IFSOCK:
		m |= fs.ModeSocket
	case S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case S_IFBLK:
		m |= fs.ModeDevice
	}
	if s.Mode&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if s.Mode&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if s.Mode&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}

func statOf(b *fsys.Statbuf) Stat {
	ts := func(t fsys.Timespec) Timespec { return Timespec{t.Sec, t.Nsec} }
	return Stat{Dev: b.Dev, Mode: b.Mode, Nlink: b.Nlink, UID: b.UID, GID: b.GID, Rdev: b.Rdev,
		Ino: b.Ino, Size: b.Size, Blksize: b.Blksize, Blocks: b.Blocks, Flags: b.Flags, Gen: b.Gen,
		Atime: ts(b.Atime), Mtime: ts(b.Mtime), Ctime: ts(b.Ctime), Birthtime: ts(b.Birthtime)}
}

// Op returns the name of the request's system call ("open", "stat", "copyfile", ...), or ""
// for a request never started.
func (r *FSReq) Op() string { return fsOpNames[r.op] }

// Err returns the request's error, or nil if it succeeded.
func (r *FSReq) Err() error { return r.err }

// Result returns the request's number: the descriptor for FSOpen, the byte count for
// FSRead, FSReadv, FSWrite, FSWritev and FSSendfile, 0 for the rest; -1 after an error.
func (r *FSReq) Result() int64 { return r.result }

// Stat returns what FSStat, FSLstat or FSFstat found.
func (r *FSReq) Stat() Stat { return statOf(&r.stat) }

// Dirents returns FSScandir's listing, sorted by name (byte order) without "." and "..".
// The slice belongs to the caller.
func (r *FSReq) Dirents() []Dirent { return r.dirents }

// ResultPath returns the path that FSRealpath, FSReadlink or FSMkdtemp produced.
func (r *FSReq) ResultPath() string { return r.str }

// Path returns the request's path (the first one, for calls with two).
func (r *FSReq) Path() string { return r.path }

// Cancel takes the request off the work queue if no worker has started it (uv_cancel): its
// callback then runs in the next poll phase with an error wrapping syscall.ECANCELED. A
// request that is not in flight, already running, or submitted to the io_uring backend's
// ring (it runs to its end there), gives an error wrapping ErrBusy.
func (r *FSReq) Cancel() error {
	if !r.busy || r.work == nil {
		return errorf(ErrBusy, "fs request not queued")
	}
	return r.work.Cancel()
}

// InFlight reports whether the request was started and its callback has not started yet.
func (r *FSReq) InFlight() bool { return r.busy }

// start resets r for a new call of op; the caller then sets the arguments and calls submit.
func (l *Loop) fsStart(r *FSReq, op fsOp, cb func(*FSReq)) (*FSReq, error) {
	if r == nil {
		if cb == nil {
			return nil, errorf(ErrNilCallback, "synchronous fs request needs an FSReq")
		}
		r = new(FSReq)
	}
	if r.busy {
		return nil, errorf(ErrBusy, "fs request in flight")
	}
	if l.closed {
		return nil, ErrClosed
	}
	run, done := r.run, r.done
	if run == nil {
		run, done = r.execute, r.complete
	}
	*r = FSReq{loop: l, op: op, cb: cb, run: run, done: done, fd: -1, fd2: -1, result: -1}
	return r, nil
}

// submit queues r on the work pool, or runs it at once without a callback.
func (r *FSReq) submit() error {
	if r.cb == nil {
		r.execute()
		return r.err
	}
	if r.ringSubmit() {
		return nil
	}
	w, err := r.loop.QueueWork(r.run, r.done)
	if err != nil {
		return err
	}
	r.work = w
	r.busy = true
	return nil
}

// complete is the work's after callback: on the loop goroutine.
func (r *FSReq) complete(err error) {
	if err != nil {
		var pe *PanicError
		if errors.As(err, &pe) {
			r.err = err
		} else {
			r.err = r.wrap(syscall.ECANCELED)
		}
		r.result = -1
	}
	r.busy = false
	r.work = nil
	r.bufs, r.buf1[0] = nil, nil
	cb := r.cb
	r.cb = nil
	cb(r)
}

// wrap gives errno the shape of the request's call: with its path(s) or its descriptor.
func (r *FSReq) wrap(err error) error {
	op := fsOpNames[r.op]
	switch r.op {
	case fsRename, fsLink, fsSymlink, fsCopyfile:
		return &os.LinkError{Op: op, Old: r.path, New: r.path2, Err: err}
	}
	if r.op.onFd() {
		return os.NewSyscallError(op, err)
	}
	return &fs.PathError{Op: op, Path: r.path, Err: err}
}

// onFd reports whether op's call is on a descriptor (fd, and fd2 for sendfile).
func (op fsOp) onFd() bool {
	switch op {
	case fsClose, fsRead, fsWrite, fsFstat, fsFchmod, fsFchown, fsFutime, fsFsync,
		fsFdatasync, fsFtruncate, fsSendfile:
		return true
	}
	return false
}

// badFd reports whether r is a call on a descriptor that is not one (fsys.BadFd: negative,
// or beyond int32, where the kernel would take its low 32 bits for another descriptor): it
// fails with EBADF before any system call.
func (r *FSReq) badFd() bool {
	return r.op.onFd() && (fsys.BadFd(r.fd) || r.op == fsSendfile && fsys.BadFd(r.fd2))
}

// execute runs the system call: on a worker, or on the caller in synchronous mode.
func (r *FSReq) execute() {
	var err error
	var n int
	if (r.op == fsRead || r.op == fsWrite) && len(r.bufs) == 0 {
		r.err, r.result = r.wrap(syscall.EINVAL), -1 // no buffers: uv_fs_read's and uv_fs_write's EINVAL
		return
	}
	if r.badFd() {
		r.err, r.result = r.wrap(syscall.EBADF), -1
		return
	}
	switch r.op {
	case fsOpen:
		n, err = fsys.Open(r.path, r.flags, r.mode)
		r.result = int64(n)
	case fsClose:
		err = fsys.Close(r.fd)
	case fsRead:
		if len(r.bufs) == 1 {
			n, err = fsys.Read(r.fd, r.bufs[0], r.off)
		} else {
			n, err = fsys.Readv(r.fd, r.bufs, r.off)
		}
		r.result = int64(n)
	case fsWrite:
		if len(r.bufs) == 1 {
			n, err = fsys.Write(r.fd, r.bufs[0], r.off)
		} else {
			n, err = fsys.Writev(r.fd, r.bufs, r.off)
		}
		r.result = int64(n)
	case fsStat:
		err = fsys.Stat(r.path, &r.stat)
	case fsLstat:
		err = fsys.Lstat(r.path, &r.stat)
	case fsFstat:
		err = fsys.Fstat(r.fd, &r.stat)
	case fsRename:
		err = fsys.Rename(r.path, r.path2)
	case fsUnlink:
		err = fsys.Unlink(r.path)
	case fsMkdir:
		err = fsys.Mkdir(r.path, r.mode)
	case fsMkdtemp:
		r.str, err = fsys.Mkdtemp(r.path)
		if err != nil && r.str != "" { // the name that failed, as libuv reports it
			r.path = r.str
		}
	case fsRmdir:
		err = fsys.Rmdir(r.path)
	case fsScandir:
		r.dirents, err = fsys.Scandir(r.path)
	case fsRealpath:
		r.str, err = fsys.Realpath(r.path)
	case fsReadlink:
		r.str, err = fsys.Readlink(r.path)
	case fsSymlink:
		err = fsys.Symlink(r.path, r.path2)
	case fsLink:
		err = fsys.Link(r.path, r.path2)
	case fsChmod:
		err = fsys.Chmod(r.path, r.mode)
	case fsFchmod:
		err = fsys.Fchmod(r.fd, r.mode)
	case fsChown:
		err = fsys.Chown(r.path, r.uid, r.gid)
	case fsFchown:
		err = fsys.Fchown(r.fd, r.uid, r.gid)
	case fsLchown:
		err = fsys.Lchown(r.path, r.uid, r.gid)
	case fsUtime:
		err = fsys.Utime(r.path, r.atime, r.mtime)
	case fsFutime:
		err = fsys.Futime(r.fd, r.atime, r.mtime)
	case fsLutime:
		err = fsys.Lutime(r.path, r.atime, r.mtime)
	case fsFsync:
		err = fsys.Fsync(r.fd)
	case fsFdatasync:
		err = fsys.Fdatasync(r.fd)
	case fsFtruncate:
		err = fsys.Ftruncate(r.fd, r.off)
	case fsCopyfile:
		err = fsys.Copyfile(r.path, r.path2, r.flags)
	case fsAccess:
		err = fsys.Access(r.path, r.mode)
	case fsSendfile:
		r.result, err = fsys.Sendfile(r.fd, r.fd2, r.off, r.n)
	}
	if err != nil {
		r.err = r.wrap(err)
		r.result = -1
		return
	}
	if r.result < 0 {
		r.result = 0
	}
}
