package http1

import (
	"errors"
	"strconv"
	"time"
)

// Errors of the Response methods.
var (
	ErrResponseEnded = errors.New("http1: response already ended")
	ErrHeadersSent   = errors.New("http1: headers already sent")
	ErrInvalidHeader = errors.New("http1: invalid header field")
	ErrBodyLength    = errors.New("http1: body longer than its Content-Length")
)

// Response writes the response to one request. The head goes out with the first Write,
// Flush or End: the status (200 unless WriteHeader said otherwise), a Date, the fields
// added, and the framing: Content-Length when it is known (SetContentLength, or End
// before anything was written), else chunked (HTTP/1.1) or the end of the connection
// (HTTP/1.0). The body of a HEAD request, and of 1xx, 204 and 304 responses, is not sent.
//
// Output is gathered and written when the current callback returns, so the responses to
// pipelined requests go out together. For backpressure, Buffered tells how much is
// gathered or queued; past the server's HighWaterMark the connection stops reading, and
// OnDrain's callback runs once everything is written.
//
// A Response belongs to the loop goroutine. It may be used after the handler returns,
// until End; not after (the connection reuses it for its next request).
type Response struct {
	c             *conn
	status        int
	cl            int64 // -1 if unknown
	written       int64
	minor         int
	hdr           []byte // the fields added, as lines
	trailers      []byte // the trailer fields, as lines
	headSent      bool
	ended         bool
	chunked       bool
	noBody        bool // nothing of the body is sent
	isHead        bool
	expect        bool // the request asked for 100-continue
	closeAfter    bool
	userDate      bool
	userCL        bool   // NodeHead: Content-Length was added, and is in hdr where it was added
	lengthUnknown bool   // LengthUnknown: End sets no Content-Length
	headBare      bool   // a HEAD response with no Content-Length gets no framing field (net/http's)
	reason        string // SetReason's; "" for StatusText's
	onDrain       func()
	onClose       func()
}

// begin readies the response for r.
func (w *Response) begin(r *Request) {
	w.status, w.cl, w.written, w.minor = 200, -1, 0, r.Minor
	w.isHead = string(r.Method) == "HEAD"
	w.expect = r.Expect100
	w.closeAfter = !r.KeepAlive || string(r.Method) == "CONNECT"
}

// reset forgets the response, keeping its buffers.
func (w *Response) reset() {
	c, hdr, tr := w.c, w.hdr[:0], w.trailers[:0]
	if cap(hdr) > keepBuf {
		hdr = nil
	}
	*w = Response{c: c, hdr: hdr, trailers: tr}
}

// WriteHeader sets the status code (100-999). It fails once the head is sent.
func (w *Response) WriteHeader(status int) error {
	if w.headSent {
		return ErrHeadersSent
	}
	if status < 100 || status > 999 {
		return ErrInvalidHeader
	}
	w.status = status
	return nil
}

// SetReason sets the reason phrase of the status line ("" for the standard one). It
// fails once the head is sent, or if reason has a control byte.
func (w *Response) SetReason(reason string) error {
	if w.headSent {
		return ErrHeadersSent
	}
	if !validValue(reason) {
		return ErrInvalidHeader
	}
	w.reason = reason
	return nil
}

// Server returns the server the response belongs to (its Loop, for timers).
func (w *Response) Server() *Server { return w.c.s }

// Status returns the status code.
func (w *Response) Status() int { return w.status }

// AddHeader adds a header field. Content-Length sets the length (as SetContentLength);
// "Connection: close" makes the connection close after the response; Transfer-Encoding is
// the server's to set and is refused, as are names that are not tokens and values with
// control bytes. It fails once the head is sent.
func (w *Response) AddHeader(name, value string) error {
	if w.headSent {
		return ErrHeadersSent
	}
	if !validName(name) || !validValue(value) {
		return ErrInvalidHeader
	}
	switch len(name) {
	case 4:
		if equalFold(name, "date") {
			w.userDate = true
		}
	case 10:
		if equalFold(name, "connection") {
			forTokens([]byte(value), func(t []byte) {
				if equalFold(t, "close") {
					w.closeAfter = true
				}
			})
			return nil
		}
	case 14:
		if equalFold(name, "content-length") {
			n, ok := parseContentLength([]byte(value))
			if !ok {
				return ErrInvalidHeader
			}
			w.cl = n
			if w.c == nil || !w.c.s.o.nodeHead || w.userCL {
				return nil
			}
			w.userCL = true // Node sends it among the fields set, where it was set
		}
	case 17:
		if equalFold(name, "transfer-encoding") {
			return ErrInvalidHeader
		}
	}
	w.hdr = append(w.hdr, name...)
	w.hdr = append(w.hdr, ": "...)
	w.hdr = append(w.hdr, value...)
	w.hdr = append(w.hdr, "\r\n"...)
	return nil
}

// SetContentLength declares the body's length. It fails once the head is sent.
func (w *Response) SetContentLength(n int64) error {
	if w.headSent {
		return ErrHeadersSent
	}
	if n < 0 {
		return ErrInvalidHeader
	}
	w.cl = n
	return nil
}

// WriteContinue sends the 100 (Continue) response now, as Node's writeContinue does (see
// Request.HoldContinue). It does nothing once the head is sent or the response ended.
func (w *Response) WriteContinue() {
	c := w.c
	if w.headSent || w.ended || c.phase == phaseClosed {
		return
	}
	c.out = append(c.out, "HTTP/1.1 100 Continue\r\n\r\n"...)
	c.sent100 = true
	c.queueFlush()
}

// LengthUnknown tells the response that its body's length is not known until it ends: End
// then sets no Content-Length from its bytes, so that an HTTP/1.1 body is chunked and an
// HTTP/1.0 one ends with the connection, unless a Content-Length was set. nodehttp calls it
// where Node fixes its head before the body (writeHead, flushHeaders). It does nothing
// once the head is sent.
func (w *Response) LengthUnknown() {
	if !w.headSent {
		w.lengthUnknown = true
	}
}

// AddTrailer adds a trailer field, sent after a chunked body (and dropped otherwise).
func (w *Response) AddTrailer(name, value string) error {
	if w.ended {
		return ErrResponseEnded
	}
	if !validName(name) || !validValue(value) {
		return ErrInvalidHeader
	}
	w.trailers = append(w.trailers, name...)
	w.trailers = append(w.trailers, ": "...)
	w.trailers = append(w.trailers, value...)
	w.trailers = append(w.trailers, "\r\n"...)
	return nil
}

// clearHead forgets the fields, length and reason set, before the head is sent (for a 500
// that replaces what a panicking handler began).
func (w *Response) clearHead() {
	w.hdr, w.trailers = w.hdr[:0], w.trailers[:0]
	w.cl, w.userCL, w.userDate, w.reason, w.headBare = -1, false, false, "", false
}

// HeadersSent reports whether the head has been gathered for sending.
func (w *Response) HeadersSent() bool { return w.headSent }

// Ended reports whether End was called (or the server ended the response).
func (w *Response) Ended() bool { return w.ended }

// writeHead gathers the status line and the header section.
func (w *Response) writeHead() {
	c := w.c
	out := c.out
	switch {
	case w.reason != "":
		out = append(out, "HTTP/1.1 "...)
		out = appendInt(out, int64(w.status), 10)
		out = append(out, ' ')
		out = append(out, w.reason...)
		out = append(out, "\r\n"...)
	case w.status == 200:
		out = append(out, "HTTP/1.1 200 OK\r\n"...)
	case w.status == 404:
		out = append(out, "HTTP/1.1 404 Not Found\r\n"...)
	default:
		out = append(out, "HTTP/1.1 "...)
		out = appendInt(out, int64(w.status), 10)
		out = append(out, ' ')
		out = append(out, StatusText(w.status)...)
		out = append(out, "\r\n"...)
	}
	node := c.s.o.nodeHead
	if node { // Node's order: the fields set, Date, Connection, Keep-Alive, the framing
		out = append(out, w.hdr...)
	}
	if !w.userDate {
		out = append(out, "Date: "...)
		out = append(out, c.s.now()...)
		out = append(out, "\r\n"...)
	}
	if !node {
		out = append(out, w.hdr...)
	}
	var framing string
	switch {
	case w.status < 200 || w.status == 204 || w.status == 304:
		w.noBody = true
	case w.cl >= 0:
	case w.isHead && (node || w.headBare) && w.minor == 1: // Node sends no framing field of its own with a HEAD response
	case w.minor == 1:
		framing = "Transfer-Encoding: chunked\r\n"
		w.chunked = true
	default:
		w.closeAfter = true // the body ends with the connection
	}
	if w.isHead {
		w.noBody = true
	}
	if c.s.shutdown || w.expect && !c.sent100 && !c.bodyDone {
		// (a client that asked for 100-continue and got a final status instead may or
		// may not send the body: only closing keeps the framing)
		w.closeAfter = true
	}
	if !node {
		if w.cl >= 0 && !w.noBody || w.cl >= 0 && w.isHead {
			out = appendContentLength(out, w.cl)
		}
		out = append(out, framing...)
	}
	switch {
	case w.closeAfter:
		out = append(out, "Connection: close\r\n"...)
	case node:
		out = append(out, "Connection: keep-alive\r\n"...)
		if ka := c.s.o.keepAliveTimeout; ka > 0 { // Node: timeout=0 for one below a second
			out = append(out, "Keep-Alive: timeout="...)
			out = appendInt(out, int64(ka/time.Second), 10)
			if m := c.s.o.maxRequests; m > 0 {
				out = append(out, ", max="...)
				out = appendInt(out, int64(m), 10)
			}
			out = append(out, "\r\n"...)
		}
	case w.minor == 0:
		out = append(out, "Connection: keep-alive\r\n"...)
	}
	if node {
		if !w.userCL && (w.cl >= 0 && !w.noBody || w.cl >= 0 && w.isHead) {
			out = appendContentLength(out, w.cl)
		}
		out = append(out, framing...)
	}
	c.out = append(out, "\r\n"...)
	w.headSent = true
}

// nodeUnframed reports whether, under NodeHead, End leaves the body's length unset as
// Node's ServerResponse does: for HTTP/1.0 (the body ends with the connection) and HEAD.
func (w *Response) nodeUnframed() bool {
	return (w.minor == 0 || w.isHead) && w.c != nil && w.c.s.o.nodeHead
}

func appendContentLength(out []byte, n int64) []byte {
	out = append(out, "Content-Length: "...)
	out = appendInt(out, n, 10)
	return append(out, "\r\n"...)
}

// Write gathers p as body bytes (sending the head first if it is not sent). With a
// Content-Length, what goes past it is dropped and Write returns ErrBodyLength.
func (w *Response) Write(p []byte) (int, error) { return writeBody(w, p) }

// WriteString is Write for a string.
func (w *Response) WriteString(s string) (int, error) { return writeBody(w, s) }

// writeBody is Write and WriteString: the chunk is gathered in the output buffer directly,
// with no conversion between string and []byte.
func writeBody[B []byte | string](w *Response, p B) (int, error) {
	if w.ended {
		return 0, ErrResponseEnded
	}
	c := w.c
	if c.phase == phaseClosed {
		return 0, errConnClosed
	}
	if !w.headSent {
		w.writeHead()
	}
	var err error
	if w.cl >= 0 && int64(len(p)) > w.cl-w.written {
		p = p[:w.cl-w.written]
		err = ErrBodyLength
	}
	if len(p) == 0 {
		c.queueFlush()
		return 0, err
	}
	w.written += int64(len(p))
	if !w.noBody {
		if w.chunked {
			c.out = appendInt(c.out, int64(len(p)), 16)
			c.out = append(c.out, "\r\n"...)
			c.out = append(c.out, p...)
			c.out = append(c.out, "\r\n"...)
		} else {
			c.out = append(c.out, p...)
		}
	}
	c.queueFlush()
	return len(p), err
}

// End gathers p (may be nil) as the last body bytes and ends the response. If nothing was
// sent yet, no length was set and LengthUnknown was not called, the Content-Length is
// len(p).
func (w *Response) End(p []byte) error { return endBody(w, p) }

// EndString is End for a string.
func (w *Response) EndString(s string) error { return endBody(w, s) }

// endBody is End and EndString.
func endBody[B []byte | string](w *Response, p B) error {
	if w.ended {
		return ErrResponseEnded
	}
	if !w.headSent && w.cl < 0 && !w.lengthUnknown && !w.nodeUnframed() {
		w.cl = int64(len(p))
	}
	_, err := writeBody(w, p)
	if err == errConnClosed {
		return err
	}
	w.finishBody()
	return err
}

func (w *Response) finishBody() {
	c := w.c
	if w.chunked && !w.noBody {
		c.out = append(c.out, "0\r\n"...)
		c.out = append(c.out, w.trailers...)
		c.out = append(c.out, "\r\n"...)
	}
	if w.cl >= 0 && w.written < w.cl && !w.noBody {
		w.closeAfter = true // the body fell short of its length: only closing can tell
	}
	w.ended = true
	c.responseEnded()
}

// Flush sends the head if it is not sent and writes what is gathered now, rather than
// when the callback returns.
func (w *Response) Flush() {
	c := w.c
	if c.phase == phaseClosed || w.ended {
		return
	}
	if !w.headSent {
		w.writeHead()
	}
	c.flushNow()
}

// Buffered returns the bytes gathered and queued on the connection, not yet written.
func (w *Response) Buffered() int { return w.c.buffered() }

// NeedDrain reports whether Buffered is past the server's HighWaterMark: a streaming
// writer should wait for OnDrain before writing more.
func (w *Response) NeedDrain() bool { return w.c.buffered() > w.c.s.o.highWater }

// OnDrain sets a callback to run once everything gathered is written (from a NextTick
// if nothing is buffered now). It runs once; the response must not have ended.
func (w *Response) OnDrain(fn func()) {
	if w.c.buffered() == 0 && !w.c.writing {
		w.c.s.loop.NextTick(fn)
		return
	}
	w.onDrain = fn
}

// OnClose sets a callback to run if the connection closes before the response ended (the
// client went away, a timeout, Server.Close).
func (w *Response) OnClose(fn func()) { w.onClose = fn }

func validName(s string) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !tokenTable[s[i]] {
			return false
		}
	}
	return true
}

func validValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if !valueTable[s[i]] {
			return false
		}
	}
	return true
}

func appendInt(b []byte, n int64, base int) []byte { return strconv.AppendInt(b, n, base) }
