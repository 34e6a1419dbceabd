package http1

import (
	"errors"
	"io"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// phase is where a connection stands.
type phase uint8

const (
	phaseIdle     phase = iota // waiting for a request (keepAliveTimeout)
	phaseRequest               // a request is arriving (headersTimeout, requestTimeout)
	phaseRespond               // the request has arrived; its response is in progress
	phaseClosing               // the last response is being written; then linger
	phaseLinger                // shut down; reading and dropping until EOF (lingerTimeout)
	phaseUpgraded              // handed to OnUpgrade
	phaseClosed
)

// Reasons for reading to be paused; reading runs while none is set.
const (
	pauseWrite uint8 = 1 << iota // output over the high-water mark
	pauseStash                   // next requests held while a response is in progress
	pauseUser                    // Request.PauseBody
)

// errConnClosed is what body and close callbacks get when the connection ends early.
var errConnClosed = errors.New("http1: connection closed")

// conn is one connection; loop goroutine only. Its callbacks are bound once.
type conn struct {
	s          *Server
	st         uvloop.Stream
	tcp        *uvloop.TCP // nil for a pipe
	p          Parser
	w          Response
	prev, next *conn // the server's list

	phase        phase
	bodyDone     bool  // the current request has been read to its end
	inFeed       bool  // feed is on the stack
	inRead       bool  // read is on the stack: it flushes when feed returns
	paused       uint8 // pause* bits
	reading      bool
	sent100      bool
	holdContinue bool  // HoldContinue: OnBody does not send the 100 (Continue)
	discard      int64 // body bytes dropped after the response ended

	begun    bool // a request's head has arrived: CloseIdle spares a connection before it
	nreq     int  // the requests begun on the connection (MaxRequestsPerConn)
	eof      bool // the client closed its side
	panicked bool // a callback of the handler panicked in feed: no further request

	onData   func([]byte)
	onEnd    func(error)
	onEOF    func()  // FromNetHTTPBlocking's: the client ended its stream while the response is under way
	bufH     Handler // BufferBody's handler, while it gathers
	gather   func([]byte)
	gathered func(error)
	body     []byte // BufferBody's gathered body; counted in held
	detach   []byte // Request.Detach's copy of the head; counted in held

	stash []byte // bytes of the next requests, waiting for the response in progress
	held  int64  // bytes counted in s.buffered

	outMark int // unsent() when tIdle last expired with output not taken; -1: not yet

	out, spare  []byte // output being gathered; the spare buffer for when out is queued
	inflight    []byte // output queued on the stream (must not change until written)
	writing     bool
	wroteAt     time.Duration // loop time of the last write queued (closeIdle)
	ringWrites  bool          // the stream writes through the io_uring ring: Write costs no system call
	flushing    bool          // output is waiting for a flush
	flushQueued bool          // the flush is queued with NextTick

	tHeaders, tRequest, tIdle, tLinger tnode

	onRead  func([]byte, error)
	onWrite func(error)
	flushFn func()

	pub       Conn     // what the hooks see
	onDestroy func()   // Conn.SetOnDestroy
	onClose   func()   // Conn.SetOnClose
	value     any      // Conn.SetValue
	net       *netConn // FromNetHTTP's state, made on first use
	remote    string   // the peer's address for net/http's RemoteAddr, made on first use
}

func (s *Server) serve(st uvloop.Stream, tcp *uvloop.TCP) error {
	c := &conn{s: s, st: st, tcp: tcp}
	c.p.MaxHeaderSize = s.o.maxHeaderSize
	c.p.MaxRequestLineSize = s.o.maxRequestLineSize
	c.p.MaxHeadersCount = s.o.maxHeadersCount
	c.p.MaxBodySize = s.o.maxBodySize
	c.p.anyExpect = s.o.handleExpect
	c.p.req.c = c
	c.w.c = c
	c.tHeaders.c, c.tRequest.c, c.tIdle.c, c.tLinger.c = c, c, c, c
	c.onRead, c.onWrite, c.flushFn = c.read, c.written, c.flush
	c.pub.c = c
	if rw, ok := st.(interface{ RingWrites() bool }); ok {
		c.ringWrites = rw.RingWrites()
	}
	if err := st.ReadStart(c.onRead); err != nil {
		st.Close(nil)
		return err
	}
	c.reading = true
	c.prev, c.next = s.conns.prev, &s.conns
	s.conns.prev.next = c
	s.conns.prev = c
	s.nconns++
	s.stats.Accepted++
	c.startRequest() // a new connection has headersTimeout to send its first head
	if fn := s.o.onConnection; fn != nil {
		fn(&c.pub)
	}
	return nil
}

// startRequest starts the clocks of a request.
func (c *conn) startRequest() {
	c.phase = phaseRequest
	c.s.idle.remove(&c.tIdle)
	c.s.headers.push(&c.tHeaders)
	c.s.request.push(&c.tRequest)
}

func (c *conn) read(data []byte, err error) {
	if err != nil {
		c.reading = false
		c.eof = true
		c.clientEnded(err)
		return
	}
	switch c.phase {
	case phaseLinger, phaseClosing, phaseClosed, phaseUpgraded:
		return // dropped
	case phaseIdle:
		if !emptyLines(data) { // (empty lines between requests are skipped, up to a limit)
			c.startRequest()
		}
	}
	c.inRead = true
	c.feed(data)
	c.inRead = false
	if c.flushing && !c.flushQueued {
		// The responses of this read go out now, in one write, without a NextTick.
		c.flushing = false
		c.flushNow()
	}
	c.account()
}

// clientEnded handles the end of the client's stream (err: io.EOF, or the read's error).
// Requests held then are answered first: feedStash calls it again once they are fed.
func (c *conn) clientEnded(err error) {
	switch {
	case c.panicked && c.phase < phaseClosing:
		c.destroy(nil) // no answer will come (Node: its parser, in error, ends it)
	case err == io.EOF && len(c.stash) > 0 && (c.phase == phaseRequest || c.phase == phaseRespond && c.bodyDone && !c.s.o.endOnEOF):
		// Pipelined requests are held (behind output over the high-water mark, or
		// behind the response in progress): they are answered first, then the
		// connection closes (goIdle), as Node answers what it parsed before the end.
	case err == io.EOF && c.phase == phaseRespond && c.bodyDone && c.s.o.endOnEOF:
		c.w.ended, c.w.closeAfter = true, true // Node: end at once, the response cut
		c.closeNow()
	case err == io.EOF && c.phase == phaseRespond && c.bodyDone:
		c.w.closeAfter = true // a half-close after the request: answer, then close
		if c.onEOF != nil {
			c.onEOF()
		}
	case err == io.EOF && c.phase == phaseClosing:
		// the last response is being written: then close
	case err == io.EOF && c.cutShort():
		// A request cut short by the end: 400, after the responses before it (node v20:
		// its parser's finish() fails with HPE_INVALID_EOF_STATE, and it answers 400).
		c.refuse(ErrIncomplete, 400)
	case err == io.EOF && (c.writing || len(c.out) > 0):
		// Responses are still queued (a write through the io_uring ring always waits
		// for the end of the phase): they go out, then the connection closes, as
		// Node's end() after 'end' does. A client that does not read them gets the
		// keep-alive timeout (closeNow).
		c.closeNow()
	default:
		c.destroy(nil)
	}
}

// cutShort reports whether a request has begun and not arrived whole, with no response to
// it begun: the end of the client's stream now cuts it short.
func (c *conn) cutShort() bool {
	return c.phase == phaseRequest && !c.p.Idle() || c.phase == phaseRespond && !c.bodyDone && !c.w.headSent
}

// feed parses data and dispatches the events, one exchange at a time. If a callback it
// runs (the handler, a body callback) panics, the panic goes on to Run, and the connection
// is left as handlerPanicked says.
func (c *conn) feed(data []byte) {
	c.inFeed = true
	returned := false
	defer func() {
		if !returned {
			c.handlerPanicked()
		}
	}()
	c.feedLoop(data)
	returned = true
	c.inFeed = false
	if len(c.stash) == 0 && cap(c.stash) > keepBuf {
		c.stash = nil // a burst's buffer is not kept once it is fed
	}
}

// handlerPanicked runs while a panic from a callback of the handler unwinds feed (the panic
// is not recovered: Run returns it, the loop's policy). The connection then does what Node's
// does after its request listener throws (node v20): the responses gathered before go out;
// the request gets no answer unless the handler ended its response before the panic or ends
// it from a later callback (it goes out as it would have, keep-alive and all); the rest of
// the read is lost and the connection takes no other request: more bytes get 400 and close
// (ErrAfterPanic), the end of the client's side closes it, the request's timeout, if still
// running, answers 408 and closes, and once the response is out, the keep-alive timeout
// closes it.
func (c *conn) handlerPanicked() {
	c.inFeed = false
	c.panicked = true
	if c.inRead { // read's tail, which flushes, does not run
		c.inRead = false
		if c.flushing && !c.flushQueued {
			c.flushQueued = true
			c.s.loop.NextTick(c.flushFn)
		}
	}
	if c.phase == phaseRespond {
		// A response the handler ended before it panicked is finished here, as feed would
		// have finished it. One not ended waits for the request's
		// timeout, which answers 408: it runs again if the request was read whole (its end
		// stopped it).
		if c.w.ended {
			c.s.loop.NextTick(c.finishEnded)
		} else if c.bodyDone {
			c.s.request.push(&c.tRequest)
		}
	}
}

// finishEnded finishes the exchange of a response ended before its handler panicked, unless
// that is done already.
func (c *conn) finishEnded() {
	if c.phase == phaseRespond && c.w.ended {
		c.finish()
	}
}

func (c *conn) feedLoop(data []byte) {
	if c.panicked && len(data) > 0 {
		// The bytes may come before handlerPanicked's tick: the 400 is its own response.
		c.finishEnded()
		c.refuse(ErrAfterPanic, 400)
		return
	}
	for {
		switch c.phase {
		case phaseClosing, phaseLinger, phaseClosed, phaseUpgraded:
			return
		case phaseRespond:
			if c.bodyDone { // the next request waits for this response
				if len(data) > 0 && c.s.o.refuseAfterClose && !c.p.req.KeepAlive && !emptyLines(data) {
					c.refuse(ErrAfterClose, 400)
					return
				}
				if len(data) > 0 {
					c.hold(data)
				}
				return
			}
		case phaseRequest:
			if len(data) > 0 && c.p.Idle() {
				if c.buffered() > c.s.o.highWater {
					// Pipelined requests wait while the responses before them are over
					// the high-water mark (drained feeds them): else one read of small
					// requests for a large response (1,600 GETs in 64 KiB) would be
					// answered into memory at once, each response copied. They
					// arrived whole: the request's clocks stop, and the client has
					// keepAliveTimeout to read some of the output (watchOutput).
					c.hold(data)
					c.s.headers.remove(&c.tHeaders)
					c.s.request.remove(&c.tRequest)
					if !c.tIdle.in {
						c.watchOutput()
					}
					return
				}
				if len(c.stash) > 0 { // requests held so: they go first
					stash := c.takeStash()
					if c.tIdle.in { // held behind output: the request's clocks start again
						c.startRequest()
					}
					data = append(stash, data...)
				}
			}
		}
		n, ev, err := c.p.Parse(data)
		data = data[n:]
		if err != nil {
			c.refuse(err, err.(*Error).Status)
			return
		}
		switch ev {
		case EventNone:
			return
		case EventHead:
			c.begun = true
			c.s.headers.remove(&c.tHeaders)
			r := &c.p.req
			if r.Upgrade && c.s.o.onUpgrade != nil && (c.s.o.shouldUpgrade == nil || c.s.o.shouldUpgrade(r)) {
				c.upgrade(r, data)
				return
			}
			c.phase = phaseRespond
			c.bodyDone = false
			c.w.begin(r)
			if c.nreq++; c.s.o.maxRequests > 0 && c.nreq >= c.s.o.maxRequests {
				c.w.closeAfter = true // the last request the connection serves
			}
			c.s.handler.ServeHTTP1(&c.w, r)
		case EventBody:
			if c.w.ended || c.onData == nil {
				c.discard += int64(len(c.p.body))
				if c.w.ended && c.discard > maxDiscard {
					c.w.closeAfter = true
					c.closeNow()
					return
				}
				continue
			}
			c.onData(c.p.body)
		case EventEnd:
			c.s.request.remove(&c.tRequest)
			c.bodyDone = true
			// A pause for the body's reader ends with the body (Node's parser reads again
			// at each message's end): the next requests are read, and held (hold).
			c.resume(pauseUser)
			if end := c.onEnd; end != nil {
				c.onData, c.onEnd = nil, nil
				end(nil)
			}
			if c.w.ended {
				c.finish()
				if c.phase == phaseRequest && emptyLines(data) {
					c.goIdle() // (the parser skips empty lines after a request)
				}
			}
		}
	}
}

// emptyLines reports whether data holds nothing but the CRs and LFs of empty lines.
func emptyLines(data []byte) bool {
	for _, b := range data {
		if b != '\r' && b != '\n' {
			return false
		}
	}
	return true
}

// hold keeps data (bytes of the next requests) until the response in progress ends. data
// may be the tail of the stash's own buffer, being fed (takeStash): it moves to the
// buffer's front (copy allows the overlap), so that no buffer is made per request.
func (c *conn) hold(data []byte) {
	if len(c.stash)+len(data) > maxStash && len(c.stash) > 0 {
		c.pause(pauseStash)
	}
	if n := len(c.stash); cap(c.stash)-n >= len(data) {
		c.stash = c.stash[:n+len(data)]
		copy(c.stash[n:], data)
	} else {
		c.stash = append(c.stash, data...)
	}
	if len(c.stash) >= maxStash {
		c.pause(pauseStash)
	}
}

// account updates the bytes the connection holds in the server's count, and refuses the
// connection with 503 if they would take the server over MaxBufferedBytes.
func (c *conn) account() {
	if c.phase == phaseClosed || c.phase == phaseUpgraded {
		return
	}
	now := int64(c.p.Buffered() + cap(c.stash) + cap(c.body) + cap(c.detach))
	if now == c.held {
		return
	}
	if !c.s.hold(now - c.held) {
		c.release()
		c.refuse(errOverloaded, 503)
		return
	}
	c.held = now
}

// release drops the connection's input buffers and their count.
func (c *conn) release() {
	c.p.buf, c.stash, c.body, c.detach = nil, nil, nil, nil
	c.p.hlen = 0
	c.s.hold(-c.held)
	c.held = 0
}

var errOverloaded = &Error{503, "server buffers full"}

// finish ends an exchange whose request and response are both complete, and starts the
// next if its bytes are here.
func (c *conn) finish() {
	c.s.requests.Add(1)
	if c.w.closeAfter || c.s.shutdown {
		c.closeNow()
		return
	}
	c.w.reset()
	c.bodyDone = false
	c.discard = 0
	c.sent100, c.holdContinue = false, false
	c.onData, c.onEnd, c.onEOF = nil, nil, nil
	c.body, c.detach = c.body[:0], c.detach[:0]
	if cap(c.body) > keepBuf {
		c.body = nil
	}
	if cap(c.detach) > keepBuf {
		c.detach = nil
	}
	if c.panicked {
		// The parser stopped at the panic, as Node's does: what it held is lost, and the
		// connection waits for the keep-alive timeout; more bytes get ErrAfterPanic.
		c.p.Reset()
		c.stash = c.stash[:0]
	}
	c.p.Shrink()
	c.phase = phaseRequest
	c.startRequest()
	if !c.inFeed {
		if len(c.stash) > 0 {
			c.feedStash()
		} else {
			c.resume(pauseStash)
			c.goIdle()
		}
		c.account()
	}
}

// feedStash feeds the requests held in the stash (behind a response, or behind output over
// the high-water mark); feed keeps its buffer when it is small.
func (c *conn) feedStash() {
	c.feed(c.takeStash())
	if len(c.stash) > 0 {
		return // held again
	}
	if c.eof {
		c.clientEnded(io.EOF) // the end came while they were held
	}
}

// takeStash returns the bytes held, to be fed, and empties the stash over the same buffer:
// what is held again (hold) moves to its front. The bytes fed must not be kept past the
// feed (a handler's Request is valid only during its call).
func (c *conn) takeStash() []byte {
	stash := c.stash
	c.stash = stash[:0]
	c.resume(pauseStash)
	return stash
}

// goIdle waits for the next request with keepAliveTimeout.
func (c *conn) goIdle() {
	if c.phase != phaseRequest || !c.p.Idle() {
		return
	}
	if c.eof { // the client ended, and its last request is answered
		c.closeNow()
		return
	}
	c.phase = phaseIdle
	c.s.headers.remove(&c.tHeaders)
	c.s.request.remove(&c.tRequest)
	c.watchOutput()
}

// watchOutput starts the keep-alive timeout (tIdle). While output waits for the client to
// read it, the timeout ends the connection only if the client took none of it in a whole
// timeout (idleExpired): a slow reader goes on, one that reads nothing is closed after one
// to two timeouts. Node has no such timeout by default (server.timeout 0); here every wait
// has one.
func (c *conn) watchOutput() {
	c.outMark = -1 // measured when the timeout first expires
	c.s.idle.push(&c.tIdle)
}

// unsent is the output the client has not taken: queued here, and, where the system says,
// in the socket, not yet acknowledged (it goes down as the client reads, byte by byte,
// where the queue here moves when the socket takes a third of its buffer).
func (c *conn) unsent() int {
	n := c.buffered()
	if fd := c.st.Fd(); fd >= 0 {
		n += socketUnsent(fd)
	}
	return n
}

// responseEnded is called by Response.End.
func (c *conn) responseEnded() {
	c.queueFlush()
	switch {
	case c.w.closeAfter && !c.bodyDone && (c.p.req.HasBody() || !c.inFeed):
		// No need to read the rest of the request: the connection ends.
		c.s.requests.Add(1)
		c.endBody(errConnClosed)
		c.closeNow()
	case (c.bodyDone || c.panicked) && !c.inFeed:
		c.finish() // after a panic, the parser has stopped: the request is all there will be
	}
}

// refuse answers status (unless a response began) and closes.
func (c *conn) refuse(err error, status int) {
	if c.phase >= phaseClosing {
		return
	}
	c.s.stats.Refused++
	if fn := c.s.o.onClientError; fn != nil {
		fn(err, status)
	}
	c.endBody(err)
	if c.phase == phaseRespond && !c.w.ended {
		// The handler's response will not end: its OnClose runs once the refusal is
		// queued (Response.End then fails with ErrResponseEnded).
		defer c.responseClosed()
	}
	if fn := c.s.o.clientErrorHandler; fn != nil {
		c.w.ended = true
		c.w.closeAfter = true
		c.phase = phaseRespond // (the handler may write, end or destroy)
		if fn(&c.pub, err, status) {
			if c.phase < phaseClosing {
				c.closeNow()
			}
			return
		}
		if c.phase >= phaseClosing {
			return
		}
	}
	if !c.w.headSent {
		c.out = appendStatus(c.out, status)
	}
	c.w.ended = true
	c.w.closeAfter = true
	c.closeNow()
}

// appendStatus appends the response to a refused request; the connection closes after it.
func appendStatus(out []byte, status int) []byte {
	out = append(out, "HTTP/1.1 "...)
	out = appendInt(out, int64(status), 10)
	out = append(out, ' ')
	out = append(out, StatusText(status)...)
	return append(out, "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"...)
}

// endBody tells the body's reader that no more will come.
func (c *conn) endBody(err error) {
	if end := c.onEnd; end != nil {
		c.onData, c.onEnd = nil, nil
		end(err)
	}
}

// closeNow writes what is gathered, then shuts down and lingers.
func (c *conn) closeNow() {
	if c.phase >= phaseClosing {
		return
	}
	c.phase = phaseClosing
	c.s.headers.remove(&c.tHeaders)
	c.s.request.remove(&c.tRequest)
	c.watchOutput() // until the output is written (linger)
	c.release()
	c.queueFlush()
}

// linger shuts the connection down and discards input until the client closes or the
// linger timeout passes, so that the client reads the last response rather than a reset.
func (c *conn) linger() {
	c.phase = phaseLinger
	if c.eof {
		c.destroy(nil)
		return
	}
	if c.st.Shutdown(nil) != nil {
		c.destroy(nil)
		return
	}
	c.paused = 0
	c.setReading()
	c.s.idle.remove(&c.tIdle)
	c.s.linger.push(&c.tLinger)
}

func (c *conn) headersExpired() { c.timedOut() }
func (c *conn) requestExpired() { c.timedOut() }
func (c *conn) lingerExpired()  { c.destroy(nil) }

// idleExpired ends a connection that waited keepAliveTimeout for a request, or for the
// client to take some of the output it has not taken (watchOutput).
func (c *conn) idleExpired() {
	switch n := c.unsent(); {
	case n > 0 && (c.outMark < 0 || n < c.outMark), // the client reads (or: first look)
		n == 0 && (c.writing || len(c.stash) > 0): // written; drained runs next
		c.outMark = n
		c.s.idle.push(&c.tIdle)
		return
	}
	c.s.stats.Timeouts++
	c.destroy(nil)
}

var errTimeout = &Error{408, "request timeout"}

func (c *conn) timedOut() {
	c.s.stats.Timeouts++
	if c.w.headSent {
		c.destroy(errTimeout)
		return
	}
	c.refuse(errTimeout, 408)
}

// upgrade hands the connection to OnUpgrade.
func (c *conn) upgrade(r *Request, head []byte) {
	c.phase = phaseUpgraded
	if len(c.out) > 0 { // after what is queued: the stream keeps the order
		c.st.Write(c.out, nil)
		c.out = nil
	}
	c.st.ReadStop()
	c.reading = false
	c.unlink()
	c.release()
	c.s.requests.Add(1)
	c.s.o.onUpgrade(r, c.st, head)
	c.s.maybeDone()
}

// destroy closes the connection at once; err (nil for an orderly end) goes to the body's
// reader and to Response.OnClose.
func (c *conn) destroy(err error) {
	if c.phase == phaseClosed || c.phase == phaseUpgraded {
		return
	}
	c.phase = phaseClosed
	if err == nil {
		err = errConnClosed
	}
	c.endBody(err)
	if !c.w.ended {
		c.responseClosed()
	}
	c.unlink()
	c.release()
	if !c.st.IsClosing() {
		if c.onClose != nil {
			c.st.Close(c.closed)
		} else {
			c.st.Close(nil)
		}
	}
	if fn := c.onDestroy; fn != nil {
		c.onDestroy = nil
		fn()
	}
	c.s.maybeDone()
}

// responseClosed runs the response's OnClose callback, if it has one: the connection
// ends before the response did.
func (c *conn) responseClosed() {
	if fn := c.w.onClose; fn != nil {
		c.w.onClose = nil
		fn()
	}
}

// closed is the stream's close callback when Conn.SetOnClose set one.
func (c *conn) closed() {
	if fn := c.onClose; fn != nil {
		c.onClose = nil
		fn()
	}
}

// unlink takes the connection off the server's lists.
func (c *conn) unlink() {
	s := c.s
	s.headers.remove(&c.tHeaders)
	s.request.remove(&c.tRequest)
	s.idle.remove(&c.tIdle)
	s.linger.remove(&c.tLinger)
	if c.next != nil {
		c.prev.next = c.next
		c.next.prev = c.prev
		c.prev, c.next = nil, nil
		s.nconns--
		s.stats.ParserWork += c.p.Work
	}
}

// pause stops reading for reason; resume lifts it.
func (c *conn) pause(reason uint8) {
	c.paused |= reason
	c.setReading()
}

func (c *conn) resume(reason uint8) {
	if c.paused&reason == 0 {
		return
	}
	c.paused &^= reason
	c.setReading()
}

func (c *conn) setReading() {
	want := c.paused == 0 && !c.eof && c.phase != phaseClosed && c.phase != phaseUpgraded
	switch {
	case want && !c.reading:
		if c.st.ReadStart(c.onRead) != nil {
			c.destroy(nil)
			return
		}
		c.reading = true
	case !want && c.reading:
		c.st.ReadStop()
		c.reading = false
	}
}

// queueFlush writes the gathered output once the current callback returns, so that the
// responses to all the requests of one read go out in one write.
func (c *conn) queueFlush() {
	if c.flushing {
		return
	}
	c.flushing = true
	if !c.inRead { // read flushes when it returns
		c.flushQueued = true
		c.s.loop.NextTick(c.flushFn)
	}
}

func (c *conn) flush() {
	c.flushQueued = false
	if c.flushing {
		c.flushing = false
		c.flushNow()
	}
}

// flushNow writes c.out: at once if the socket takes it, else queued (and then c.out is
// not touched until written; new output gathers in the spare buffer). A stream that writes
// through the io_uring ring is not tried first: its Write is submitted with the other
// connections' at the end of the phase, one system call for all of them.
func (c *conn) flushNow() {
	if c.phase == phaseClosed || c.phase == phaseUpgraded {
		return
	}
	if c.writing {
		// A client that asks faster than it reads: its responses gather in c.out behind
		// the write in flight, so reading stops until they are written, as it stops on a
		// long write.
		if c.buffered() > c.s.o.highWater {
			c.pauseForOutput()
		}
		return
	}
	if len(c.out) == 0 {
		c.drained()
		return
	}
	var n int
	if !c.ringWrites {
		var err error
		n, err = c.st.TryWrite(c.out)
		if err != nil && !errors.Is(err, syscall.EAGAIN) {
			c.destroy(err)
			return
		}
	}
	if n == len(c.out) {
		c.out = c.out[:0]
		c.drained()
		return
	}
	c.inflight = c.out
	c.out, c.spare = c.spare[:0], nil
	c.writing = true
	c.wroteAt = c.s.loop.Now()
	if err := c.st.Write(c.inflight[n:], c.onWrite); err != nil {
		c.destroy(err)
		return
	}
	if c.st.WriteQueueSize() > c.s.o.highWater {
		c.pauseForOutput()
	}
}

// pauseForOutput stops reading while output is over the high-water mark; not while a
// request's body comes in: a handler that writes as the body arrives, heedless of NeedDrain
// (Node's req.on('data', d => res.write(d))), would then wait for the rest of a body that no
// longer comes in, from a client that sends it all before it reads. Node buffers that
// output as well.
func (c *conn) pauseForOutput() {
	if c.phase != phaseRespond || c.bodyDone {
		c.pause(pauseWrite)
	}
}

// written runs when the queued output is written.
func (c *conn) written(err error) {
	c.writing = false
	if c.phase == phaseClosed || c.phase == phaseUpgraded {
		return
	}
	if cap(c.inflight) <= 4*c.s.o.highWater {
		c.spare = c.inflight[:0]
	}
	c.inflight = nil
	if err != nil {
		c.destroy(err)
		return
	}
	c.flushNow()
}

// drained runs when all the output is written.
func (c *conn) drained() {
	c.resume(pauseWrite)
	if cap(c.out) > 4*c.s.o.highWater {
		c.out = nil
	}
	if c.phase == phaseRequest && len(c.stash) > 0 && !c.inFeed && !c.panicked {
		// The requests held while output was over the high-water mark (feedLoop): their
		// clocks start again.
		c.startRequest()
		c.feedStash()
		c.account()
		return
	}
	ka := c.s.o.keepAliveTimeout
	switch {
	case c.phase == phaseClosing:
		c.linger()
		return
	case c.phase > phaseRespond:
		return
	case c.s.shutdown && c.awaitsRequest():
		c.closeNow() // Shutdown let it write its last response (closeIdle)
		return
	case c.phase == phaseIdle && c.s.loop.Now()+ka-c.tIdle.deadline > ka/8:
		// The response took a while to write: the keep-alive timeout runs from its end,
		// as Node's (from 'finish'). (Most are written at once.)
		c.s.idle.push(&c.tIdle)
	}
	if fn := c.w.onDrain; fn != nil && !c.w.ended {
		c.w.onDrain = nil
		fn()
	}
}

// awaitsRequest reports whether the connection waits for a request, with none of it
// received and none held.
func (c *conn) awaitsRequest() bool {
	return (c.phase == phaseIdle || c.phase == phaseRequest && c.p.Idle()) && len(c.stash) == 0
}

// buffered is the output gathered and queued.
func (c *conn) buffered() int { return len(c.out) + c.st.WriteQueueSize() }
