package uvloop

import (
	"syscall"

	"github.com/uvgo/uvgo/poller"
)

// TCP streams of a loop whose poller can write for them (the io_uring backend: CanSend) do
// not call write(2): the queue's head is handed to the kernel as one send request (SEND, or
// SENDMSG for several buffers, with MSG_NOSIGNAL), at most one per stream at a time, so that
// order is kept; what is queued behind it, and the rest of a short send, goes out as one
// request when it completes. The requests queued during a phase are submitted by one
// io_uring_enter at the end of that phase (submitWrites), which also reaps the sends that
// completed inside it, as a send the socket takes at once does: their callbacks then run
// where write(2)'s would, in the next pending phase. A send that had to wait for room
// completes in a later poll phase, and its callbacks run there, as a write on readiness
// does. The bytes count in WriteQueueSize until the completion is reaped.
//
// Closing the stream submits its send and, if the kernel has not completed it, cancels it
// and waits for the completion before the fd is closed: no request runs against a closed
// (or reused) fd, and the kernel no longer reads the caller's bytes. When the send went out
// whole, what is queued behind it is written as epoll's Write would have written it, with
// write(2) as far as the socket takes it (Write, Write, Close in one callback sends both,
// as in Node); the writes not written fail with ECANCELED, as on epoll.

// ringWrite is a stream's state for writes through the ring; loop goroutine only.
type ringWrite struct {
	on       bool   // Write sends through the ring (a TCP stream, and CanSend)
	inflight bool   // a send is queued or in the kernel, its completion not applied (counted in ioTable.sends)
	size     uint32 // the bytes the send in flight asked for (poller.MaxSend at most)
}

func (s *stream) ringWriteInit(kind HandleKind) {
	if kind == KindTCP && s.loop.poller.CanSend() {
		s.rw.on = true
	}
}

// RingWrites reports whether Write sends through the io_uring backend's ring. Then Write
// makes no system call: the bytes are submitted at the end of the phase and stay counted in
// WriteQueueSize until the kernel reports them written (right after that phase when the
// socket takes them at once), and OnDrain's callback runs after every Write's callback.
// TryWrite still writes at once (and fails with EAGAIN while writes are queued), so a caller
// that tries TryWrite first sees the same WriteQueueSize on every backend.
func (s *stream) RingWrites() bool { return s.rw.on }

// ringSend is write's part on the ring: it queues a send of the queue's head (up to
// maxIovecs buffers of the queued requests). It reports false when the poller refused the
// send; the caller then writes itself.
func (s *stream) ringSend() bool {
	if s.rw.inflight {
		return true
	}
	l := s.loop
	for s.queue.front() != nil {
		bufs, total := s.gather()
		if total == 0 {
			clear(bufs)
			s.advance(0) // empty writes are done at once, as write(2) of nothing is
			continue
		}
		err := l.poller.Send(s.io.fd, bufs, s.io.tag)
		clear(bufs)
		if err != nil {
			return false
		}
		s.rw.inflight, s.rw.size = true, uint32(min(total, poller.MaxSend))
		l.io.sends++
		if s.io.want&Writable != 0 {
			l.io.stop(&s.io, Writable) // the completion, not readiness, says what comes next
		}
		return true
	}
	return true
}

// onSent applies a send's result: n bytes written, or err. inline is true when the
// completion was reaped by submitWrites (the callbacks then run from the pending phase, as
// after a write(2) that the socket took); false in the poll phase, where the callbacks run
// at once, as after a write on readiness.
func (s *stream) onSent(n int, err error, inline bool) {
	s.rw.inflight = false
	s.loop.io.sends--
	err = s.sockErrFor(err)
	if err != nil && !inline {
		// When the batch brought bytes, what it read for the stream goes first, as
		// epoll's one event runs the read before the write (without bytes, the end that
		// the receive reads stands for the error: sendErrToRead).
		again := err == syscall.EAGAIN || err == syscall.ENOBUFS // no callback: nothing to order
		if !again && s.receivedIn(s.loop.io.batch, true) > 0 && !s.readsFirst(s.loop.io.rest(), int32(s.io.fd), s.io.tag) {
			return // the read callback closed the stream: destroy cancels the writes
		}
		if err = s.sendErrToRead(err); s.io.fd < 0 {
			return // the read callback closed the stream: destroy cancels the writes
		}
	}
	s.sent(n, err)
	if !inline && s.io.fd >= 0 {
		s.writeCallbacks()
		if s.io.fd >= 0 && s.queue.front() == nil {
			s.drain()
		}
	}
}

// sent accounts a send's result to the queue and sends what is left.
func (s *stream) sent(n int, err error) {
	switch {
	case err == syscall.EAGAIN || err == syscall.ENOBUFS:
		s.loop.io.start(&s.io, Writable) // ioReady sends again
	case err != nil:
		r := s.queue.pop()
		r.err = sysErr("write", err)
		s.finishReq(r)
	default:
		s.advance(n)
		if s.queue.front() != nil && s.io.fd >= 0 {
			s.write()
		}
	}
}

// ringSendForget is closeFd's part: the send ends before the fd is closed. After a send
// that went out whole, what is queued behind it is written now, as far as the socket takes
// it; a cancelled or short send, like a full socket, leaves its requests queued, for
// destroy to fail with ECANCELED. So does a send that failed (it wrote nothing): its failure
// was not applied before the close, and on readiness the write would not have been made
// (the read callback that takes a reset and closes the stream makes it ECANCELED there).
func (s *stream) ringSendForget() {
	if !s.rw.inflight {
		return
	}
	s.rw.inflight = false
	s.loop.io.sends--
	n, ok, err := s.loop.poller.SendForget(s.io.fd)
	switch {
	case !ok && err != nil: // not ended in time: destroy cancels the writes, whose bytes may yet go out
		s.loop.io.lost++
	case !ok, err != nil: // cancelled, the socket full, or failed: destroy cancels the writes
	default:
		s.advance(n)
		if n == int(s.rw.size) {
			s.writeNow()
		}
	}
}

// submitWrites hands the sends queued in the phase that ends to the kernel, and applies
// those that completed inside the submission; a completion that queues the next send of its
// stream (more was queued behind it) is submitted in the same way, ioBurst rounds at most.
func (l *Loop) submitWrites() {
	for round := 0; round < ioBurst && l.poller.SendQueued(); round++ {
		events, err := l.poller.Submit()
		if err != nil {
			l.fatal = err
			return
		}
		for i := range events {
			ev := &events[i]
			w := l.io.byFd.Load(int(ev.Fd))
			if w == nil || w.tag != ev.Tag || w.st == nil || !w.st.rw.on {
				continue
			}
			n, err := l.poller.SendResult(ev)
			w.st.onSent(n, err, true)
		}
	}
}

// endPhase submits the writes queued in the phase that ends (see submitWrites). Each phase
// that ran a callback calls it as it ends (runPending, the Idle, Prepare and Check lists,
// runIdleCallbacks, poll, runImmediates, runClosing, runTimers), and Run after the main
// script's drain: a phase with nothing to run pays nothing for it.
func (l *Loop) endPhase() {
	if l.io.sends > 0 {
		l.submitWrites()
	}
}
