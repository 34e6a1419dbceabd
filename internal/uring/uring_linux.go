//go:build linux

package uring

import (
	"errors"
	"os"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Opcodes (enum io_uring_op) that uvgo uses.
const (
	OpNop         uint8 = 0
	OpPollAdd     uint8 = 6
	OpPollRemove  uint8 = 7
	OpAccept      uint8 = 13
	OpAsyncCancel uint8 = 14
	OpRead        uint8 = 22
	OpWrite       uint8 = 23
	OpSend        uint8 = 26
	OpRecv        uint8 = 27
)

// Setup flags (io_uring_setup's params.flags).
const (
	SetupClamp        uint32 = 1 << 4
	SetupSubmitAll    uint32 = 1 << 7
	SetupCoopTaskrun  uint32 = 1 << 8
	SetupTaskrunFlag  uint32 = 1 << 9
	SetupSingleIssuer uint32 = 1 << 12
	SetupDeferTaskrun uint32 = 1 << 13
)

// optionalFlags are dropped, one group at a time from the first, when the kernel refuses a
// setup with EINVAL (an older kernel that does not know them).
var optionalFlags = [...]uint32{
	SetupDeferTaskrun,
	SetupSingleIssuer,
	SetupCoopTaskrun | SetupTaskrunFlag,
	SetupSubmitAll,
}

// Features (params.features) that the ring relies on or reports.
const (
	FeatSingleMmap uint32 = 1 << 0
	FeatNoDrop     uint32 = 1 << 1
	FeatExtArg     uint32 = 1 << 8
	FeatRsrcTags   uint32 = 1 << 10 // Linux 5.13, as multishot poll requests (PollAddMulti)
)

// io_uring_enter flags.
const (
	EnterGetEvents uint32 = 1 << 0
	enterExtArg    uint32 = 1 << 3
)

// SQE flags.
const (
	SqeIOLink         uint8 = 1 << 2
	SqeCQESkipSuccess uint8 = 1 << 6
	sqNeedWakeup            = 1 << 0
	sqCQOverflow            = 1 << 1
)

// Poll flags (the len field of a POLL_ADD or POLL_REMOVE SQE).
const (
	PollAddMulti uint32 = 1 << 0
)

// io_uring_register opcodes.
const (
	registerProbe = 8
)

// mmap offsets of the three regions.
const (
	offSQRing = 0
	offCQRing = 0x8000000
	offSQEs   = 0x10000000
)

// SQE is a submission queue entry (struct io_uring_sqe, 64 bytes). Field names follow the
// kernel's first union member; OpFlags is the union of rw_flags, poll32_events, msg_flags,
// accept_flags and the others.
type SQE struct {
	Opcode      uint8
	Flags       uint8
	Ioprio      uint16
	Fd          int32
	Off         uint64
	Addr        uint64
	Len         uint32
	OpFlags     uint32
	UserData    uint64
	BufIndex    uint16
	Personality uint16
	SpliceFdIn  int32
	Addr3       uint64
	_           uint64
}

// CQE is a completion queue entry (struct io_uring_cqe, 16 bytes): the SQE's UserData, the
// result (a negative errno on failure) and flags.
type CQE struct {
	UserData uint64
	Res      int32
	Flags    uint32
}

type sqringOffsets struct {
	head, tail, ringMask, ringEntries, flags, dropped, array, resv1 uint32
	userAddr                                                        uint64
}

type cqringOffsets struct {
	head, tail, ringMask, ringEntries, overflow, cqes, flags, resv1 uint32
	userAddr                                                        uint64
}

type params struct {
	sqEntries, cqEntries, flags, sqThreadCPU, sqThreadIdle, features, wqFd uint32
	resv                                                                   [3]uint32
	sqOff                                                                  sqringOffsets
	cqOff                                                                  cqringOffsets
}

// getEventsArg is struct io_uring_getevents_arg, the EXT_ARG of io_uring_enter.
type getEventsArg struct {
	sigmask   uint64
	sigmaskSz uint32
	minWait   uint32
	ts        uint64
}

// Timespec is struct __kernel_timespec: 64-bit seconds and nanoseconds on every architecture.
type Timespec struct {
	Sec  int64
	Nsec int64
}

// Ring is one io_uring instance with its mapped rings. Its SQEs and CQEs alias memory shared
// with the kernel: an *SQE from GetSQE is valid until the next Submit or Enter, a *CQE from
// PeekCQE until AdvanceCQ. One goroutine only; see the package documentation.
type Ring struct {
	fd       int
	flags    uint32 // the setup flags the kernel accepted
	features uint32

	sqMem, cqMem, sqeMem []byte // the mappings; cqMem is nil when it shares sqMem

	sqHead    *uint32 // kernel-owned
	sqTail    *uint32 // ours, published by flush
	sqFlags   *uint32 // kernel-owned: IORING_SQ_CQ_OVERFLOW, IORING_SQ_TASKRUN
	sqMask    uint32
	sqEntries uint32
	sqes      []SQE
	tail      uint32 // the next SQE to hand out; published to *sqTail by flush

	cqHead    *uint32 // ours
	cqTail    *uint32 // kernel-owned
	cqMask    uint32
	cqEntries uint32
	cqes      []CQE
	head      uint32 // the next CQE to read; published to *cqHead by AdvanceCQ

	arg     getEventsArg // Enter's EXT_ARG, reused
	submits uint64       // Enter calls that handed the kernel at least one SQE (Submits)
	ts      Timespec     // Enter's timeout, reused
}

// ErrSQFull is returned by Submit when the kernel accepted none of the queued SQEs because
// its completion ring and overflow list are full (EBUSY); reap completions and submit again.
var ErrSQFull = errors.New("uring: the kernel accepted no submission (completion queue full)")

// Setup creates a ring with room for entries SQEs (rounded up to a power of two by the
// kernel, clamped to its maximum) and twice as many CQEs, asking for flags. When the kernel
// refuses the flags with EINVAL, Setup drops the optional ones (DEFER_TASKRUN, then
// SINGLE_ISSUER, then COOP_TASKRUN with TASKRUN_FLAG, then SUBMIT_ALL) one group at a time
// and tries again; Flags reports what was accepted. It fails with an error wrapping the
// system call's errno: ENOSYS without io_uring, EPERM when io_uring_disabled or a seccomp
// filter forbids it. The ring needs IORING_FEAT_NODROP and IORING_FEAT_EXT_ARG (Linux 5.11):
// without them Setup fails with an error wrapping ENOSYS.
func Setup(entries uint32, flags uint32) (*Ring, error) {
	flags |= SetupClamp
	var p params
	var fd int
	for i := 0; ; {
		p = params{flags: flags}
		r, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, uintptr(entries), uintptr(unsafe.Pointer(&p)), 0)
		if errno == 0 {
			fd = int(r)
			break
		}
		for errno == unix.EINVAL && i < len(optionalFlags) && flags&optionalFlags[i] == 0 {
			i++
		}
		if errno != unix.EINVAL || i == len(optionalFlags) {
			return nil, os.NewSyscallError("io_uring_setup", errno)
		}
		flags &^= optionalFlags[i]
		i++
	}
	const need = FeatSingleMmap | FeatNoDrop | FeatExtArg
	if p.features&need != need {
		unix.Close(fd)
		return nil, os.NewSyscallError("io_uring_setup", unix.ENOSYS)
	}
	r := &Ring{fd: fd, flags: flags, features: p.features}
	if err := r.mmap(&p); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// mmap maps the rings (one mapping, FEAT_SINGLE_MMAP is required) and the SQE array.
func (r *Ring) mmap(p *params) error {
	sqSize := p.sqOff.array + p.sqEntries*4
	if cqSize := p.cqOff.cqes + p.cqEntries*uint32(unsafe.Sizeof(CQE{})); cqSize > sqSize {
		sqSize = cqSize
	}
	mem, err := unix.Mmap(r.fd, offSQRing, int(sqSize), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		return os.NewSyscallError("mmap", err)
	}
	r.sqMem = mem
	sqeSize := int(p.sqEntries) * int(unsafe.Sizeof(SQE{}))
	sqeMem, err := unix.Mmap(r.fd, offSQEs, sqeSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		return os.NewSyscallError("mmap", err)
	}
	r.sqeMem = sqeMem
	u32 := func(off uint32) *uint32 { return (*uint32)(unsafe.Pointer(&mem[off])) }
	r.sqHead, r.sqTail, r.sqFlags = u32(p.sqOff.head), u32(p.sqOff.tail), u32(p.sqOff.flags)
	r.sqMask, r.sqEntries = *u32(p.sqOff.ringMask), *u32(p.sqOff.ringEntries)
	r.cqHead, r.cqTail = u32(p.cqOff.head), u32(p.cqOff.tail)
	r.cqMask, r.cqEntries = *u32(p.cqOff.ringMask), *u32(p.cqOff.ringEntries)
	r.sqes = unsafe.Slice((*SQE)(unsafe.Pointer(&sqeMem[0])), r.sqEntries)
	r.cqes = unsafe.Slice((*CQE)(unsafe.Pointer(&mem[p.cqOff.cqes])), r.cqEntries)
	array := unsafe.Slice((*uint32)(unsafe.Pointer(&mem[p.sqOff.array])), r.sqEntries)
	for i := range array {
		array[i] = uint32(i) // SQE i is submitted from slot i, always
	}
	r.tail = atomic.LoadUint32(r.sqTail)
	r.head = atomic.LoadUint32(r.cqHead)
	return nil
}

// Fd returns the ring's file descriptor.
func (r *Ring) Fd() int { return r.fd }

// Flags returns the setup flags the kernel accepted (see Setup).
func (r *Ring) Flags() uint32 { return r.flags }

// Features returns the kernel's IORING_FEAT_* bits.
func (r *Ring) Features() uint32 { return r.features }

// SQEntries and CQEntries return the sizes of the two rings.
func (r *Ring) SQEntries() uint32 { return r.sqEntries }

// CQEntries returns the size of the completion ring.
func (r *Ring) CQEntries() uint32 { return r.cqEntries }

// Close unmaps the rings and closes the ring's descriptor; the kernel cancels what is still in
// flight. The Ring must not be used afterwards.
func (r *Ring) Close() error {
	for _, m := range [...][]byte{r.sqeMem, r.cqMem, r.sqMem} {
		if m != nil {
			unix.Munmap(m)
		}
	}
	r.sqeMem, r.cqMem, r.sqMem, r.sqes, r.cqes = nil, nil, nil, nil, nil
	err := unix.Close(r.fd)
	r.fd = -1
	if err != nil {
		return os.NewSyscallError("close", err)
	}
	return nil
}

// GetSQE returns the next free SQE, zeroed, or nil when the submission ring is full (submit
// first). The SQE is submitted by the next Submit or Enter, in the order GetSQE handed it out.
func (r *Ring) GetSQE() *SQE {
	if r.tail-atomic.LoadUint32(r.sqHead) >= r.sqEntries {
		return nil
	}
	sqe := &r.sqes[r.tail&r.sqMask]
	*sqe = SQE{}
	r.tail++
	return sqe
}

// Pending returns the number of SQEs handed out and not yet consumed by the kernel.
func (r *Ring) Pending() uint32 { return r.tail - atomic.LoadUint32(r.sqHead) }

// Submit hands the queued SQEs to the kernel without waiting for completions. It returns
// how many the kernel consumed.
func (r *Ring) Submit() (int, error) { return r.Enter(0, nil) }

// Submits returns how many Enter calls have handed the kernel SQEs, so that a caller can tell
// whether anything was submitted between two moments (and so from which thread).
func (r *Ring) Submits() uint64 { return r.submits }

// Enter submits the queued SQEs and, when minComplete > 0, waits until at least minComplete
// CQEs are ready or, if timeout is not nil, the timeout (relative) elapses, whichever comes
// first. It always makes the system call. With minComplete == 0 it does not block and makes
// a raw system call that leaves the Go scheduler out; with minComplete > 0 it makes the
// blocking call. It returns the number of
// SQEs the kernel consumed. A timeout that elapses is not an error; a signal is EINTR
// (unwrapped unix.Errno, so that the caller can compare it without allocating). Other errors
// are unwrapped errnos too: the caller names them.
func (r *Ring) Enter(minComplete uint32, timeout *Timespec) (int, error) {
	atomic.StoreUint32(r.sqTail, r.tail)
	toSubmit := r.tail - atomic.LoadUint32(r.sqHead)
	if toSubmit > 0 {
		r.submits++
	}
	// GETEVENTS even when not waiting: the kernel then runs the completion work queued for
	// this thread and flushes overflowed completions before it returns, so that what is
	// complete shows in the completion ring (without it, a loop that only looked, Wait(0)
	// after Wait(0), was seen to miss a receive's completion for good).
	flags := uintptr(EnterGetEvents)
	var argp unsafe.Pointer
	var argsz uintptr
	if timeout != nil {
		r.ts = *timeout
		r.arg = getEventsArg{ts: uint64(uintptr(unsafe.Pointer(&r.ts)))}
		argp, argsz = unsafe.Pointer(&r.arg), unsafe.Sizeof(r.arg)
		flags |= uintptr(enterExtArg)
	}
	var n uintptr
	var errno unix.Errno
	if minComplete == 0 {
		n, _, errno = unix.RawSyscall6(unix.SYS_IO_URING_ENTER, uintptr(r.fd), uintptr(toSubmit), 0, flags, uintptr(argp), argsz)
	} else {
		n, _, errno = unix.Syscall6(unix.SYS_IO_URING_ENTER, uintptr(r.fd), uintptr(toSubmit), uintptr(minComplete), flags, uintptr(argp), argsz)
	}
	switch errno {
	case 0:
		return int(n), nil
	case unix.ETIME:
		return 0, nil
	case unix.EBUSY:
		return 0, ErrSQFull
	}
	return 0, errno
}

// PeekCQE returns the oldest unread CQE, or nil when the completion ring is empty.
func (r *Ring) PeekCQE() *CQE {
	if r.head == atomic.LoadUint32(r.cqTail) {
		return nil
	}
	return &r.cqes[r.head&r.cqMask]
}

// CQEAt returns the unread CQE i places after the oldest (CQEAt(0) is PeekCQE's), without
// reading it, or nil when there are not that many.
func (r *Ring) CQEAt(i uint32) *CQE {
	if i >= r.Ready() {
		return nil
	}
	return &r.cqes[(r.head+i)&r.cqMask]
}

// AdvanceCQ marks the CQE PeekCQE returned as read, giving its slot back to the kernel.
func (r *Ring) AdvanceCQ() {
	r.head++
	atomic.StoreUint32(r.cqHead, r.head)
}

// Ready returns the number of unread CQEs in the completion ring (not counting those the
// kernel holds in its overflow list; every Enter asks for events, which flushes them).
func (r *Ring) Ready() uint32 { return atomic.LoadUint32(r.cqTail) - r.head }

// Probe is the kernel's list of supported opcodes.
type Probe struct {
	lastOp uint8
	ops    [256]bool
}

// Supports reports whether the kernel knows and supports opcode op.
func (p *Probe) Supports(op uint8) bool { return p.ops[op] }

type probeHeader struct {
	lastOp uint8
	opsLen uint8
	resv   uint16
	resv2  [3]uint32
}

type probeOp struct {
	op    uint8
	resv  uint8
	flags uint16
	resv2 uint32
}

// Probe asks the kernel which opcodes it supports (IORING_REGISTER_PROBE, Linux 5.6).
func (r *Ring) Probe() (*Probe, error) {
	const nops = 256
	var buf struct {
		h   probeHeader
		ops [nops]probeOp
	}
	_, _, errno := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(r.fd), registerProbe, uintptr(unsafe.Pointer(&buf)), nops, 0, 0)
	if errno != 0 {
		return nil, os.NewSyscallError("io_uring_register", errno)
	}
	p := &Probe{lastOp: buf.h.lastOp}
	for _, o := range buf.ops[:buf.h.opsLen] {
		if o.flags&1 != 0 { // IO_URING_OP_SUPPORTED
			p.ops[o.op] = true
		}
	}
	return p, nil
}

// Flags of recv and of CQEs for provided buffers.
const (
	SqeBufferSelect uint8  = 1 << 5 // IOSQE_BUFFER_SELECT: the kernel picks the buffer from BufIndex's group
	RecvMultishot   uint16 = 1 << 1 // IORING_RECV_MULTISHOT, in Ioprio
	AcceptMultishot uint16 = 1 << 0 // IORING_ACCEPT_MULTISHOT, in Ioprio (Linux 5.19)
	CQEFBuffer      uint32 = 1 << 0 // IORING_CQE_F_BUFFER: Flags>>16 is the buffer id
	CQEFMore        uint32 = 1 << 1 // IORING_CQE_F_MORE: the multishot request goes on
	cqeBufferShift         = 16

	// AsyncCancelAll cancels every request whose user data matches (IORING_ASYNC_CANCEL_ALL),
	// in the OpFlags of an OpAsyncCancel SQE.
	AsyncCancelAll uint32 = 1 << 0

	registerPbufRing   = 22
	unregisterPbufRing = 23
)

// BufID returns the provided buffer's id of a CQE that has CQEFBuffer.
func (c *CQE) BufID() uint16 { return uint16(c.Flags >> cqeBufferShift) }

// BufRing is a ring of provided buffers (IORING_REGISTER_PBUF_RING, Linux 5.19): n buffers
// of size bytes each, in memory mapped outside the Go heap, that the kernel picks from for
// requests with SqeBufferSelect and the ring's group. A completion names the buffer it filled
// (CQE.BufID); the owner gives it back with Recycle and publishes with Publish. One goroutine
// only, like the Ring.
type BufRing struct {
	r     *Ring
	group uint16
	size  uint32
	mem   []byte // the ring of descriptors: n × 16 bytes, the tail in the first one
	bufs  []byte // the buffers
	mask  uint16
	tail  uint16 // ours, published by Publish
	descs []bufDesc
}

// bufDesc is struct io_uring_buf; the ring's tail overlays descs[0].resv.
type bufDesc struct {
	addr uint64
	len  uint32
	bid  uint16
	resv uint16
}

type bufReg struct {
	ringAddr    uint64
	ringEntries uint32
	bgid        uint16
	flags       uint16
	resv        [3]uint64
}

// RegisterBufRing maps n buffers (n a power of two, at most 32768) of size bytes and
// registers them as buffer group group, all given to the kernel; size is 1 byte to 1 MiB.
func (r *Ring) RegisterBufRing(group uint16, n, size uint32) (*BufRing, error) {
	if n == 0 || n&(n-1) != 0 || n > 1<<15 || size == 0 || size > 1<<20 {
		return nil, os.NewSyscallError("io_uring_register", unix.EINVAL)
	}
	mem, err := unix.Mmap(-1, 0, int(n)*16, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil, os.NewSyscallError("mmap", err)
	}
	bufs, err := unix.Mmap(-1, 0, int(n)*int(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		unix.Munmap(mem)
		return nil, os.NewSyscallError("mmap", err)
	}
	reg := bufReg{ringAddr: uint64(uintptr(unsafe.Pointer(&mem[0]))), ringEntries: n, bgid: group}
	_, _, errno := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(r.fd), registerPbufRing, uintptr(unsafe.Pointer(&reg)), 1, 0, 0)
	if errno != 0 {
		unix.Munmap(bufs)
		unix.Munmap(mem)
		return nil, os.NewSyscallError("io_uring_register", errno)
	}
	b := &BufRing{r: r, group: group, size: size, mem: mem, bufs: bufs, mask: uint16(n - 1),
		descs: unsafe.Slice((*bufDesc)(unsafe.Pointer(&mem[0])), n)}
	for i := range n {
		b.Recycle(uint16(i))
	}
	b.Publish()
	return b, nil
}

// Group returns the buffer group id, for SQE.BufIndex.
func (b *BufRing) Group() uint16 { return b.group }

// Buf returns buffer bid's first n bytes.
func (b *BufRing) Buf(bid uint16, n int) []byte {
	off := int(bid) * int(b.size)
	return b.bufs[off : off+n : off+int(b.size)]
}

// Recycle gives buffer bid back to the kernel, at the next Publish.
func (b *BufRing) Recycle(bid uint16) {
	d := &b.descs[b.tail&b.mask]
	d.addr = uint64(uintptr(unsafe.Pointer(&b.bufs[int(bid)*int(b.size)])))
	d.len = b.size
	d.bid = bid
	b.tail++
}

// Publish makes the recycled buffers visible to the kernel: a release store of the tail,
// which shares a 32-bit word with the first descriptor's bid (rewritten unchanged).
func (b *BufRing) Publish() {
	var w [2]uint16
	w[0], w[1] = b.descs[0].bid, b.tail
	atomic.StoreUint32((*uint32)(unsafe.Pointer(&b.descs[0].bid)), *(*uint32)(unsafe.Pointer(&w)))
}

// Close unregisters the group and unmaps its memory. Call it only when no request that
// selects from the group is in flight (the kernel would write into the unmapped buffers).
func (b *BufRing) Close() error {
	reg := bufReg{bgid: b.group}
	_, _, errno := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(b.r.fd), unregisterPbufRing, uintptr(unsafe.Pointer(&reg)), 1, 0, 0)
	unix.Munmap(b.bufs)
	unix.Munmap(b.mem)
	if errno != 0 {
		return os.NewSyscallError("io_uring_register", errno)
	}
	return nil
}
