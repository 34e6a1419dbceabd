package http1

import "bytes"

// ResponseHead is a parsed response head: what EventHead reports for a Parser in response
// mode (ExpectResponse). Its slices are valid as a Request's are.
type ResponseHead struct {
	Minor   int // HTTP/1.Minor: 0 or 1
	Status  int // three digits
	Reason  []byte
	Headers []Header // in order, as received
	// ContentLength is the declared length, or -1 when the body is chunked or ends with
	// the connection (and 0 when there is no body).
	ContentLength int64
	Chunked       bool
	// UntilClose is set when the body ends with the connection: call Finish at the end of
	// the stream.
	UntilClose bool
	// KeepAlive tells whether the connection may carry another exchange.
	KeepAlive bool
	// Upgrade is set for 101 (Switching Protocols) and for a 2xx answer to CONNECT: the
	// bytes after the head belong to the new protocol, and the parser must not be given
	// them.
	Upgrade bool
}

// Informational reports whether the response is an interim one (1xx other than 101): the
// final response follows on the same connection.
func (h *ResponseHead) Informational() bool {
	return h.Status >= 100 && h.Status < 200 && h.Status != 101
}

// Header returns the value of the first field called name (ASCII case ignored), or nil.
func (h *ResponseHead) Header(name string) []byte {
	for i := range h.Headers {
		if foldEqual(h.Headers[i].Name, name) {
			return h.Headers[i].Value
		}
	}
	return nil
}

// ExpectResponse puts the parser in response mode (a client's side) for the next
// response, which answers a request with the given method: the response to HEAD has no
// body, and a 2xx answer to CONNECT is an upgrade. Call it before each response. The same
// framing rules hold as for requests (RFC 9112 section 6.3), with a body that ends with the
// connection where neither Transfer-Encoding nor Content-Length frames it, and stricter
// ones as llhttp's: a response with both Transfer-Encoding and Content-Length fails with
// ErrFraming, one with two Content-Lengths with ErrDuplicateLength. Caps are the same
// fields (MaxBodySize -1 lifts the body's).
func (p *Parser) ExpectResponse(method string) {
	p.resp = true
	p.noBody = method == "HEAD"
	p.connect = method == "CONNECT"
}

// Response returns the response head the last EventHead reported (response mode).
func (p *Parser) Response() *ResponseHead { return &p.rhead }

// Finish tells the parser that the stream ended. It reports EventEnd if that ends a body
// that lasts until the connection closes, EventNone if the parser stands between messages,
// and ErrIncomplete if a message was cut short.
func (p *Parser) Finish() (Event, error) {
	switch {
	case p.state == stBodyEOF:
		p.state = stStart
		return EventEnd, nil
	case p.state == stEnd:
		p.state = stStart
		return EventEnd, nil
	case p.Idle():
		return EventNone, nil
	case p.state == stFailed:
		return EventNone, p.err
	}
	p.state = stFailed
	p.err = ErrIncomplete
	return EventNone, ErrIncomplete
}

// finishResponseHead fills the ResponseHead and decides the body's framing.
func (p *Parser) finishResponseHead(head []byte) *Error {
	h := &p.rhead
	h.Reason = head[p.method.start:p.method.end]
	h.Headers = p.collect(head, h.Headers[:0])
	h.ContentLength, h.Chunked, h.UntilClose, h.Upgrade = 0, false, false, false
	var f framing
	for _, fld := range h.Headers {
		if n := len(fld.Name); n != 10 && n != 14 && n != 17 {
			continue
		}
		if f.haveCL && equalFold(fld.Name, "content-length") {
			return ErrDuplicateLength // (even an equal one: llhttp's rule, node's client)
		}
		if err := f.add(fld); err != nil {
			return err
		}
	}
	if f.haveCL && f.nte > 0 {
		// Whatever the status: a response framed two ways is refused, as llhttp (and so
		// node's client) refuses it, rather than believed one way (RFC 9112 section 6.3
		// lets Transfer-Encoding win), which a second response smuggled in its body needs.
		return ErrFraming
	}
	h.KeepAlive = f.keepAlive(h.Minor)
	p.received, p.remaining = 0, 0
	p.size, p.digits, p.lineLen = 0, 0, 0
	st := h.Status
	switch {
	case st == 101 || p.connect && st >= 200 && st < 300:
		h.Upgrade = true
		p.state = stEnd
	case st < 200 || st == 204 || st == 304 || p.noBody:
		p.state = stEnd
	case f.nte > 0:
		// The last coding decides; anything but chunked runs until the connection closes
		// (RFC 9112 section 6.3).
		last := f.te
		if i := bytes.LastIndexByte(f.te, ','); i >= 0 {
			last = f.te[i+1:]
		}
		if f.nte == 1 && equalFold(trimOWS(last), "chunked") {
			h.Chunked = true
			h.ContentLength = -1
			p.state = stChunkSize
		} else {
			h.UntilClose, h.KeepAlive = true, false
			h.ContentLength = -1
			p.state = stBodyEOF
		}
	case f.haveCL:
		n, err := p.fixedBody(f.cl)
		if err != nil {
			return err
		}
		h.ContentLength = n
	default:
		h.UntilClose, h.KeepAlive = true, false
		h.ContentLength = -1
		p.state = stBodyEOF
	}
	return nil
}
