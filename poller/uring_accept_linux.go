package poller

import (
	"os"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/sock"
	"github.com/uvgo/uvgo/internal/uring"
)

// Listeners can have the kernel accept for them (AcceptStart, when Open's probe found
// multishot accepts: Linux 5.19): one multishot IORING_OP_ACCEPT per listening socket, with
// SOCK_NONBLOCK|SOCK_CLOEXEC, each completion carrying one accepted fd. Its user data is the
// poll's layout with bit 60 set (63 is the receives', 62 the sends', 61 the files').
//
// AcceptStart arms the request at once (it goes to the kernel with the next wait, in the
// order of the other requests, as epoll_ctl would register the listener); AcceptStop only
// records that the caller stops, and the next wait cancels the request (flushAccepts), so
// that a listener parked while a connection waits for the caller and resumed in the same
// callback costs no SQE. A request that ends
// (its last completion has no IORING_CQE_F_MORE: an error such as EMFILE, a full completion
// ring, or ECANCELED when the submitting thread exited) is armed again by the next wait while
// the caller wants accepts: a listener stays level-triggered, as on readiness.
//
// An accepted fd belongs to the caller once Wait reported it. One that no one is left to take
// (its listener forgotten, or the poller closing) is closed here, with a reset (SO_LINGER 0),
// since on readiness it would have stayed in the listen queue, which the listener's close
// resets: ringAccepted for a stale completion, releaseAccepts at Close, which cancels the
// requests in flight and reaps their last completions first.

const udAccept = 1 << 60

func acceptUD(fd int, seq uint32) uint64 { return udAccept | pollUD(fd, seq) }

// acceptFd is the listener's fd in an accept's user data.
func acceptFd(ud uint64) int { return int(ud>>32&(1<<28-1)) - 1 }

// ringAccepts is the accept requests' part of ringState; loop goroutine only.
type ringAccepts struct {
	on       bool          // the kernel has multishot accepts (Open's probe)
	st       []acceptState // indexed by the listener's fd
	dirty    []int32       // fds whose request is to follow want at the next wait
	inflight int           // requests in the kernel (their last completion not reaped)
}

// acceptState is the multishot accept of one listener.
type acceptState struct {
	want      bool   // the caller accepts (between AcceptStart and AcceptStop)
	armed     bool   // a request is in the kernel, its last completion not reaped
	canceling bool   // its cancellation is queued
	dirty     bool   // in ringAccepts.dirty
	moving    bool   // a move cancelled it (counted in ringState.moving)
	seq       uint32 // the armed request's generation
	tag       uint32 // AcceptStart's
}

func (p *Poller) canAccept() bool { return p.q.ring != nil && p.q.ring.acc.on }

func (rs *ringState) acceptTouch(fd int) {
	if st := &rs.acc.st[fd]; !st.dirty {
		st.dirty = true
		rs.acc.dirty = append(rs.acc.dirty, int32(fd))
	}
}

func (p *Poller) acceptStart(fd int, tag uint32) error {
	if !p.canAccept() {
		return errBackend(BackendIOURing, nil)
	}
	rs := p.q.ring
	if fd >= len(rs.acc.st) {
		st := make([]acceptState, max(2*len(rs.acc.st), fd+1, 16))
		copy(st, rs.acc.st)
		rs.acc.st = st
	}
	st := &rs.acc.st[fd]
	st.want, st.tag = true, tag
	if !st.armed {
		if err := rs.armAccept(fd); err != nil {
			rs.acceptTouch(fd) // no room for the SQE now: the next wait arms it
			return err
		}
	}
	return nil // armed, or being cancelled: its last completion arms it again
}

func (p *Poller) acceptStop(fd int) error {
	if !p.canAccept() {
		return errBackend(BackendIOURing, nil)
	}
	rs := p.q.ring
	if fd < len(rs.acc.st) && rs.acc.st[fd].want {
		rs.acc.st[fd].want = false
		rs.acceptTouch(fd)
	}
	return nil
}

func (p *Poller) acceptForget(fd int) error {
	if !p.canAccept() {
		return errBackend(BackendIOURing, nil)
	}
	rs := p.q.ring
	if fd >= len(rs.acc.st) {
		return nil
	}
	st := &rs.acc.st[fd]
	armed := st.armed
	if armed {
		if err := rs.cancelAccept(fd); err != nil {
			return err // still armed: Close cancels it
		}
	}
	if st.moving {
		rs.moving--
	}
	// What still completes is stale, its fds closed; a queued flush finds nothing to do.
	*st = acceptState{dirty: st.dirty}
	if armed {
		rs.offSubmit()
		if _, e := rs.enter(0, nil); e != nil && e != uring.ErrSQFull {
			return os.NewSyscallError("io_uring_enter", e)
		}
	}
	return nil
}

// armAccept queues a multishot accept on fd under a new generation.
func (rs *ringState) armAccept(fd int) error {
	rs.seq++
	return rs.armAcceptAs(fd, rs.seq)
}

// armAcceptAs queues a multishot accept on fd under generation seq.
func (rs *ringState) armAcceptAs(fd int, seq uint32) error {
	sqe, err := rs.sqe()
	if err != nil {
		return err
	}
	sqe.Opcode, sqe.Fd, sqe.Ioprio, sqe.OpFlags, sqe.UserData =
		uring.OpAccept, int32(fd), uring.AcceptMultishot, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, acceptUD(fd, seq)
	st := &rs.acc.st[fd]
	st.armed, st.canceling, st.seq = true, false, seq
	rs.acc.inflight++
	return nil
}

// cancelAccept queues the cancellation of fd's request.
func (rs *ringState) cancelAccept(fd int) error {
	st := &rs.acc.st[fd]
	if !st.armed || st.canceling {
		return nil
	}
	sqe, err := rs.sqe()
	if err != nil {
		return err
	}
	sqe.Opcode, sqe.Addr, sqe.UserData = uring.OpAsyncCancel, acceptUD(fd, st.seq), udIgnore
	st.canceling = true
	return nil
}

// flushAccepts makes the kernel's requests follow what the callers want; ringWait calls it
// before it submits.
func (p *Poller) flushAccepts() error {
	rs := p.q.ring
	for i, fd := range rs.acc.dirty {
		st := &rs.acc.st[fd]
		st.dirty = false
		var err error
		switch {
		case st.want && !st.armed:
			err = rs.armAccept(int(fd))
		case !st.want && st.armed:
			err = rs.cancelAccept(int(fd))
		}
		// A request being cancelled while wanted again ends, and its last completion puts fd
		// back on the list.
		if err != nil {
			rest := rs.acc.dirty[i:]
			rs.acc.dirty = rs.acc.dirty[:copy(rs.acc.dirty, rest)]
			st.dirty = true
			return err
		}
	}
	rs.acc.dirty = rs.acc.dirty[:0]
	return nil
}

// ringAccepted handles an accept's completion, filling p.out[k] and reporting true when it is
// to be reported. An fd accepted for no one is closed.
func (p *Poller) ringAccepted(ud uint64, res int32, flags uint32, k int) bool {
	rs := p.q.ring
	final := flags&uring.CQEFMore == 0
	if final {
		rs.acc.inflight--
	}
	fd, seq := acceptFd(ud), uint32(ud)
	if fd < 0 || fd >= len(rs.acc.st) || !rs.acc.st[fd].armed || rs.acc.st[fd].seq != seq {
		if res >= 0 {
			sock.CloseReset(int(res)) // accepted after AcceptForget
		}
		rs.stale(ud, flags)
		return false
	}
	st := &rs.acc.st[fd]
	if final {
		if st.moving {
			st.moving = false
			rs.moving--
		}
		st.armed, st.canceling = false, false
		if st.want {
			rs.acceptTouch(fd) // ended while wanted: armed again by the next wait
		}
	}
	if res == -int32(unix.ECANCELED) {
		return false
	}
	p.out[k] = Event{Fd: int32(fd), Tag: st.tag, res: res, acc: true}
	return true
}

// releaseAccepts cancels the accepts in flight and reaps every completion until their last
// ones, closing the fds they accepted, so that Close leaks none. It runs first in
// ringRelease; the receives' last completions and the file requests' completions met on the
// way are handled as the later loops there would handle them (those loops no longer meet an
// accept's completion).
func (p *Poller) releaseAccepts() {
	rs := p.q.ring
	for fd := range rs.acc.st {
		if rs.acc.st[fd].armed {
			rs.cancelAccept(fd)
			rs.acc.st[fd].want = false
		}
	}
	rs.releaseReap(1000, func() bool { return rs.acc.inflight == 0 })
}

// acceptDropped is Close's part for an accept's completion that no Wait will report: the fd
// it accepted is closed, its peer reset as when a listener's queue is dropped, and its last
// completion counted.
func (rs *ringState) acceptDropped(res int32, flags uint32) {
	if res >= 0 {
		sock.CloseReset(int(res))
	}
	if flags&uring.CQEFMore == 0 {
		rs.acc.inflight--
	}
}
