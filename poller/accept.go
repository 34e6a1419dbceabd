package poller

import "syscall"

// Accepted reports whether e carries a connection that AcceptStart accepted on e.Fd rather
// than readiness (io_uring only). Its Events is 0 and its Tag is AcceptStart's; AcceptedFd
// gives the connection.
func (e *Event) Accepted() bool { return e.acc }

// AcceptedFd returns what an accepted event carries: the connection's descriptor (a
// non-blocking, close-on-exec socket that the caller now owns and must close) and nil, or -1
// and the accept's error as a syscall.Errno (EMFILE, ENFILE, ...). It returns -1, nil for
// other events.
func (e *Event) AcceptedFd() (fd int, err error) {
	switch {
	case !e.acc:
		return -1, nil
	case e.res < 0:
		return -1, syscall.Errno(-e.res)
	}
	return int(e.res), nil
}

// CanAccept reports whether AcceptStart works: the io_uring backend, on a kernel with
// multishot accepts (Linux 5.19, probed at Open). Then a listener can have the kernel accept
// for it, instead of asking for Readable and calling accept4 until EAGAIN.
func (p *Poller) CanAccept() bool { return !p.closed() && p.canAccept() }

// AcceptStart makes the kernel accept connections on fd (a listening stream socket) as they
// arrive, non-blocking and close-on-exec: Wait reports each as an accepted Event with tag, in
// the order of the listener's queue, until AcceptStop. A failure (EMFILE, say) is reported
// as an accepted Event with the error, and the kernel goes on accepting after it, as a
// listener on readiness stays readable. Do not also Add fd with Readable interest. Loop
// goroutine only.
//
// AcceptStart and AcceptStop reach the kernel at the next Wait, and a stop followed by a
// start before it costs nothing.
func (p *Poller) AcceptStart(fd int, tag uint32) error {
	if p.closed() {
		return ErrClosed
	}
	if fd < 0 {
		return errBadFd
	}
	return p.acceptStart(fd, tag)
}

// AcceptStop stops the accepts on fd. Connections the kernel accepted already are still
// reported: the caller keeps them for later. Loop goroutine only.
func (p *Poller) AcceptStop(fd int) error {
	if p.closed() {
		return ErrClosed
	}
	return p.acceptStop(fd)
}

// AcceptForget stops the accepts on fd and drops what they would still report; call it
// before closing fd. The cancellation reaches the kernel at once. A connection the kernel
// accepts for fd afterwards (it may be accepting on another thread at that moment) is closed
// by the poller, never handed out nor leaked. Loop goroutine only.
func (p *Poller) AcceptForget(fd int) error {
	if p.closed() {
		return ErrClosed
	}
	return p.acceptForget(fd)
}
