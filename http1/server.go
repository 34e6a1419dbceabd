package http1

import (
	"errors"
	"net/http"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Handler answers requests on the loop goroutine.
//
// ServeHTTP1 runs when a request's head has arrived. r's slices are valid only during the
// call (Request.Detach copies them); to read the body, call r.OnBody before returning. w
// may be used after the call returns (from any later callback of the loop), until
// w.End; it must not be used after. A handler must not block: every connection of the loop
// waits while it runs.
//
// A handler that panics, or a body callback it set (OnBody's), is not recovered: Run returns
// the panic as a *uvloop.PanicError (the loop's policy; call Run again to go on), and the
// connection is left as Node leaves one whose request listener threw: the responses to the
// requests before go out; the request gets no answer, unless the handler ended its response
// before the panic or a later callback ends it (it goes out as usual); the connection takes
// no other request — the rest of the read is dropped, more bytes get 400 and close
// (ErrAfterPanic), the end of the client's side closes it, RequestTimeout, if still
// running, answers 408 and closes, and after the response the keep-alive timeout closes it.
// The other connections are not touched. (FromNetHTTP recovers its handler's panics: see there.)
type Handler interface {
	ServeHTTP1(w *Response, r *Request)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(w *Response, r *Request)

// ServeHTTP1 calls f(w, r).
func (f HandlerFunc) ServeHTTP1(w *Response, r *Request) { f(w, r) }

// ErrServerClosed is returned by the Listen and Serve methods of a closed server.
var ErrServerClosed = errors.New("http1: server closed")

// Server serves HTTP/1.1 on one loop: keep-alive, pipelining (one request at a time per
// connection, responses in order), HEAD, Expect: 100-continue, chunked bodies both ways
// with trailers, HTTP/1.0, upgrades (OnUpgrade). Its limits and timeouts are on by
// default (see the Options); timeouts are loop timers: one per kind of timeout for the
// whole server, with its connections in order of deadline.
//
// Everything about a Server belongs to its loop's goroutine, except Requests.
type Server struct {
	loop      *uvloop.Loop
	handler   Handler
	o         options
	listeners []uvloop.Stream
	conns     conn // sentinel of the list of open connections
	nconns    int
	closed    bool
	closeCb   func()
	shutdown  bool // graceful: close connections as their exchanges end

	headers, request, idle, linger tlist

	buffered int64 // input bytes held by all connections (MaxBufferedBytes)
	stats    Stats
	requests atomic.Int64

	date   [len(http.TimeFormat)]byte
	dateAt time.Duration // loop time of the last date update; -1s at first
}

// Stats are a server's counters; see Server.Stats.
type Stats struct {
	Connections int   // open now
	Accepted    int64 // connections served so far
	Requests    int64 // exchanges completed
	Refused     int64 // requests refused with a 4xx or 5xx by the parser or the server
	Timeouts    int64 // connections ended by a timeout
	Shed        int64 // connections closed at once because MaxConnections was reached
	Buffered    int64 // input bytes held now (MaxBufferedBytes)
	MaxBuffered int64 // the most Buffered has been
	ParserWork  int64 // bytes examined and copied by the parsers of closed connections
}

// NewServer returns a server on loop that answers with h. It serves nothing until one of
// the Listen or Serve methods gives it connections.
func NewServer(loop *uvloop.Loop, h Handler, opts ...Option) *Server {
	s := &Server{loop: loop, handler: h, o: defaultOptions(), dateAt: -time.Second}
	for _, opt := range opts {
		opt(&s.o)
	}
	s.conns.next, s.conns.prev = &s.conns, &s.conns
	s.headers.init(s, s.o.headersTimeout, (*conn).headersExpired)
	s.request.init(s, s.o.requestTimeout, (*conn).requestExpired)
	s.idle.init(s, s.o.keepAliveTimeout, (*conn).idleExpired)
	s.linger.init(s, s.o.lingerTimeout, (*conn).lingerExpired)
	return s
}

// Loop returns the server's loop.
func (s *Server) Loop() *uvloop.Loop { return s.loop }

// ListenTCP opens a TCP listener on addr ("127.0.0.1:8080", "[::]:0") with flags (such as
// uvloop.TCPReusePort, to share a port between loops) and serves it; it returns the bound
// address.
func (s *Server) ListenTCP(addr string, flags uvloop.TCPFlags) (netip.AddrPort, error) {
	if s.closed {
		return netip.AddrPort{}, ErrServerClosed
	}
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return netip.AddrPort{}, err
	}
	t, err := s.loop.NewTCP()
	if err != nil {
		return netip.AddrPort{}, err
	}
	if err := t.Bind(ap, flags); err != nil {
		t.Close(nil)
		return netip.AddrPort{}, err
	}
	if err := s.ServeTCP(t); err != nil {
		t.Close(nil)
		return netip.AddrPort{}, err
	}
	return t.LocalAddr()
}

// ServeTCP listens on ln, a bound TCP handle, and serves the connections it accepts. The
// server closes ln when it closes.
func (s *Server) ServeTCP(ln *uvloop.TCP) error {
	if s.closed {
		return ErrServerClosed
	}
	err := ln.Listen(s.o.backlog, func(err error) {
		if err != nil {
			return // the connection is gone (or fds ran out and uvloop shed it); keep listening
		}
		t, err := s.loop.NewTCP()
		if err != nil {
			return
		}
		if ln.Accept(t) != nil {
			t.Close(nil)
			return
		}
		if s.nconns >= s.o.maxConns || s.closed || s.shutdown {
			s.stats.Shed++
			t.Close(nil)
			return
		}
		t.SetNoDelay(true)
		s.serve(t, t)
	})
	if err != nil {
		return err
	}
	s.listeners = append(s.listeners, ln)
	return nil
}

// ListenPipe opens a Unix domain socket listener at path and serves it.
func (s *Server) ListenPipe(path string) error {
	if s.closed {
		return ErrServerClosed
	}
	p, err := s.loop.NewPipe()
	if err != nil {
		return err
	}
	if err := p.Bind(path); err != nil {
		p.Close(nil)
		return err
	}
	if err := s.ServePipe(p); err != nil {
		p.Close(nil)
		return err
	}
	return nil
}

// ServePipe listens on ln, a bound Pipe, and serves the connections it accepts. The
// server closes ln when it closes.
func (s *Server) ServePipe(ln *uvloop.Pipe) error {
	if s.closed {
		return ErrServerClosed
	}
	err := ln.Listen(s.o.backlog, func(err error) {
		if err != nil {
			return
		}
		p, err := s.loop.NewPipe()
		if err != nil {
			return
		}
		if ln.Accept(p) != nil {
			p.Close(nil)
			return
		}
		if s.nconns >= s.o.maxConns || s.closed || s.shutdown {
			s.stats.Shed++
			p.Close(nil)
			return
		}
		s.serve(p, nil)
	})
	if err != nil {
		return err
	}
	s.listeners = append(s.listeners, ln)
	return nil
}

// ServeConn serves HTTP on st, a connected stream (one end of a socket pair, a connection
// accepted elsewhere). The server closes it when done.
func (s *Server) ServeConn(st uvloop.Stream) error {
	if s.closed {
		return ErrServerClosed
	}
	tcp, _ := st.(*uvloop.TCP)
	return s.serve(st, tcp)
}

// Requests returns how many exchanges the server has completed. Safe from any goroutine.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Stats returns the server's counters.
func (s *Server) Stats() Stats {
	st := s.stats
	st.Connections = s.nconns
	st.Buffered = s.buffered
	st.Requests = s.requests.Load()
	for c := s.conns.next; c != &s.conns; c = c.next {
		st.ParserWork += c.p.Work
	}
	return st
}

// Close stops listening and closes every connection at once; cb (may be nil) runs once
// all the handles are closed. Responses in progress are cut short.
func (s *Server) Close(cb func()) {
	if s.closed {
		if cb != nil {
			s.loop.NextTick(cb)
		}
		return
	}
	s.closed = true
	s.closeCb = cb
	s.closeListeners()
	s.eachConn(func(c *conn) { c.destroy(ErrServerClosed) })
	s.headers.close()
	s.request.close()
	s.idle.close()
	s.linger.close()
	s.maybeDone()
}

// Shutdown stops listening, closes the idle connections, and lets the others finish the
// exchange in progress (each closes after its response, pipelined requests after it
// unanswered); a connection whose last response is still being written closes once it is
// out (CloseIdle would cut it, as Node's closeIdleConnections does). A client that takes
// none of its output is ended by the keep-alive timeout (see KeepAliveTimeout). cb (may be
// nil) runs once every connection is gone. Close cuts it short.
func (s *Server) Shutdown(cb func()) {
	if s.closed {
		if cb != nil {
			s.loop.NextTick(cb)
		}
		return
	}
	s.shutdown = true
	s.closeCb = cb
	s.closeListeners()
	s.closeIdle(true)
	s.maybeDone()
}

// CloseIdle closes the connections that wait for a request, having sent nothing of it
// (Node's closeIdleConnections: a response ended but still being written is cut, as
// Node's is). A connection that has not sent a whole head yet is not idle, as in Node,
// whose server counts it active from its start (its headersTimeout runs): it is left to
// send its first request.
func (s *Server) CloseIdle() { s.closeIdle(false) }

// closeIdle closes the connections that wait for a request with none held; letFinish
// (Shutdown) spares those still writing a response: drained closes them once it is out.
func (s *Server) closeIdle(letFinish bool) {
	s.eachConn(func(c *conn) {
		if !c.awaitsRequest() || letFinish && (c.writing || c.buffered() > 0) || !letFinish && !c.begun {
			return
		}
		switch {
		case len(c.out) > 0 && !c.writing:
			// A response ended in this callback, gathered for the flush at its end: it
			// goes to the socket first, as Node's end() writes at once (what the socket
			// does not take is cut, as Node's is).
			c.flushNow()
		case len(c.out) > 0 && c.ringWrites && (c.wroteAt == s.loop.Now() || c.st.WriteQueueSize() == 0):
			// Gathered behind a write through the io_uring ring that the kernel has not
			// seen yet (it goes at the end of the phase) or has taken whole (its callback
			// runs in the next iteration): epoll's would have been written by now, the
			// socket not full. It follows that write, then the connection closes. Behind
			// a write stuck in a full socket it is cut, as on epoll and in Node.
			c.closeNow()
			return
		}
		c.destroy(nil)
	})
}

// eachConn calls fn for each connection, fn being free to end any of them (a hook that
// destroy runs may close others).
func (s *Server) eachConn(fn func(c *conn)) {
	for c := s.conns.next; c != &s.conns; {
		next := c.next
		fn(c)
		if next != &s.conns && next.next == nil { // next was ended meanwhile: start again
			next = s.conns.next
		}
		c = next
	}
}

func (s *Server) closeListeners() {
	for _, ln := range s.listeners {
		if !ln.IsClosing() {
			ln.Close(nil)
		}
	}
	s.listeners = nil
}

// maybeDone runs the close callback once a closed or shut-down server has no connections.
func (s *Server) maybeDone() {
	if (s.closed || s.shutdown) && s.nconns == 0 && s.closeCb != nil {
		cb := s.closeCb
		s.closeCb = nil
		if s.shutdown && !s.closed {
			s.closed = true
			s.headers.close()
			s.request.close()
			s.idle.close()
			s.linger.close()
		}
		s.loop.NextTick(cb)
	}
}

// now returns the Date header's value, formatted at most once per second of loop time.
func (s *Server) now() []byte {
	if t := s.loop.Now(); t-s.dateAt >= time.Second {
		s.dateAt = t
		time.Now().UTC().AppendFormat(s.date[:0], http.TimeFormat)
	}
	return s.date[:]
}

// hold changes the input bytes counted for the server; it reports false (and counts
// nothing) if the change would take them over MaxBufferedBytes.
func (s *Server) hold(delta int64) bool {
	if delta > 0 && s.o.maxBuffered > 0 && s.buffered+delta > s.o.maxBuffered {
		return false
	}
	s.buffered += delta
	s.stats.MaxBuffered = max(s.stats.MaxBuffered, s.buffered)
	return true
}

// tlist is one kind of timeout: connections in order of deadline (every deadline is the
// time of entry plus the same duration, so appending keeps the order), with one loop
// timer armed for the first. Entering, leaving and moving to the end cost a few pointer
// writes; the timer is re-armed only when it fires.
type tlist struct {
	s          *Server
	d          time.Duration // 0: disabled
	head, tail *tnode
	timer      *uvloop.Timer
	expire     func(*conn)
}

// tnode is a connection's place in one tlist.
type tnode struct {
	c          *conn
	prev, next *tnode
	deadline   time.Duration
	in         bool
}

func (l *tlist) init(s *Server, d time.Duration, expire func(*conn)) {
	l.s, l.d, l.expire = s, d, expire
}

// push puts n at the end of the list with the deadline now + d.
func (l *tlist) push(n *tnode) {
	if l.d <= 0 {
		return
	}
	deadline := l.s.loop.Now() + l.d
	if n.in {
		if n.deadline == deadline {
			return // pushed already at this loop time: the list stays in order
		}
		l.remove(n)
	}
	n.deadline = deadline
	n.in = true
	n.prev, n.next = l.tail, nil
	if l.tail != nil {
		l.tail.next = n
	} else {
		l.head = n
	}
	l.tail = n
	if l.timer == nil {
		l.timer = l.s.loop.NewTimer(l.fire)
		l.timer.Unref()
	}
	if !l.timer.IsActive() {
		l.timer.Start(l.d, 0)
	}
}

func (l *tlist) remove(n *tnode) {
	if !n.in {
		return
	}
	if n.prev != nil {
		n.prev.next = n.next
	} else {
		l.head = n.next
	}
	if n.next != nil {
		n.next.prev = n.prev
	} else {
		l.tail = n.prev
	}
	n.prev, n.next, n.in = nil, nil, false
}

func (l *tlist) fire(t *uvloop.Timer) {
	now := l.s.loop.Now()
	for n := l.head; n != nil && n.deadline <= now; n = l.head {
		l.remove(n)
		l.expire(n.c)
	}
	if l.head != nil && !t.IsClosing() {
		t.Start(l.head.deadline-now, 0)
	}
}

func (l *tlist) close() {
	if l.timer != nil && !l.timer.IsClosing() {
		l.timer.Close(nil)
	}
}
