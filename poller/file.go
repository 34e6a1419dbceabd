package poller

import (
	"syscall"

	"github.com/uvgo/uvgo/internal/fsys"
)

// FileOp is a file system call that the io_uring backend can run for its caller as a
// submission (SubmitFile), instead of the caller running it on a thread of its own.
type FileOp uint8

// The file system calls, each as internal/fsys makes it (the same flags, the same results).
const (
	FileNone      FileOp = iota
	FileRead             // pread(Fd, Buf, Off), or read(Fd, Buf) at the file's position when Off < 0: Res is the count (Fd a regular file: see FileReq)
	FileWrite            // pwrite or write, as FileRead
	FileOpen             // openat(AT_FDCWD, Path, Flags|O_CLOEXEC|O_LARGEFILE, Mode): Res is the descriptor
	FileClose            // close(Fd)
	FileStat             // statx of Path, following links, into *Stat
	FileLstat            // statx of Path itself, into *Stat
	FileFstat            // statx of Fd (Fd >= 0), into *Stat
	FileFsync            // fsync(Fd)
	FileFdatasync        // fdatasync(Fd)
	FileRename           // renameat(AT_FDCWD, Path, AT_FDCWD, Path2)
	FileUnlink           // unlinkat(AT_FDCWD, Path, 0)
	FileRmdir            // unlinkat(AT_FDCWD, Path, AT_REMOVEDIR)
	FileMkdir            // mkdirat(AT_FDCWD, Path, Mode)
	FileSymlink          // symlinkat(Path, AT_FDCWD, Path2): Path2 points at Path
	FileLink             // linkat(AT_FDCWD, Path, AT_FDCWD, Path2, 0)
	NumFileOps
)

// FileReq is one file system call on the ring. The caller fills in what its Op uses and
// hands it to SubmitFile; from then until FileDone returns it, the request, its Buf and its
// Stat belong to the poller: the kernel may read Buf and write Buf and Stat until the
// request's completion, and the poller keeps all three reachable until then (even past
// Close, when the kernel has not let go of them). Paths are copied, NUL-terminated, into
// memory of the poller's, kept until the completion too.
//
// FileRead and FileWrite are pread and pwrite only on a regular file: on a pipe, a socket or
// a tty the ring ignores Off (no ESPIPE) and O_NONBLOCK (a read of an empty pipe waits for
// data, and cannot be taken back), and a write to a blocking pipe completes short. The
// caller checks the descriptor's kind and runs the others itself.
type FileReq struct {
	Op          FileOp
	Fd          int
	Off         int64  // FileRead, FileWrite: the offset, < 0 for the file's position
	Buf         []byte // FileRead, FileWrite
	Path, Path2 string
	Flags       int           // FileOpen: os.O_* flags
	Mode        uint32        // FileOpen, FileMkdir: permission bits
	Stat        *fsys.Statbuf // FileStat, FileLstat, FileFstat: where the result goes
	Owner       any           // the caller's, untouched (say, the request this one serves)

	// Res is the outcome, set when FileDone returns the request: >= 0 (a count, a descriptor,
	// or 0) or -errno (see Errno).
	Res int32
}

// Errno returns the request's error as a syscall.Errno, or 0 when it succeeded.
func (r *FileReq) Errno() syscall.Errno {
	if r.Res >= 0 {
		return 0
	}
	return syscall.Errno(-r.Res)
}

// CanFile reports whether SubmitFile runs op here: the io_uring backend, on a kernel that
// supports op's opcode (FileOpen, FileClose and FileStat need Linux 5.6, FileRename and
// FileUnlink 5.11, FileMkdir and the links 5.15).
func (p *Poller) CanFile(op FileOp) bool { return !p.closed() && op < NumFileOps && p.canFile(op) }

// SubmitFile queues r (see FileReq); the next Wait submits it, and the Wait that reaps its
// completion makes it available to FileDone, in the order the kernel completed the requests.
// Once queued, a request cannot be taken back: it runs to its completion. SubmitFile fails,
// queueing nothing, with ErrClosed, with an error wrapping errors.ErrUnsupported when
// CanFile(r.Op) is false, with one wrapping EINVAL for a path with a NUL byte and with one
// wrapping EBADF for an Fd outside 0..MaxInt32 (fsys.BadFd) of an op on a descriptor.
// Loop goroutine only.
func (p *Poller) SubmitFile(r *FileReq) error {
	if p.closed() {
		return ErrClosed
	}
	if r.Op >= NumFileOps || !p.canFile(r.Op) {
		return errBackend(BackendIOURing, nil)
	}
	return p.submitFile(r)
}

// FileDone returns the next request whose completion a Wait reaped, or nil. Loop goroutine
// only.
func (p *Poller) FileDone() *FileReq {
	if p.closed() {
		return nil
	}
	return p.fileDone()
}

// FilesDone reports whether FileDone has a request to return.
func (p *Poller) FilesDone() bool { return !p.closed() && p.filesDone() }
