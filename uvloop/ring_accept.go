package uvloop

import (
	"syscall"

	"github.com/uvgo/uvgo/internal/sock"
	"github.com/uvgo/uvgo/poller"
)

// TCP listeners of a loop whose poller can accept for them (the io_uring backend:
// CanAccept) do not ask for Readable and call accept4 until EAGAIN: Listen starts a multishot
// accept, and the kernel accepts each connection as it arrives, non-blocking and
// close-on-exec; the poll phase announces it to the connection callback in the order of the
// other I/O events. What the callback sees is what it sees on readiness:
//
//   - one connection at a time: while one waits for Accept the listener is parked
//     (AcceptStop, which reaches the kernel only if the callback returns without accepting);
//     connections the kernel accepted meanwhile wait in the listener's backlog and are
//     announced, oldest first, as soon as Accept took the waiting one (in the same loop if
//     the callback accepted, else in the next poll phase). Unlike epoll's listen queue,
//     that backlog holds open fds: the kernel accepted each as it arrived, so parking stops
//     accepts only from the next wait, and a burst that came before is held whole;
//   - EMFILE and ENFILE go through the same reserve-fd trick (emfileTrick), which takes
//     the queued connections with accept4 and closes them; the reserve is taken back at each
//     report when it was lost. The listener then waits for Readable before the kernel
//     accepts again (ringAcceptWait), as an accept armed without a free fd fails at once,
//     connection or not: so the callback hears of EMFILE (the reserve lost) only from an
//     accept that Readable armed, when a connection waits, as on readiness;
//   - other accept errors go to the callback, and the kernel goes on accepting.
//
// Closing the listener cancels the accept (AcceptForget) before the fd is closed; the
// connections in the backlog are closed, and so are those the kernel still accepts for it
// (the poller closes them, and dispatch closes those of a batch it drops), each with a reset
// (SO_LINGER 0): on epoll they would still be in the listen queue, whose connections the
// kernel resets when the listener closes. The one announced and not taken is closed
// normally, as epoll's is.

// ringAccept is a listener's state for accepts through the ring, in its streamRare (an
// accepted connection does not carry it); loop goroutine only.
type ringAccept struct {
	on      bool  // the listener accepts through the ring (CanAccept at Listen)
	ready   bool  // armed again by Readable after EMFILE (ringAcceptReady): a connection waits
	backlog []int // connections accepted while one waited for Accept, oldest first
}

// accepting reports whether the stream is a listener that accepts through the ring.
func (s *stream) accepting() bool { return s.x != nil && s.x.acc.on }

// ringListen is listen's part: it starts the kernel's accepts and reports whether it did
// (otherwise the listener waits for Readable). A Pipe listener takes its connections on
// readiness, as Pipe reads are made (ringInit): a Unix socket has no reset to send
// (SO_LINGER 0 does nothing), so closing a connection that the kernel accepted ahead would
// end its client's stream (EOF), where epoll's listen queue resets it (ECONNRESET); and
// accepts ahead would let more clients connect than the backlog allows, where a Unix
// client's connect beyond it fails with EAGAIN.
func (s *stream) ringListen() bool {
	l := s.loop
	if s.accepting() {
		return true // Listen again: the accepts run (or wait for Accept), counted once
	}
	if s.kind != KindTCP || !l.poller.CanAccept() || l.poller.AcceptStart(s.io.fd, s.io.tag) != nil {
		return false
	}
	s.rare().acc.on = true
	l.io.recvs++ // the kernel wait reaps the accepts
	return true
}

// onAccepted is the dispatch of what the kernel accepted: a connection, or an accept error.
// With keep (a callback of the batch panicked) a connection only joins the backlog, to be
// announced in the next poll phase, and an error is dropped (the kernel reports it again).
func (s *stream) onAccepted(fd int, err error, keep bool) {
	l := s.loop
	if s.io.fd < 0 || s.sflags&sListening == 0 {
		if fd >= 0 {
			sock.CloseReset(fd)
		}
		return
	}
	if keep {
		if fd >= 0 {
			s.x.acc.backlog = append(s.x.acc.backlog, fd)
			if !s.ring.queued {
				s.ring.queued = true
				l.streams.held = append(l.streams.held, s)
			}
		}
		return
	}
	if !l.streams.reserved {
		l.reserveFd() // lost to another thread: see serverIO
	}
	waiting := s.x.acc.ready
	s.x.acc.ready = false
	if err != nil {
		if err == syscall.EMFILE || err == syscall.ENFILE {
			s.ringAcceptWait()
			if err = s.emfileTrick(err); (err == syscall.EMFILE || err == syscall.ENFILE) && !waiting {
				// Without the reserve nothing was shed; and the accept failed for want of an
				// fd, maybe with no connection waiting, which readiness would not report.
				// Readable tells when one waits, and its failure is reported then.
				err = syscall.EAGAIN
			}
		}
		switch err {
		case syscall.EAGAIN, syscall.ECONNABORTED:
		default:
			if s.x.connCb != nil {
				s.x.connCb(sysErr("accept", err))
				l.afterCallback()
			}
		}
		return
	}
	if s.x.acceptedFd != -1 || len(s.x.acc.backlog) > 0 {
		s.x.acc.backlog = append(s.x.acc.backlog, fd)
		s.acceptBacklog()
		return
	}
	s.announce(fd)
}

// announce makes fd the connection that waits for Accept and tells the callback. The
// listener is parked until Accept takes it, as serverIO parks it.
func (s *stream) announce(fd int) {
	s.x.acceptedFd = fd
	s.loop.poller.AcceptStop(s.io.fd)
	s.x.connCb(nil)
	s.loop.afterCallback()
}

// acceptBacklog announces the connections of the backlog while the callback accepts them.
// Meanwhile the listener counts as queued in streamShared.held, so that Accept does not queue
// it (this loop goes on by itself).
func (s *stream) acceptBacklog() {
	queued := s.ring.queued
	s.ring.queued = true
	defer func() {
		s.ring.queued = queued
		if !queued && s.io.fd >= 0 && s.x.acceptedFd == -1 && len(s.x.acc.backlog) > 0 {
			// A callback panicked while it accepted: the rest waits for the next poll phase.
			s.ring.queued = true
			s.loop.streams.held = append(s.loop.streams.held, s)
		}
	}()
	for s.io.fd >= 0 && s.x.acceptedFd == -1 && len(s.x.acc.backlog) > 0 {
		fd := s.x.acc.backlog[0]
		s.x.acc.backlog = s.x.acc.backlog[:copy(s.x.acc.backlog, s.x.acc.backlog[1:])]
		s.announce(fd)
	}
}

// ringAcceptWait is onAccepted's part for EMFILE and ENFILE: the kernel takes a free fd
// before it looks for a connection, so an accept armed again while the process has none
// fails at once, with no connection waiting, and the loop would spin. The listener waits
// for Readable instead, as on readiness, and accepts through the ring again when a
// connection waits (ringAcceptReady).
func (s *stream) ringAcceptWait() {
	s.loop.poller.AcceptStop(s.io.fd)
	if s.x.acceptedFd == -1 {
		s.loop.io.start(&s.io, Readable)
	}
}

// ringAcceptReady is ioReady's part for a listener that accepts through the ring: after
// ringAcceptWait, a connection waits; the kernel accepts it (or fails again) at the next wait.
func (s *stream) ringAcceptReady() {
	s.x.acc.ready = true
	s.loop.io.stop(&s.io, Readable)
	s.loop.poller.AcceptStart(s.io.fd, s.io.tag)
}

// ringAcceptResume is Accept's part: the listener accepts again, and what its backlog holds
// is announced in the next poll phase (in this one, when the callback is accepting from
// acceptBacklog, which goes on by itself).
func (s *stream) ringAcceptResume() {
	if s.io.want&Readable != 0 {
		s.loop.io.stop(&s.io, Readable) // waiting after EMFILE: the accept looks now
	}
	s.loop.poller.AcceptStart(s.io.fd, s.io.tag)
	if len(s.x.acc.backlog) > 0 && !s.ring.queued {
		s.ring.queued = true
		s.loop.streams.held = append(s.loop.streams.held, s)
	}
}

// ringAcceptForget is closeFd's part: the accepts are cancelled before the fd is closed, and
// the backlog's connections, never announced, are closed with a reset.
func (s *stream) ringAcceptForget() {
	s.loop.poller.AcceptForget(s.io.fd)
	for _, fd := range s.x.acc.backlog {
		sock.CloseReset(fd)
	}
	s.x.acc.backlog = s.x.acc.backlog[:0]
	s.x.acc.on = false
	s.loop.io.recvs--
}

// accepted is dispatch's part for an accepted event (keep: see onAccepted). A connection
// accepted for a listener that is gone (closed by an earlier callback) is closed with a reset.
func (l *Loop) accepted(ev *poller.Event, keep bool) {
	fd, err := ev.AcceptedFd()
	if w := l.io.byFd.Load(int(ev.Fd)); w != nil && w.tag == ev.Tag && w.st != nil && w.st.accepting() {
		w.st.onAccepted(fd, err, keep)
		return
	}
	if fd >= 0 {
		sock.CloseReset(fd)
	}
}

// keepAccepted keeps the connections of the events that a panic left undispatched.
func (l *Loop) keepAccepted(events []poller.Event) {
	for i := range events {
		if events[i].Accepted() {
			l.accepted(&events[i], true)
		}
	}
}
