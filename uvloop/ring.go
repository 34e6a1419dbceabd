package uvloop

import (
	"syscall"

	"github.com/uvgo/uvgo/internal/sock"
	"github.com/uvgo/uvgo/poller"
)

// TCP streams of a loop whose poller can read for them (the io_uring backend: CanRecv) do not
// ask for Readable and read on readiness: ReadStart starts a multishot receive, and the
// kernel reads into buffers shared by the loop's streams as bytes arrive; the poll phase
// hands them to the read callback in the order of the other I/O events. The callbacks see
// what they see on readiness: the bytes (valid only until the callback returns), io.EOF at
// the end, or the read's error, after which reading stops.
//
// ReadStop's cancellation reaches the kernel at once (poller.RecvStop), so the bytes that
// arrive after it stay in the socket, as on readiness: for the stream's next ReadStart, for a
// child that inherits the socket, or for the reset that closing it with unread bytes sends.
// What the kernel read before ReadStop and the callback has not seen yet (later in the same
// batch, or in the completion ring) is not lost: the stream keeps a copy (held) and hands it
// over, before any later bytes, in the poll phase after the next ReadStart. Where the kernel
// ends a multishot receive after a number of bytes (the next wait arms another while the
// stream reads), that bounds what one wait reads (poller.RecvLimit: 272 KiB, 64 KiB while
// the shared buffers run short); elsewhere a flood can fill all the shared buffers (4 MiB) in
// one wait.
// Held bytes are handed over in pieces of at most the loop's read buffer (64 KiB), as reads
// on readiness would, and a ReadStop in the callback keeps the rest held: a stream that
// pauses and resumes takes them at the pace it reads, not as one piece that grows.
//
// The socket's error (the peer reset the connection, or it timed out) goes to whichever of
// its requests runs first: on readiness the read runs before the write and takes it, and the
// write then fails with EPIPE; here a send waiting for room may take it, and the receive then
// reads the end of the stream. So a send that failed with it in the poll phase while the
// stream reads hands it to the read side (sendErrToRead), as on readiness.

// ringRead is a stream's state for reads through the ring; loop goroutine only.
type ringRead struct {
	on      bool // the stream reads through the ring (a TCP stream, and CanRecv)
	started bool // RecvStart is in effect (counted in ioTable.recvs)
	heldEnd bool // the end of the stream, or heldErr, was read while the stream did not read
	hasHeld bool // bytes read while the stream did not read are in s.x.held
	queued  bool // in streamShared.held
}

func (s *stream) ringInit(kind HandleKind) {
	if kind == KindTCP && s.loop.poller.CanRecv() {
		s.ring.on = true
	}
}

// ringStart is ReadStart's part: hand over what is held, else start the receive. With bytes
// held, the receive starts only once they are handed over and the stream still reads
// (runHeld): a stream that pauses and resumes reads the socket when what was read for it is
// used up, as on readiness, rather than have the kernel read more behind it each time.
//
// While a connect is in flight the receive waits for its outcome (ringConnected): started
// before, it would take the connect's error from the socket (a refusal read as the read's
// error, and the connect reported as a success), where on readiness the connect is reported
// first and reading starts after it.
func (s *stream) ringStart() error {
	r := &s.ring
	if r.hasHeld || r.heldEnd {
		if !r.queued {
			r.queued = true
			s.loop.streams.held = append(s.loop.streams.held, s)
		}
		return nil
	}
	if s.sflags&sConnecting != 0 {
		return nil
	}
	return s.ringRecvStart()
}

// ringConnected is finishConnect's part for a stream that ReadStart made read while it
// connected: the receive starts now, after the connect's outcome was taken from the socket.
// If it cannot start, its error goes to the read callback in the next poll phase (runHeld).
func (s *stream) ringConnected() {
	if err := s.ringRecvStart(); err != nil {
		s.hold(nil, err)
		s.ringStart()
	}
}

// ringRecvStart starts the receive, unless it runs.
func (s *stream) ringRecvStart() error {
	r := &s.ring
	if !r.started {
		if err := s.loop.poller.RecvStart(s.io.fd, s.io.tag); err != nil {
			return sysErr("read", err)
		}
		r.started = true
		s.loop.io.recvs++
	}
	return nil
}

// ringStop is stopReading's part.
func (s *stream) ringStop() {
	if s.ring.started {
		s.ring.started = false
		s.loop.io.recvs--
		if s.io.fd >= 0 {
			s.loop.poller.RecvStop(s.io.fd)
		}
	}
}

// ringForget is closeFd's part: the receive is cancelled before the fd is closed, and what
// it still reports is dropped.
func (s *stream) ringForget() {
	if s.ring.started {
		s.ring.started = false
		s.loop.io.recvs--
	}
	unread, _ := s.loop.poller.RecvForgetUnread(s.io.fd)
	if (s.ring.hasHeld || unread || s.receivedLater()) && s.sflags&sSharedBlocking == 0 {
		// Bytes the kernel read that the stream never took: on readiness they would still be
		// in the socket, and closing it would reset the connection. So it does here. Not on
		// a socket given to a child (Spawn's StdioInheritStream): closing the loop's fd does
		// not close the connection, and SO_LINGER 0 would turn the child's close into a reset.
		sock.SetLingerZero(s.io.fd)
	}
	s.ring.hasHeld, s.ring.heldEnd = false, false
	if s.x != nil {
		s.x.held, s.x.heldErr = nil, nil
	}
}

// receivedLater reports whether the rest of the batch being dispatched holds bytes read for
// the stream (a callback of the batch closes it: they are dropped).
func (s *stream) receivedLater() bool { return s.receivedIn(s.loop.io.rest(), false) > 0 }

// receivedIn returns the bytes that events hold read for the stream; with handed, also
// those that readsFirst handed over (their tag inverted).
func (s *stream) receivedIn(events []poller.Event, handed bool) int {
	p := s.loop.poller
	n := 0
	for i := range events {
		ev := &events[i]
		if ev.Received() && ev.Fd == int32(s.io.fd) && (ev.Tag == s.io.tag || handed && ev.Tag == ^s.io.tag) {
			data, _ := p.RecvData(ev)
			n += len(data)
		}
	}
	return n
}

// onRecv is the dispatch of what the kernel read: data, nil at the end of the stream, or err.
func (s *stream) onRecv(data []byte, err error) {
	r := &s.ring
	if s.io.fd < 0 {
		return
	}
	if s.sflags&sReading == 0 || r.hasHeld || r.heldEnd {
		if socketErr(err) && !r.heldEnd {
			// On readiness the error stays in the socket until a write or the read after
			// the next ReadStart takes it: the end held stands for it (deliver) until a
			// send takes it (sockErrFor).
			s.rare().sockErr, err = err, nil
		}
		s.hold(data, err)
		return
	}
	if data == nil && (err == nil || socketErr(err)) && s.receivedIn(s.loop.io.batch, true)%readBufSize != 0 {
		// The end or the socket's error came in the batch that brought bytes, and on
		// readiness the read that took the last of them was short (a multiple of the read
		// buffer is read whole, and the next read finds the end or the error at once).
		if err == nil && !sock.HungUp(s.io.fd) {
			// The next read, which finds the end, is the next poll phase's, after the
			// pending phase (the callbacks of the writes the bytes answered).
			s.hold(nil, nil)
			s.ringStart() // queued for runHeld
			return
		}
		// A reset, or the end of a socket shut down both ways: the hangup ends the stream
		// without another read, and the error stays in the socket for the next write
		// (onSent), or the next read after a ReadStart.
		if err != nil {
			s.rare().sockErr = err
		}
		if s.readCb != nil {
			s.eof()
		}
		return
	}
	s.deliver(data, err)
}

// sockErrFor returns the error a write that failed with err reports: the socket's error that
// a receive took where readiness leaves it in the socket (onRecv), in place of the EPIPE that
// the write got once the receive had taken it.
func (s *stream) sockErrFor(err error) error {
	if err == syscall.EPIPE && s.x != nil && s.x.sockErr != nil {
		err, s.x.sockErr = s.x.sockErr, nil
	}
	return err
}

// readsFirst is dispatch's part for a readiness event of fd and tag that reports a failure of
// the socket (Hangup or Error) to a stream that the kernel reads for: what it read for the
// stream in the rest of the batch (rest) is handed over first, as epoll's one event for both
// directions runs the read before the write. So the error that the socket reports only once
// (a reset) and the end of the stream reach the read callback before the writes fail, in
// whichever order the poll request's and the receive's completions came. The events it handles get a tag that no watcher has, so
// that dispatch drops them. It reports whether the stream is still open.
func (s *stream) readsFirst(rest []poller.Event, fd int32, tag uint32) bool {
	for i := range rest {
		ev := &rest[i]
		if !ev.Received() || ev.Fd != fd || ev.Tag != tag {
			continue
		}
		ev.Tag = ^tag
		if s.ring.on && s.io.fd >= 0 {
			data, err := s.loop.poller.RecvData(ev)
			s.onRecv(data, err)
		}
	}
	return s.io.fd >= 0
}

// deliverHeld hands the read callback the first readBufSize bytes held, as one read on
// readiness would take them; the rest stays held.
func (s *stream) deliverHeld() {
	x, r := s.x, &s.ring
	data := x.held
	if len(data) > readBufSize {
		data, x.held = data[:readBufSize], data[readBufSize:]
	} else {
		x.held, r.hasHeld = nil, false
	}
	s.deliver(data, nil)
}

// hold keeps what the kernel read (a copy of data, or the end or err) for a later delivery.
func (s *stream) hold(data []byte, err error) {
	r := &s.ring
	if r.heldEnd {
		return // nothing follows the end
	}
	if err != nil || data == nil {
		r.heldEnd = true
		if err != nil {
			s.rare().heldErr = err
		}
	} else if len(data) > 0 {
		x := s.rare()
		x.held = append(x.held, data...)
		r.hasHeld = true
	}
}

// keepCompletions is dispatch's part when a callback panicked: the completions of the rest
// of the batch are not lost (readiness comes again, completions do not). Accepted
// connections are kept (keepAccepted), bytes read are held for the next poll phase, and
// sends are applied, their callbacks deferred to the pending phase as after a submission.
func (l *Loop) keepCompletions(events []poller.Event) {
	l.keepAccepted(events)
	for i := range events {
		ev := &events[i]
		if !ev.Received() && !ev.Sent() {
			continue
		}
		w := l.io.byFd.Load(int(ev.Fd))
		if w == nil || w.tag != ev.Tag || w.st == nil {
			continue
		}
		s := w.st
		switch {
		case ev.Received() && s.ring.on && s.io.fd >= 0:
			data, err := l.poller.RecvData(ev)
			s.hold(data, err)
			if r := &s.ring; (r.hasHeld || r.heldEnd) && !r.queued && s.sflags&sReading != 0 {
				r.queued = true
				l.streams.held = append(l.streams.held, s)
			}
		case ev.Sent() && s.rw.on:
			n, err := l.poller.SendResult(ev)
			s.onSent(n, err, true)
		}
	}
}

// deliver hands a read's result to the read callback, as stream.read does.
func (s *stream) deliver(data []byte, err error) {
	if data == nil && err == nil && s.x != nil {
		err = s.delayedRecvErr() // the end stands for the error a send took (sendErrToRead)
		if err == nil {
			err, s.x.sockErr = s.x.sockErr, nil // or the one onRecv left to the socket
		}
	}
	switch {
	case s.readCb == nil:
	case err != nil:
		s.sflags &^= sReadable | sWritable
		s.readFailed(sysErr("read", err))
	case data == nil:
		s.eof()
	default:
		s.readCb(data, nil)
		s.loop.afterTask(s.readCb)
	}
}

// sendErrToRead is onSent's part for a send that failed in the poll phase (it waited for
// room) with err: if err is the socket's error and the stream reads, the read side ends with
// it, as when the read on readiness takes it before the write, and the send fails with EPIPE
// as the write after that read does. The read callback gets it at once when nothing is left
// to read before it; otherwise the end of the stream that the receive reads after those
// bytes stands for it. It returns the send's error. If the read callback panics, the send's
// failure is applied all the same (its callback runs in the next pending phase).
func (s *stream) sendErrToRead(err error) error {
	if !s.ring.on || s.sflags&sReading == 0 || s.readCb == nil || !socketErr(err) || s.ring.heldEnd {
		return err
	}
	if n, e := sock.Unread(s.io.fd); s.ring.hasHeld || e != nil || n > 0 {
		s.rare().heldErr = err
		return syscall.EPIPE
	}
	read := false
	defer func() {
		if !read && s.io.fd >= 0 {
			s.sent(0, syscall.EPIPE)
		}
	}()
	s.deliver(nil, err)
	read = true
	return syscall.EPIPE
}

// socketErr reports whether err is an error that a connected TCP socket reports once to its
// next read or write: what ended the connection. (EPIPE, a reset after the peer's FIN, is
// read as the end of the stream.)
func socketErr(err error) bool {
	switch err {
	case syscall.ECONNRESET, syscall.ETIMEDOUT, syscall.ECONNABORTED, syscall.EHOSTUNREACH,
		syscall.ENETUNREACH, syscall.ENETDOWN, syscall.EHOSTDOWN:
		return true
	}
	return false
}

// runHeld hands the held bytes, then the held end, to the streams that read again.
func (l *Loop) runHeld() {
	held := l.streams.held
	l.streams.held = nil
	next := 0
	defer func() {
		// A callback panicked: the streams it kept from their turn (still marked queued) wait
		// for the next poll phase, ahead of those queued since.
		if rest := held[next:]; len(rest) > 0 {
			l.streams.held = append(rest, l.streams.held...)
		}
	}()
	for i, s := range held {
		r := &s.ring
		if s.sflags&sListening != 0 {
			next = i + 1
			held[i], r.queued = nil, false
			s.acceptBacklog() // a listener's queue is its backlog (ring_accept.go)
			continue
		}
		// Until its bytes are handed over, s keeps its turn (queued): if a callback panics,
		// it waits with the rest for the next poll phase.
		next = i
		for r.hasHeld && s.io.fd >= 0 && s.sflags&sReading != 0 {
			s.deliverHeld()
		}
		next = i + 1
		held[i], r.queued = nil, false
		if s.io.fd < 0 || s.sflags&sReading == 0 {
			continue // stopped (again): the next ReadStart queues it
		}
		if r.heldEnd {
			r.heldEnd = false
			err := s.delayedRecvErr()
			s.deliver(nil, err)
		} else if err := s.ringRecvStart(); err != nil { // all handed over: now the socket
			s.sflags &^= sReadable | sWritable
			s.readFailed(err)
		}
	}
}
