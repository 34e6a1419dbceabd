package poller

import (
	"os"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/queue"
	"github.com/uvgo/uvgo/internal/uring"
)

// Sends on the io_uring backend: Send fills an IORING_OP_SEND SQE (one buffer) or an
// IORING_OP_SENDMSG one (several, through a msghdr and iovecs that the fd's sendState keeps
// until the completion, in a sendVec lent for the send), with MSG_NOSIGNAL. A send's user data is udSend | (fd+1)<<32 |
// generation (fd+1 stays below 1<<29, clear of udFile's bit). The kernel tries a send when
// it is submitted and, when the socket is full, waits for room itself (it polls the
// socket): the completion says how much went out.
//
// Submit is the io_uring_enter that hands the queued SQEs over without waiting. It takes
// every completion out of the ring, reports the sends', and stashes the others (polls,
// receives, cancellations) in their order; the next Wait handles the stash before the ring,
// as if the completions were still there, so nothing is lost or reordered.
//
// Other entries to the kernel submit queued sends too: a full submission ring (sqe),
// RecvForget, AcceptForget, SendForget's wait, whatever a handle's close submits. The sends
// they hand over stay the next Submit's to report, as if it had submitted them: SendQueued
// stays true until a Submit or a Wait, and the sends' completions that a wait of theirs
// took out of the ring (stashed: SendForget's, Remove's) go to the next Submit, not to the
// next Wait. So the caller sees a send's completion where it would without those entries.

const (
	udSend        = 1 << 62
	maxSendIovecs = 1024 // IOV_MAX
)

var (
	errSendBusy  = os.NewSyscallError("io_uring send", unix.EBUSY)
	errSendBufs  = os.NewSyscallError("io_uring send", unix.EINVAL)
	errSendStuck = os.NewSyscallError("io_uring send cancel", unix.ETIMEDOUT)
)

// sendRing is the io_uring backend's state for sends; loop goroutine only.
type sendRing struct {
	ok     bool        // the kernel has the opcodes (probeSends, at Open)
	sends  sendTable   // indexed by fd; an entry never moves
	vecs   []*sendVec  // every sendVec made; a sendState names its own by index
	free   uint32      // the sendVecs no send holds: 1 + the index of the first, 0 for none
	queued bool        // a send was queued since the last Submit or Wait (perhaps submitted since by another entry)
	stash  []uring.CQE // completions taken out before a Wait (Submit's that are not sends, and all another wait took): the next Wait's first
	head   int         // the first of stash that Wait has not handled
	seen   int         // stash[:seen] holds no send's completion for Submit (Submit's own, or looked at)
	out    []Event     // Submit's report
}

// sendTable holds the fds' sends; it grows in chunks, never copied (queue.Table).
type sendTable = queue.Table[sendState]

// sendState is the send of one fd: 16 bytes, so that the many fds that are not sending
// cost little (a stream that writes through the ring keeps its entry). What only a send in
// flight needs, its tag among it, is in its sendVec.
type sendState struct {
	seq   uint32 // its generation
	res   int32  // the reaped completion's result, while done
	vec   uint32 // its sendVec, 1 + an index in sendRing.vecs, while armed (and after a send SendForget gave up on); else 0
	armed bool   // a send is queued or in the kernel, its completion not reaped
	done  bool   // its completion was reaped and reported; SendForget may still ask for it
}

// sendVec is what the kernel reads of a send: its iovecs (which also keep the caller's bytes
// alive) and, for several buffers, the msghdr; and the send's tag. A send takes one from
// sendRing.free and gives it back when it completes, so that there are as many as sends in
// flight, not as fds.
type sendVec struct {
	iov  []unix.Iovec
	msg  unix.Msghdr
	tag  uint32
	next uint32 // in sendRing.free: as sendRing.free
}

// takeVec lends a sendVec to a send; it returns its name for sendState.vec.
func (sr *sendRing) takeVec() uint32 {
	id := sr.free
	if id == 0 {
		sr.vecs = append(sr.vecs, new(sendVec))
		return uint32(len(sr.vecs))
	}
	v := sr.vecs[id-1]
	sr.free, v.next = v.next, 0
	return id
}

// vec returns the sendVec named id (not 0).
func (sr *sendRing) vec(id uint32) *sendVec { return sr.vecs[id-1] }

// putVec takes back the sendVec of a completed send.
func (sr *sendRing) putVec(id uint32) {
	v := sr.vec(id)
	clear(v.iov) // the caller's bytes are its own again
	v.iov, v.msg, v.tag = v.iov[:0], unix.Msghdr{}, 0
	v.next, sr.free = sr.free, id
}

// sendWait bounds awaitSend's wait for a cancelled send (the loop stands still meanwhile),
// and it queues the cancellation again every cancelEvery. A cancellation the kernel takes
// ends the send at once.
const (
	sendWait    = 2 * time.Second
	cancelEvery = 10 * time.Millisecond
)

func sendUD(fd int, seq uint32) uint64 { return udSend | pollUD(fd, seq) }

func (p *Poller) canSend() bool {
	rs := p.q.ring
	return rs != nil && rs.snd.ok
}

// probeSends records whether the kernel has the sends' opcodes; Open asks, on the thread
// that opens the ring (a ring pinned to a thread refuses io_uring_register from any other).
func (sr *sendRing) probeSends(probe *uring.Probe) {
	sr.ok = probe.Supports(uring.OpSend) && probe.Supports(uring.OpSendmsg) && probe.Supports(uring.OpAsyncCancel)
}

func (p *Poller) send(fd int, bufs [][]byte, tag uint32) error {
	if !p.canSend() {
		return errBackend(BackendIOURing, nil)
	}
	if len(bufs) == 0 || len(bufs) > maxSendIovecs {
		return errSendBufs
	}
	rs := p.q.ring
	sr := &rs.snd
	st := sr.sends.At(fd)
	if st.armed {
		return errSendBusy
	}
	sqe, err := rs.sqe()
	if err != nil {
		return err
	}
	rs.seq++
	if st.vec == 0 { // else a send SendForget gave up on left it: the kernel may still read it
		st.vec = sr.takeVec()
	}
	vec := sr.vec(st.vec)
	vec.iov = appendIovecs(vec.iov[:0], bufs)
	if len(vec.iov) == 1 {
		sqe.Opcode, sqe.Addr, sqe.Len = uring.OpSend, uint64(uintptr(unsafe.Pointer(vec.iov[0].Base))), uint32(vec.iov[0].Len)
	} else {
		vec.msg = unix.Msghdr{Iov: &vec.iov[0]}
		vec.msg.SetIovlen(len(vec.iov))
		sqe.Opcode, sqe.Addr, sqe.Len = uring.OpSendmsg, uint64(uintptr(unsafe.Pointer(&vec.msg))), 1
	}
	sqe.Fd, sqe.OpFlags, sqe.UserData = int32(fd), unix.MSG_NOSIGNAL, sendUD(fd, rs.seq)
	st.armed, st.done, st.seq, vec.tag = true, false, rs.seq, tag
	sr.queued = true
	return nil
}

// appendIovecs appends to iov the iovecs of bufs, up to MaxSend bytes: a longer buffer is
// cut there, and the buffers after it are left out. A SEND's length, 32 bits, then holds
// the first iovec's.
func appendIovecs(iov []unix.Iovec, bufs [][]byte) []unix.Iovec {
	left := MaxSend
	for _, b := range bufs {
		n := min(len(b), left)
		var v unix.Iovec
		v.SetLen(n) // uint64 or uint32 by the architecture
		if n > 0 {
			v.Base = &b[0]
		}
		iov = append(iov, v)
		if left -= n; left == 0 {
			break
		}
	}
	return iov
}

// reaped records a send's completion; it returns the event to report, or false when the
// completion is stale (its fd's send was forgotten).
func (sr *sendRing) reaped(ud uint64, res int32) (Event, bool) {
	fd, seq := int(ud>>32&0x1fffffff)-1, uint32(ud)
	st := sr.sends.Get(fd)
	if st == nil || !st.armed || st.seq != seq {
		return Event{}, false
	}
	st.armed, st.done, st.res = false, true, res
	tag := sr.vec(st.vec).tag
	sr.putVec(st.vec)
	st.vec = 0
	return Event{Fd: int32(fd), Tag: tag, res: res, sent: true}, true
}

func (p *Poller) sendQueued() bool {
	rs := p.q.ring
	return rs != nil && rs.snd.queued
}

func (p *Poller) submit() ([]Event, error) {
	rs := p.q.ring
	if rs == nil {
		return nil, nil
	}
	sr := &rs.snd
	sr.queued = false
	if _, err := rs.enter(0, nil); err != nil && err != uring.ErrSQFull && err != unix.EINTR {
		return nil, os.NewSyscallError("io_uring_enter", err)
	}
	sr.out = sr.out[:0]
	if max(sr.head, sr.seen) < len(sr.stash) {
		rs.takeStashed(-1) // sends' completions another wait stashed, older than the ring's
	}
	rs.takeCQEs(-1)
	sr.seen = len(sr.stash)
	return sr.out, nil
}

// sendOf reports whether ud is a send's user data, of fd's send when fd >= 0.
func sendOf(ud uint64, fd int) bool {
	return ud&udRecv == 0 && ud&udSend != 0 && (fd < 0 || int(ud>>32&0x1fffffff)-1 == fd)
}

// takeCQEs empties the completion ring: sends' completions go to sr.out, the others to the
// stash. It reports whether the completion of fd's send (fd >= 0) was among them.
func (rs *ringState) takeCQEs(fd int) bool {
	sr := &rs.snd
	found := false
	for cqe := rs.r.PeekCQE(); cqe != nil; cqe = rs.r.PeekCQE() {
		c := *cqe
		rs.r.AdvanceCQ()
		if sendOf(c.UserData, fd) {
			if ev, ok := sr.reaped(c.UserData, c.Res); ok {
				if fd < 0 {
					sr.out = append(sr.out, ev)
				}
				found = found || fd >= 0
			}
			continue
		}
		sr.stash = append(sr.stash, c)
	}
	return found
}

// takeStashed applies the completions of sends that a wait stashed (takeCQEs waiting for
// another fd's send, Remove's): fd's, reporting whether it was there, or, for fd < 0, every
// fd's, into sr.out (of what was stashed since the last Submit). The stashed copies are
// then ignored by the next Wait.
func (rs *ringState) takeStashed(fd int) bool {
	sr := &rs.snd
	from := sr.head
	if fd < 0 {
		from = max(from, sr.seen)
	}
	for i := from; i < len(sr.stash); i++ {
		c := &sr.stash[i]
		if !sendOf(c.UserData, fd) {
			continue
		}
		ev, ok := sr.reaped(c.UserData, c.Res)
		c.UserData = udIgnore // reported here, or stale
		switch {
		case ok && fd >= 0:
			return true
		case ok:
			sr.out = append(sr.out, ev)
		}
	}
	return false
}

// nextCQE returns the oldest completion not handled yet: the stash's first, then the ring's.
func (rs *ringState) nextCQE() (ud uint64, res int32, flags uint32, ok bool) {
	if sr := &rs.snd; sr.head < len(sr.stash) {
		c := sr.stash[sr.head]
		if sr.head++; sr.head == len(sr.stash) {
			sr.stash, sr.head, sr.seen = sr.stash[:0], 0, 0
		}
		return c.UserData, c.Res, c.Flags, true
	}
	cqe := rs.r.PeekCQE()
	if cqe == nil {
		return 0, 0, 0, false
	}
	ud, res, flags = cqe.UserData, cqe.Res, cqe.Flags
	rs.r.AdvanceCQ()
	return ud, res, flags, true
}

// stashed reports whether the stash holds completions: a Wait must not block then.
func (rs *ringState) stashed() bool { return rs.snd.head < len(rs.snd.stash) }

// releaseStash empties the stash at Close: it counts the receives that ended in it and
// hands the file requests' completions over, as ringReap would.
func (rs *ringState) releaseStash() {
	sr := &rs.snd
	for _, c := range sr.stash[sr.head:] {
		switch {
		case c.UserData&udRecv != 0:
			if c.Flags&uring.CQEFMore == 0 {
				rs.inflight--
			}
		case c.UserData&udFile != 0:
			rs.fileCompleted(c.UserData, c.Res)
		case c.UserData&udAccept != 0:
			rs.acceptDropped(c.Res, c.Flags)
		}
	}
	sr.stash, sr.head, sr.seen = nil, 0, 0
}

func (p *Poller) sendForget(fd int) (int, bool, error) {
	rs := p.q.ring
	if rs == nil {
		return 0, false, nil
	}
	st := rs.snd.sends.Get(fd)
	if st == nil || !st.armed && !st.done {
		return 0, false, nil
	}
	var err error
	if st.armed {
		rs.offSubmit()
		err = rs.awaitSend(fd, st)
	}
	ok := !st.armed
	ev := Event{res: st.res, sent: true}
	if st.armed {
		// Not completed within the bound: what it reports later is stale. The kernel holds
		// the socket until then, not the fd number, so closing fd is safe.
		st.armed = false
	}
	st.done = false
	if !ok {
		return 0, false, err
	}
	n, e := p.SendResult(&ev)
	return n, true, e
}

// awaitSend submits fd's send (it completes there if the socket takes the bytes), cancels
// it if it did not complete, and waits for its completion, stashing every other completion.
//
// The cancellation is queued again every cancelEvery while the send lasts. Seen with a 4 KiB
// send buffer (SO_SNDBUF) and a peer that does not read, on a DEFER_TASKRUN ring: every
// cancellation answered ENOENT while the send stayed in the kernel; with one cancellation
// the send was still there after 10 s, with one every 10 ms it ended within about 0.6 s in
// every run. Why the kernel does not find the send is not known. On a ring that is not
// pinned, with the same buffers, a send that the kernel handed to its worker thread (io-wq)
// can answer EALREADY until the peer reads (rarely: once in some hundreds of random runs);
// neither shutting the socket for writing nor growing its buffer ended it.
//
// It gives up after sendWait (errSendStuck): the kernel then keeps the send, its bytes
// (sendState.vec stays lent) and the socket until the peer reads or the connection ends.
func (rs *ringState) awaitSend(fd int, st *sendState) error {
	if rs.takeStashed(fd) {
		return nil // an earlier wait for another send took this one's completion
	}
	ud := sendUD(fd, st.seq)
	var deadline, canceled time.Time
	for first := true; st.armed; first = false {
		var err error
		if first {
			_, err = rs.enter(0, nil)
		} else {
			if time.Now().After(deadline) {
				return errSendStuck
			}
			rs.ts = uring.Timespec{Nsec: int64(cancelEvery)}
			_, err = rs.enter(1, &rs.ts) // (the cancellation's own completion ends it early)
		}
		if err != nil && err != unix.EINTR && err != uring.ErrSQFull {
			return os.NewSyscallError("io_uring_enter", err)
		}
		if rs.takeCQEs(fd) || !st.armed {
			break
		}
		now := time.Now()
		if first {
			deadline = now.Add(sendWait)
		}
		if now.Sub(canceled) >= cancelEvery {
			sqe, err := rs.sqe()
			if err != nil {
				return err
			}
			sqe.Opcode, sqe.Addr, sqe.UserData = uring.OpAsyncCancel, ud, udIgnore
			canceled = now
		}
	}
	return nil
}
