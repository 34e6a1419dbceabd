package poller

import "syscall"

// Streams can have the kernel write for them too (CanSend, Send: the io_uring backend). A
// send is a request that the next Submit or Wait hands to the kernel; its completion is
// reported by the Submit or Wait that finds it, as an Event for which Sent is true, and
// SendResult tells how many bytes went out or why none did.

// Sent reports whether e is the completion of a Send rather than readiness.
func (e *Event) Sent() bool { return e.sent }

// SendResult returns what a sent event carries: the bytes the kernel wrote (possibly fewer
// than asked: send the rest again), or the send's error as a syscall.Errno (ECANCELED when
// SendForget cancelled it). It returns 0, nil for other events.
func (p *Poller) SendResult(e *Event) (n int, err error) {
	if !e.sent {
		return 0, nil
	}
	if e.res < 0 {
		return 0, syscall.Errno(-e.res)
	}
	return int(e.res), nil
}

// CanSend reports whether Send works: the io_uring backend on a kernel with IORING_OP_SEND
// and IORING_OP_SENDMSG (Linux 5.6).
func (p *Poller) CanSend() bool { return !p.closed() && p.canSend() }

// MaxSend is the most one Send asks the kernel to write: bufs beyond it are left out (the
// completion reports fewer bytes, as a short send does, and the caller sends the rest
// again). A send's length is 32 bits in the kernel's request, and write(2) takes less than
// 2 GiB at once anyway.
const MaxSend = 1 << 30

// Send queues one send(2) of bufs (one to 1024 slices, MaxSend bytes of them at most) on
// fd, a connected stream socket, with MSG_NOSIGNAL (a closed peer is EPIPE, never SIGPIPE).
// The kernel sees it at the next Submit or Wait, whichever comes first; the Submit or Wait
// that finds its completion reports it as a sent Event with tag. At most one send per fd is
// in flight: Send fails with EBUSY while the last one's completion has not been reported.
// The poller keeps what it needs of bufs (their addresses) until then; the caller must keep
// the bytes unchanged until the completion is reported. Loop goroutine only.
func (p *Poller) Send(fd int, bufs [][]byte, tag uint32) error {
	if p.closed() {
		return ErrClosed
	}
	if fd < 0 {
		return errBadFd
	}
	return p.send(fd, bufs, tag)
}

// SendQueued reports whether a send was queued since the last Submit or Wait: Submit
// would hand it over, or report its completion if another entry to the kernel handed it
// over first (a full submission ring, RecvForget, SendForget's wait). Loop goroutine only.
func (p *Poller) SendQueued() bool { return !p.closed() && p.sendQueued() }

// Submit hands what is queued (sends, and the other requests queued with them) to the kernel
// without waiting, and returns the completions of sends that are there already: a send
// that the socket takes at once completes inside the submission. Other completions are kept
// for the next Wait, in their order. The returned slice is valid only until the next Submit.
// Loop goroutine only.
func (p *Poller) Submit() ([]Event, error) {
	if p.closed() {
		return nil, ErrClosed
	}
	return p.submit()
}

// SendForget ends fd's send before the caller closes fd: it submits the send if the kernel
// has not seen it yet, cancels it if it has not completed, and waits for its completion,
// whose result it returns as SendResult would (ok is false when fd has no send whose
// completion the caller has not had). A completion reported by an earlier Wait or Submit but
// not yet handled is returned again; the report itself is then stale. Loop goroutine only.
func (p *Poller) SendForget(fd int) (n int, ok bool, err error) {
	if p.closed() || fd < 0 {
		return 0, false, nil
	}
	return p.sendForget(fd)
}
