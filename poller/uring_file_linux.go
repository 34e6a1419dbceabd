package poller

import (
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/fsys"
	"github.com/uvgo/uvgo/internal/uring"
)

// File system calls on the ring (SubmitFile). Each request in flight holds a slot: the
// caller's *FileReq (so that its Buf and Stat stay reachable while the kernel may write
// them), the NUL-terminated copies of its paths and the statx buffer the kernel fills. A
// slot is allocated once, kept in a slice of pointers (the kernel writes into its statx
// buffer: growing the slice must not move it) and reused after the request's completion,
// so a request allocates nothing once the poller has as many slots as requests in flight.
// A request's user data is udFile | its slot. Completions are kept, in order, until
// FileDone hands them out; their statx results are converted as internal/fsys converts its
// own. Close cancels the requests in flight and waits (a bounded time) for their completions;
// those the kernel still has stay reachable for good rather than let it write into freed
// memory.

const (
	udFile = 1 << 61

	// maxRW is the most one read or write moves, as read(2) and write(2) cap it.
	maxRW = 0x7ffff000

	fileReleaseTries = 100 // Close's waits of 10 ms for the requests in flight
)

// fileOpcodes are the opcodes of the FileOps.
var fileOpcodes = [NumFileOps]uint8{
	FileRead: uring.OpRead, FileWrite: uring.OpWrite, FileOpen: uring.OpOpenat,
	FileClose: uring.OpClose, FileStat: uring.OpStatx, FileLstat: uring.OpStatx,
	FileFstat: uring.OpStatx, FileFsync: uring.OpFsync, FileFdatasync: uring.OpFsync,
	FileRename: uring.OpRenameat, FileUnlink: uring.OpUnlinkat, FileRmdir: uring.OpUnlinkat,
	FileMkdir: uring.OpMkdirat, FileSymlink: uring.OpSymlink, FileLink: uring.OpLinkat,
}

// fileState is the ring's file requests; loop goroutine only.
type fileState struct {
	ops      [NumFileOps]bool // the kernel supports the op's opcode
	slots    []*fileSlot
	free     []int32    // slots not in flight
	done     []*FileReq // completed, from head on not yet handed out
	head     int
	inflight int
}

// fileSlot is one request in flight.
type fileSlot struct {
	req         *FileReq
	path, path2 []byte // NUL-terminated
	sx          unix.Statx_t
}

// leakedFiles keeps the slots of requests that a closed ring had not completed: the kernel
// may still write into them.
var leakedFiles struct {
	sync.Mutex
	slots []*fileSlot
}

var atFdcwd32 = func() int32 { fd := unix.AT_FDCWD; return int32(fd) }()

// probeFiles records which FileOps the kernel supports.
func (rs *ringState) probeFiles(probe *uring.Probe) {
	for op := FileRead; op < NumFileOps; op++ {
		rs.files.ops[op] = probe.Supports(fileOpcodes[op])
	}
}

func (p *Poller) canFile(op FileOp) bool { return p.q.ring != nil && p.q.ring.files.ops[op] }

// cstring copies s and a NUL into b's memory; EINVAL if s holds a NUL.
func cstring(b []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return b, syscall.EINVAL
		}
	}
	b = append(append(b[:0], s...), 0)
	return b, nil
}

func bytePtr(b []byte) uint64 { return uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

func (p *Poller) submitFile(r *FileReq) error {
	rs := p.q.ring
	fs := &rs.files
	switch r.Op {
	case FileRead, FileWrite, FileClose, FileFstat, FileFsync, FileFdatasync:
		if fsys.BadFd(r.Fd) {
			return syscall.EBADF // the SQE's int32 would hold another descriptor, or AT_FDCWD
		}
	}
	if len(fs.free) == 0 {
		fs.free = append(fs.free, int32(len(fs.slots)))
		fs.slots = append(fs.slots, new(fileSlot))
	}
	i := fs.free[len(fs.free)-1]
	s := fs.slots[i]
	var err error
	switch r.Op {
	case FileOpen, FileStat, FileLstat, FileUnlink, FileRmdir, FileMkdir:
		s.path, err = cstring(s.path, r.Path)
	case FileFstat:
		s.path, err = cstring(s.path, "")
	case FileRename, FileSymlink, FileLink:
		if s.path, err = cstring(s.path, r.Path); err == nil {
			s.path2, err = cstring(s.path2, r.Path2)
		}
	}
	if err != nil {
		return err
	}
	sqe, err := rs.sqe()
	if err != nil {
		return err
	}
	fs.free = fs.free[:len(fs.free)-1]
	s.req = r
	fs.inflight++
	sqe.Opcode, sqe.Fd, sqe.UserData = fileOpcodes[r.Op], atFdcwd32, udFile|uint64(i)
	switch r.Op {
	case FileRead, FileWrite:
		sqe.Fd, sqe.Addr, sqe.Len, sqe.Off = int32(r.Fd), bytePtr(r.Buf), uint32(min(len(r.Buf), maxRW)), uint64(r.Off)
		if r.Off < 0 {
			sqe.Off = ^uint64(0) // the file's position (IORING_FEAT_RW_CUR_POS)
		}
	case FileOpen:
		sqe.Addr, sqe.Len, sqe.OpFlags = bytePtr(s.path), r.Mode, uint32(r.Flags|fsys.OpenFlags)
	case FileClose, FileFsync:
		sqe.Fd = int32(r.Fd)
	case FileFdatasync:
		sqe.Fd, sqe.OpFlags = int32(r.Fd), uring.FsyncDatasync
	case FileStat, FileLstat, FileFstat:
		sqe.Addr, sqe.Len, sqe.Off = bytePtr(s.path), fsys.StatxMask, uint64(uintptr(unsafe.Pointer(&s.sx)))
		sqe.OpFlags = unix.AT_STATX_SYNC_AS_STAT
		switch r.Op {
		case FileLstat:
			sqe.OpFlags |= unix.AT_SYMLINK_NOFOLLOW
		case FileFstat:
			sqe.Fd, sqe.OpFlags = int32(r.Fd), sqe.OpFlags|unix.AT_EMPTY_PATH
		}
	case FileUnlink:
		sqe.Addr = bytePtr(s.path)
	case FileRmdir:
		sqe.Addr, sqe.OpFlags = bytePtr(s.path), unix.AT_REMOVEDIR
	case FileMkdir:
		sqe.Addr, sqe.Len = bytePtr(s.path), r.Mode
	case FileRename, FileLink:
		sqe.Addr, sqe.Len, sqe.Off = bytePtr(s.path), uint32(atFdcwd32), bytePtr(s.path2)
	case FileSymlink:
		sqe.Addr, sqe.Off = bytePtr(s.path), bytePtr(s.path2)
	}
	return nil
}

// fileCompleted handles the completion of a file request (from ringReap).
func (rs *ringState) fileCompleted(ud uint64, res int32) {
	fs := &rs.files
	i := int32(uint32(ud))
	if int(i) >= len(fs.slots) || fs.slots[i].req == nil {
		return
	}
	s := fs.slots[i]
	r := s.req
	s.req = nil
	fs.free = append(fs.free, i)
	fs.inflight--
	switch r.Op {
	case FileStat, FileLstat, FileFstat:
		if res == 0 {
			fsys.FromStatx(r.Stat, &s.sx)
		}
	}
	r.Res = res
	fs.done = append(fs.done, r)
}

func (p *Poller) fileDone() *FileReq {
	rs := p.q.ring
	if rs == nil {
		return nil
	}
	fs := &rs.files
	if fs.head == len(fs.done) {
		fs.done, fs.head = fs.done[:0], 0
		return nil
	}
	r := fs.done[fs.head]
	fs.done[fs.head] = nil
	fs.head++
	return r
}

func (p *Poller) filesDone() bool {
	rs := p.q.ring
	return rs != nil && rs.files.head < len(rs.files.done)
}

// fileRelease cancels the file requests in flight (Close) and waits a bounded time for their
// completions, reaping every completion on the way (a receive's final one counted as the
// receives' drain counts it), and keeps the slots of those still in the kernel reachable for
// good.
func (rs *ringState) fileRelease() {
	fs := &rs.files
	for i, s := range fs.slots {
		if s.req == nil {
			continue
		}
		// Cancelled, a request the kernel has not started (a read waiting for a pipe's
		// bytes) ends at once; one that a kernel worker runs ends when the call returns.
		if sqe, err := rs.sqe(); err == nil {
			sqe.Opcode, sqe.Addr, sqe.UserData = uring.OpAsyncCancel, udFile|uint64(i), udIgnore
		}
	}
	rs.releaseReap(fileReleaseTries, func() bool { return fs.inflight == 0 })
	fs.done, fs.head = nil, 0
	if fs.inflight == 0 {
		return
	}
	leakedFiles.Lock()
	for _, s := range fs.slots {
		if s.req != nil {
			leakedFiles.slots = append(leakedFiles.slots, s)
		}
	}
	leakedFiles.Unlock()
}
