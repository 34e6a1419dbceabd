package uvloop

import (
	"syscall"

	"github.com/uvgo/uvgo/internal/fsys"
	"github.com/uvgo/uvgo/poller"
)

// File system requests on the ring. On the io_uring backend a request whose call the kernel
// can make as a submission (poller.CanFile) and where that pays (ringFSOps: fsync and
// fdatasync always; reads, writes, opens, closes and stats while other work is in flight)
// does not go to the work pool: it becomes one SQE, submitted by the io_uring_enter of the
// next poll phase, and its callback runs in the poll phase whose wait reaps its completion,
// after the I/O callbacks and before the work pool's completions (as the pool's, in the
// order of completion). Results and errors are the pool's: the same system calls with the
// same flags (the statx result converted as internal/fsys converts it), the errno wrapped by
// FSReq.wrap. The rest stays on the pool: reads and writes of anything but a regular file,
// the vectored reads and writes, the calls the kernel has no opcode for (or does not
// support: poller.CanFile probes each), a path with a NUL byte and a call on a descriptor
// outside 0..MaxInt32 (the pool reports their EINVAL and EBADF, the latter before any
// system call), and synchronous requests.
//
// Only a regular file's reads and writes go on the ring, as the kernel runs them there as
// pread and pwrite only on a regular file: on a pipe, a socket or a tty it ignores the offset
// (the pool's pread gives ESPIPE) and O_NONBLOCK (a read of an empty pipe waits for data,
// where the pool's gives EAGAIN, and cannot be cancelled, so the loop cannot end), and a
// write to a blocking pipe completes short (the pool's writes it all), unlike libuv's and
// Node's. So ringSubmit asks fstat(2) for the descriptor's kind before a read or a write
// goes on the ring (a failed fstat leaves it to the pool, which reports the error); that
// costs one system call on the loop per request, measured in bench/README.md's section on
// file requests on the ring.
//
// Such a request cannot be cancelled once started, as libuv's io_uring requests cannot:
// Cancel returns ErrBusy, as for a request a worker runs. It counts as ReqWork, keeps the
// loop alive, and makes Close fail with ErrBusy until its callback has run, as on the pool.
// The poller keeps the request (and so its buffer and its Stat) reachable until the kernel's
// completion, even past the poller's Close.

// ringWhen says when a request goes on the ring.
type ringWhen uint8

const (
	ringNever  ringWhen = iota // on the pool
	ringBusy                   // on the ring while other work is in flight (ReqWork), else on the pool
	ringAlways                 // on the ring
)

// ringFSOps say where each request goes when the kernel can run it on the ring, from the
// side-by-side benchmark (bench_ring_fs_test.go; figures in bench/README.md): alone, a
// request's round trip is shorter on the pool for every call but fsync and fdatasync (the
// ring's costs less CPU for reads, opens and closes, more for the calls the kernel hands to
// its own workers: stat, writes, renames, directories); with 32 in flight the ring is 3.5 to
// 6.5 times faster for reads, writes, stats, opens and closes, and costs 2.3 to 5.5 times
// less CPU (reads and writes much less since each asks fstat for the descriptor's kind
// first: 0.73 of the pool's time, 0.91 of its CPU). So those go on the ring when
// other work is in flight, fsync and fdatasync always, the rest never (slower alone, and not
// shown faster under load).
var ringFSOps = [...]struct {
	op   fsOp
	when ringWhen
}{{fsRead, ringBusy}, {fsWrite, ringBusy}, {fsOpen, ringBusy}, {fsClose, ringBusy},
	{fsStat, ringBusy}, {fsLstat, ringBusy}, {fsFstat, ringBusy},
	{fsFsync, ringAlways}, {fsFdatasync, ringAlways}}

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
	on       [len(fileOps)]ringWhen // when the op goes on the ring
	inflight int                    // submitted, callback not yet started
}

// setRingFS sets when each op goes on the ring: as when says, if the poller can run it.
func (l *Loop) setRingFS(when func(fsOp) ringWhen) {
	l.ringFS.probed = true
	for op := range l.ringFS.on {
		l.ringFS.on[op] = ringNever
		if w := when(fsOp(op)); w != ringNever && l.poller.CanFile(fileOps[op]) {
			l.ringFS.on[op] = w
		}
	}
}

// ringFSDefault is when ringFSOps sends op to the ring.
func ringFSDefault(op fsOp) ringWhen {
	for _, o := range ringFSOps {
		if o.op == op {
			return o.when
		}
	}
	return ringNever
}

// ringSubmit starts r on the ring, or reports false: the pool runs it.
func (r *FSReq) ringSubmit() bool {
	l := r.loop
	if !l.ringFS.probed {
		l.setRingFS(ringFSDefault)
	}
	if int(r.op) >= len(fileOps) || len(r.bufs) > 1 || r.badFd() {
		return false
	}
	switch l.ringFS.on[r.op] {
	case ringNever:
		return false
	case ringBusy:
		if l.metrics.reqs[ReqWork] == 0 {
			return false
		}
	}
	if (r.op == fsRead || r.op == fsWrite) && !fsys.Regular(r.fd) {
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
