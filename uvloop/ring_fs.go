package uvloop

import (
	"syscall"

	"github.com/uvgo/uvgo/poller"
)

// File system requests on the ring. On the io_uring backend a request whose call the kernel
// can make as a submission (poller.CanFile) and where that pays (ringFSOps) does not go to the
// work pool: it becomes one SQE, submitted by the io_uring_enter of the next poll phase, and
// its callback runs in the poll phase whose wait reaps its completion, after the I/O
// callbacks and before the work pool's completions, as the pool's do, in the order the
// kernel completed them. Results and errors are the pool's: the same system calls with the
// same flags (the statx result converted as internal/fsys converts it), the errno wrapped by
// FSReq.wrap. The rest stays on the pool: the vectored reads and writes, the calls the kernel
// has no opcode for (or does not support: poller.CanFile probes each), a path with a NUL byte
// or an fstat of a negative descriptor (the pool reports their EINVAL and EBADF), and
// synchronous requests.
//
// Such a request cannot be cancelled once started, as libuv's io_uring requests cannot:
// Cancel returns ErrBusy, as for a request a worker runs. It counts as ReqWork, keeps the
// loop alive, and makes Close fail with ErrBusy until its callback has run, as on the pool.
// The poller keeps the request (and so its buffer and its Stat) reachable until the kernel's
// completion, even past the poller's Close.

// ringFSOps are the requests that go on the ring when the kernel can: those that the
// side-by-side benchmark (bench_ring_fs_test.go, bench/README.md) found faster there.
var ringFSOps = [...]fsOp{fsRead, fsWrite, fsOpen, fsClose, fsStat, fsLstat, fsFstat,
	fsFsync, fsFdatasync, fsRename, fsUnlink, fsRmdir, fsMkdir, fsSymlink, fsLink}

// fileOps maps a request's op to the ring's.
var fileOps = [...]poller.FileOp{fsRead: poller.FileRead, fsWrite: poller.FileWrite,
	fsOpen: poller.FileOpen, fsClose: poller.FileClose, fsStat: poller.FileStat,
	fsLstat: poller.FileLstat, fsFstat: poller.FileFstat, fsFsync: poller.FileFsync,
	fsFdatasync: poller.FileFdatasync, fsRename: poller.FileRename, fsUnlink: poller.FileUnlink,
	fsRmdir: poller.FileRmdir, fsMkdir: poller.FileMkdir, fsSymlink: poller.FileSymlink,
	fsLink: poller.FileLink, fsSendfile: poller.FileNone}

// ringFS is the loop's state of file requests on the ring; loop goroutine only.
type ringFS struct {
	probed   bool
	on       [len(fileOps)]bool // the op goes on the ring
	inflight int                // submitted, callback not yet started
}

// setRingFS sends the ops in ops (and that the poller can run) to the ring, the rest to the
// pool.
func (l *Loop) setRingFS(ops []fsOp) {
	l.ringFS.probed = true
	l.ringFS.on = [len(fileOps)]bool{}
	for _, op := range ops {
		l.ringFS.on[op] = l.poller.CanFile(fileOps[op])
	}
}

// ringSubmit starts r on the ring, or reports false: the pool runs it.
func (r *FSReq) ringSubmit() bool {
	l := r.loop
	if !l.ringFS.probed {
		l.setRingFS(ringFSOps[:])
	}
	if int(r.op) >= len(fileOps) || !l.ringFS.on[r.op] || len(r.bufs) > 1 {
		return false
	}
	f := &r.ring
	*f = poller.FileReq{Op: fileOps[r.op], Fd: r.fd, Off: r.off, Path: r.path, Path2: r.path2,
		Flags: r.flags, Mode: r.mode, Stat: &r.stat, Owner: r}
	if len(r.bufs) == 1 {
		f.Buf = r.bufs[0]
	}
	if l.poller.SubmitFile(f) != nil {
		*f = poller.FileReq{}
		return false
	}
	l.reqStart(ReqWork)
	l.ringFS.inflight++
	r.busy = true
	return true
}

// runRingFS runs the callbacks of the file requests whose completions the poll phase's wait
// reaped, each followed by the nextTick/microtask drain. A callback that panics leaves the
// rest to the next poll phase.
func (l *Loop) runRingFS() {
	for f := l.poller.FileDone(); f != nil; f = l.poller.FileDone() {
		r := f.Owner.(*FSReq)
		l.ringFS.inflight--
		l.reqDone(ReqWork)
		r.result = int64(f.Res)
		if errno := f.Errno(); errno != 0 {
			r.err, r.result = r.wrap(syscall.Errno(errno)), -1
		}
		r.ring = poller.FileReq{}
		r.busy = false
		r.bufs, r.buf1[0] = nil, nil
		cb := r.cb
		r.cb = nil
		cb(r)
		l.afterTask(cb)
	}
}
