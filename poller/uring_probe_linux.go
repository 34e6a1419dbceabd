package poller

import (
	"os"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/uring"
)

// The opcode list (IORING_REGISTER_PROBE) does not tell which flags an opcode takes:
// IORING_OP_RECV is there since Linux 5.6, its multishot flag since 6.0; IORING_OP_ACCEPT
// since 5.5, its multishot flag since 5.19. An older kernel refuses the flag with EINVAL when
// it prepares the request. So Open arms one of each on sockets of its own, where no byte and
// no connection will come (a socketpair, a listening Unix socket with an autobound abstract
// name): a kernel that has the flag keeps the request armed, one that lacks it completes it
// at once. The armed ones are cancelled and reaped before Open returns.

// A third probe asks whether the kernel ends a multishot receive after a number of bytes
// (sqe->optlen, recvLimit): one that does not know the limit refuses it with EINVAL.
//
// The probes' user data: a zero high word, so that a completion reaped later is ignored as
// the backend's own.
const (
	udProbeRecv    = 0x7072_6f01
	udProbeAccept  = 0x7072_6f02
	udProbeRecvLim = 0x7072_6f03
)

// probeMissing makes Open treat multishot receives (bit 0), accepts (bit 1) or the
// receives' byte limit (bit 2) as missing (tests of the fall-back; export_linux_test.go).
var probeMissing uint8

// probeMultishot registers the receives' buffer ring and sets rs.acc.on, for what the kernel
// supports. It fails only when the kernel does not take its submission: the probes' SQEs,
// naming fds it closes, must not reach the kernel later.
func (rs *ringState) probeMultishot(probe *uring.Probe) error {
	if !probe.Supports(uring.OpAsyncCancel) {
		return nil
	}
	if probe.Supports(uring.OpRecv) && probeMissing&1 == 0 {
		// Without provided buffer rings (before Linux 5.19) streams read on readiness.
		rs.bufs, _ = rs.r.RegisterBufRing(recvGroup, recvBufs, recvBufSize)
	}
	recv, acc := rs.bufs != nil, probe.Supports(uring.OpAccept) && probeMissing&2 == 0
	pair, ln := [2]int{-1, -1}, -1
	if recv {
		var err error
		if pair, err = unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0); err != nil {
			pair, recv = [2]int{-1, -1}, false
		}
	}
	if acc {
		ln, acc = probeListener()
	}
	defer func() {
		for _, fd := range [...]int{pair[0], pair[1], ln} {
			if fd >= 0 {
				unix.Close(fd)
			}
		}
	}()
	armed := 0
	if sqe := rs.probeSQE(recv); sqe != nil {
		sqe.Opcode, sqe.Fd, sqe.Flags, sqe.Ioprio, sqe.BufIndex, sqe.UserData =
			uring.OpRecv, int32(pair[0]), uring.SqeBufferSelect, uring.RecvMultishot, rs.bufs.Group(), udProbeRecv
		armed |= 1
	}
	if sqe := rs.probeSQE(recv); sqe != nil {
		sqe.Opcode, sqe.Fd, sqe.Flags, sqe.Ioprio, sqe.BufIndex, sqe.SpliceFdIn, sqe.UserData =
			uring.OpRecv, int32(pair[0]), uring.SqeBufferSelect, uring.RecvMultishot, rs.bufs.Group(), recvLimit, udProbeRecvLim
		armed |= 4
	}
	if sqe := rs.probeSQE(acc); sqe != nil {
		sqe.Opcode, sqe.Fd, sqe.Ioprio, sqe.OpFlags, sqe.UserData =
			uring.OpAccept, int32(ln), uring.AcceptMultishot, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, udProbeAccept
		armed |= 2
	}
	ok := armed
	// A request still armed after the submission is supported; one that completed is not.
	reap := func() {
		for cqe := rs.r.PeekCQE(); cqe != nil; cqe = rs.r.PeekCQE() {
			if bit := probeBit(cqe.UserData); bit != 0 && cqe.Flags&uring.CQEFMore == 0 {
				armed &^= bit
			}
			if cqe.Flags&uring.CQEFBuffer != 0 {
				rs.bufs.Recycle(cqe.BufID())
				rs.bufs.Publish()
			}
			rs.r.AdvanceCQ()
		}
	}
	if armed != 0 {
		if _, err := rs.enter(0, nil); err != nil {
			return os.NewSyscallError("io_uring_enter", err)
		}
	}
	reap()
	ok &= armed
	for _, ud := range [...]uint64{udProbeRecv, udProbeAccept, udProbeRecvLim} {
		if armed&probeBit(ud) != 0 {
			if sqe := rs.r.GetSQE(); sqe != nil {
				sqe.Opcode, sqe.Addr, sqe.UserData = uring.OpAsyncCancel, ud, udIgnore
			}
		}
	}
	for tries := 0; armed != 0 && tries < 100; tries++ {
		rs.ts = uring.Timespec{Nsec: 10e6}
		if _, err := rs.enter(1, &rs.ts); err != nil && err != unix.EINTR {
			break
		}
		reap()
	}
	if ok&1 == 0 && rs.bufs != nil {
		if armed&1 == 0 {
			rs.bufs.Close()
		} // else leak them rather than let the kernel write into freed memory
		rs.bufs = nil
	}
	rs.acc.on = ok&2 != 0
	rs.recvLim = ok&1 != 0 && ok&4 != 0 && probeMissing&4 == 0
	return nil
}

func (rs *ringState) probeSQE(want bool) *uring.SQE {
	if !want {
		return nil
	}
	return rs.r.GetSQE()
}

func probeBit(ud uint64) int {
	switch ud {
	case udProbeRecv:
		return 1
	case udProbeAccept:
		return 2
	case udProbeRecvLim:
		return 4
	}
	return 0
}

// probeListener returns a listening Unix stream socket with an autobound abstract name.
func probeListener() (int, bool) {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, false
	}
	if unix.Bind(fd, &unix.SockaddrUnix{}) != nil || unix.Listen(fd, 1) != nil {
		unix.Close(fd)
		return -1, false
	}
	return fd, true
}
