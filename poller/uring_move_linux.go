package poller

import (
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/uring"
)

// The move of the multishot receives and accepts to the thread that now waits (Rebind, and a
// wait after another thread submitted: ringMove). Each is cancelled and armed again from this
// thread, but only once its last completion is reaped: the old request may be reading or
// accepting on the old thread at that moment, so a new one cannot run beside it (the old
// one's completions would be posted after the new one's). Until the new request is armed,
// bytes and connections wait in the socket.
//
// That last completion is posted by the old thread, which runs the request's completion work
// (on a ThreadBound ring, COOP_TASKRUN: the kernel wakes it if it sleeps, else it runs the
// work at its next entry into the kernel, a scheduler tick at the latest; it still needs a
// CPU: tens of microseconds mostly, up to 20 ms seen on a busy machine of two vCPUs). A look
// (Wait(0)) right after the move would come too early for it, and report what is in the
// sockets one or more Waits late, where epoll reports it at once. So a look while moves are
// pending (ringState.moving) waits in the kernel for those last completions, at most
// moveWait: each one that ends a request still wanted is handled there and the request armed
// again at once, and every other completion is stashed, in order, for the look's report (as
// SendForget's awaitSend does). The look then submits the new requests from this thread,
// which find what is in the socket as they are submitted. A wait that times out leaves the
// rest to the following Waits, as before. When no move is pending this costs one comparison
// per Wait.

// moveWait bounds how long a look waits for the last completions of the moved requests:
// two scheduler ticks at 250 Hz, and some room for the old thread to get a CPU.
const moveWait = 10 * time.Millisecond

// rebindMultishots cancels the multishot receives and accepts that the callers still want,
// so that each is armed again from this thread once its last completion is reaped (see
// above); it counts them in rs.moving.
func (rs *ringState) rebindMultishots() error {
	for fd := range rs.recvs.Len() {
		if st := rs.recvs.Get(fd); st != nil && st.armed && st.want {
			if err := rs.cancelRecv(fd); err != nil {
				return err
			}
			if !st.moving {
				st.moving = true
				rs.moving++
			}
		}
	}
	for fd := range rs.acc.st {
		if st := &rs.acc.st[fd]; st.armed && st.want {
			if err := rs.cancelAccept(fd); err != nil {
				return err
			}
			if !st.moving {
				st.moving = true
				rs.moving++
			}
		}
	}
	return nil
}

// awaitMoves submits what is queued (the cancellations among it) and waits, at most
// moveWait, until the last completion of every moved request is reaped (takeMoves). A Submit
// since the move (a phase's sends) may have stashed some already: those are looked at first.
func (rs *ringState) awaitMoves() error {
	sr := &rs.snd
	for i := sr.head; i < len(sr.stash) && rs.moving > 0; i++ {
		if c := &sr.stash[i]; c.Flags&uring.CQEFMore == 0 && rs.landed(c) {
			c.UserData = udIgnore // done with; the reap skips it
		}
	}
	var deadline time.Time
	for rs.moving > 0 {
		var err error
		if deadline.IsZero() {
			deadline = time.Now().Add(moveWait)
			_, err = rs.enter(0, nil)
		} else if left := time.Until(deadline); left > 0 {
			rs.ts = uring.Timespec{Nsec: int64(left)}
			_, err = rs.enter(1, &rs.ts)
		} else {
			rs.forgetMoves()
			break
		}
		if err != nil && err != unix.EINTR && err != uring.ErrSQFull {
			return os.NewSyscallError("io_uring_enter", err)
		}
		rs.takeMoves()
	}
	return nil
}

// takeMoves empties the completion ring into the stash, in order, except the cancellations'
// own completions, which carry nothing, and the last completions that landed handles.
func (rs *ringState) takeMoves() {
	sr := &rs.snd
	for cqe := rs.r.PeekCQE(); cqe != nil; cqe = rs.r.PeekCQE() {
		c := *cqe
		rs.r.AdvanceCQ()
		if c.UserData == udIgnore || c.Flags&uring.CQEFMore == 0 && rs.landed(&c) {
			continue
		}
		sr.stash = append(sr.stash, c)
	}
}

// landed is given a completion c that ends its request. When the request is a moved one, it
// is no longer counted; when, besides, c is its cancellation (ECANCELED, no buffer) and the
// caller still wants the request, landed arms the request again at once, under the same
// generation, so that what the old request reported before c (stashed, not reported yet)
// still counts as the request's, and reports true: c, which reports nothing, is done with.
// Else c is left to the reap.
func (rs *ringState) landed(c *uring.CQE) bool {
	again := c.Res == -int32(unix.ECANCELED) && c.Flags&uring.CQEFBuffer == 0
	seq := uint32(c.UserData)
	switch {
	case c.UserData&udRecv != 0:
		fd := recvFd(c.UserData)
		st := rs.recvs.Get(fd)
		if st == nil || !st.armed || !st.moving || st.seq != seq {
			return false
		}
		st.moving = false
		rs.moving--
		if !again || !st.want {
			return false
		}
		if rs.armRecvAs(fd, seq) != nil {
			return false // no SQE: the reap ends it, and the next wait arms it again
		}
		rs.inflight-- // the old request's
		return true
	case c.UserData&udAccept != 0:
		fd := acceptFd(c.UserData)
		if fd < 0 || fd >= len(rs.acc.st) {
			return false
		}
		st := &rs.acc.st[fd]
		if !st.armed || !st.moving || st.seq != seq {
			return false
		}
		st.moving = false
		rs.moving--
		if !again || !st.want {
			return false
		}
		if rs.armAcceptAs(fd, seq) != nil {
			return false // no SQE: the reap ends it, and the next wait arms it again
		}
		rs.acc.inflight-- // the old request's
		return true
	}
	return false
}

// forgetMoves stops counting the moved requests whose last completion has not come within
// moveWait: the reap handles it whenever it comes, as any other.
func (rs *ringState) forgetMoves() {
	rs.movesLate++
	for fd := range rs.recvs.Len() {
		if st := rs.recvs.Get(fd); st != nil {
			st.moving = false
		}
	}
	for fd := range rs.acc.st {
		rs.acc.st[fd].moving = false
	}
	rs.moving = 0
}
