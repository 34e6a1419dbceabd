package http1

import (
	"bytes"
	"math"
)

// Defaults for the Parser's limits (and the Server's).
const (
	DefaultMaxHeaderSize      = 16 << 10 // Node's --max-http-header-size
	DefaultMaxRequestLineSize = 8 << 10
	DefaultMaxHeadersCount    = 2000    // Node's server.maxHeadersCount
	DefaultMaxBodySize        = 1 << 20 // per request; configurable, -1 for no limit
	maxChunkLine              = 4096    // a chunk-size line with its extensions and CRLF
	maxLeadingCRLF            = 64      // bytes of empty lines tolerated before a request line
	keepBuf                   = 4 << 10 // a carry buffer larger than this is dropped by Shrink
)

// Event is what one call of Parse found.
type Event uint8

const (
	// EventNone: all the bytes given were consumed and the parser needs more.
	EventNone Event = iota
	// EventHead: a request's head is complete; Request describes it.
	EventHead
	// EventBody: Body holds the next bytes of the request's body.
	EventBody
	// EventEnd: the request is complete; Trailers holds its trailer fields (chunked only).
	// The next call parses the next request.
	EventEnd
)

// Header is one header field. Name is as received; Value has no leading or trailing
// spaces or tabs.
type Header struct {
	Name, Value []byte
}

// Request is a parsed request head. Its slices point into the bytes given to Parse or
// into the Parser's own buffer (when the head arrived in pieces): they are valid until
// the next call of Parse, and the caller copies what it keeps beyond that.
type Request struct {
	Method  []byte
	Target  []byte
	Minor   int      // HTTP/1.Minor: 0 or 1
	Headers []Header // in order, as received
	Host    []byte   // the Host header's value; nil if there is none (HTTP/1.0 only)
	// ContentLength is the declared length: 0 without a body, -1 for a chunked body.
	ContentLength int64
	Chunked       bool
	// KeepAlive tells whether the connection may carry another request: HTTP/1.1 unless
	// Connection has "close", HTTP/1.0 if Connection has "keep-alive" (and not "close").
	KeepAlive bool
	// Upgrade is set for CONNECT, and for a request with an Upgrade header whose Connection
	// header has "upgrade".
	Upgrade bool
	// Expect100 is set for an HTTP/1.1 request with "Expect: 100-continue".
	Expect100 bool

	c    *conn  // the server's connection; nil outside a Server
	body []byte // the body gathered by BufferBody
}

// Header returns the value of the first field called name (ASCII case ignored), or nil.
func (r *Request) Header(name string) []byte {
	for i := range r.Headers {
		if foldEqual(r.Headers[i].Name, name) {
			return r.Headers[i].Value
		}
	}
	return nil
}

// foldEqual compares a and b ignoring ASCII case.
func foldEqual(a []byte, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// HasBody reports whether the request has a body to read.
func (r *Request) HasBody() bool { return r.Chunked || r.ContentLength > 0 }

// state is where the parser stands; the head states are also used for the trailer section.
type state uint8

const (
	stStart       state = iota // before a request line: empty lines are skipped
	stStartLF                  // after a CR of an empty line
	stMethod                   // in the method
	stTarget                   // in the request target
	stVersion                  // in the version
	stRespVersion              // in a status line's version (response mode)
	stRespStatus               // in a status code
	stRespReason               // in a reason phrase
	stReqLF                    // after the request (or status) line's CR
	stFieldStart               // at the start of a field line, or of the empty line
	stName                     // in a field name
	stOWS                      // after the colon
	stValue                    // in a field value
	stFieldLF                  // after a field line's CR
	stHeadLF                   // after the empty line's CR
	stBodyCL                   // in a Content-Length body
	stChunkSize                // in a chunk size
	stChunkBWS                 // after a chunk size, before ';' or CR
	stChunkExt                 // in a chunk extension
	stChunkLF                  // after a chunk-size line's CR
	stChunkData                // in a chunk's data
	stChunkCR                  // after a chunk's data
	stChunkDataLF              // after the CR that ends a chunk's data
	stBodyEOF                  // in a response body that ends with the connection
	stEnd                      // the request is complete: the next call reports EventEnd
	stFailed                   // an error was reported; Reset starts over
)

type span struct{ start, end int } // offsets from the start of the head (or trailer section)

type field struct{ name, value span }

// Parser is an incremental HTTP/1.1 request parser for one connection. Give it the bytes as
// they arrive, split anywhere: it keeps its position between calls, so each byte is looked
// at once however the bytes arrive (and, for a head that arrives in pieces, copied once into
// the parser's buffer). Framing follows RFC 9112 strictly; see the package documentation.
//
// Set the limits before the first call; a zero limit means its default. A Parser is
// reused from request to request, and allocates nothing once its buffers have grown.
// Not safe for concurrent use.
type Parser struct {
	// MaxHeaderSize caps the head: the request line and the header fields with their line
	// ends (431). It caps the trailer section too.
	MaxHeaderSize int
	// MaxRequestLineSize caps the request line with its CRLF (414).
	MaxRequestLineSize int
	// MaxHeadersCount caps the number of header fields, and of trailer fields (431).
	MaxHeadersCount int
	// MaxBodySize caps the body (413); -1 for no limit.
	MaxBodySize int64

	state   state
	err     *Error
	trailer bool // the head states parse the trailer section
	buf     []byte
	hlen    int // bytes of the head (or trailer section) carried in buf
	lead    int // bytes of empty lines skipped before the request line
	method  span
	target  span
	ver     [8]byte
	nver    int
	nameEnd int
	valPos  int
	fields  []field

	remaining uint64 // bytes left of the Content-Length body, or of the chunk
	received  int64  // body bytes so far
	size      uint64 // the chunk size being parsed
	digits    int    // of the chunk size
	lineLen   int    // bytes of the chunk-size line so far

	req      Request
	body     []byte
	trailers []Header

	anyExpect bool // take an Expect other than 100-continue (the Server's HandleExpect)
	resp      bool // parse responses (ExpectResponse)
	noBody    bool // the response answers a HEAD request
	connect   bool // the response answers a CONNECT request
	rhead     ResponseHead

	// Work counts the bytes the parser has examined and copied: tests use it to check that
	// the work per byte is constant however the bytes arrive.
	Work int64
}

// Reset makes the parser ready for a new connection, keeping its buffers.
func (p *Parser) Reset() {
	*p = Parser{
		MaxHeaderSize: p.MaxHeaderSize, MaxRequestLineSize: p.MaxRequestLineSize,
		MaxHeadersCount: p.MaxHeadersCount, MaxBodySize: p.MaxBodySize,
		buf: p.buf[:0], fields: p.fields[:0], anyExpect: p.anyExpect,
		req:      Request{Headers: p.req.Headers[:0]},
		trailers: p.trailers[:0],
		Work:     p.Work,
		resp:     p.resp,
		rhead:    ResponseHead{Headers: p.rhead.Headers[:0]},
	}
}

// Shrink drops the carry buffer if it grew beyond a few KiB, so that a connection does not
// hold a large head's memory for its life. Call it between requests.
func (p *Parser) Shrink() {
	if cap(p.buf) > keepBuf && p.hlen == 0 {
		p.buf = nil
	}
}

// Buffered returns the bytes of memory the parser holds for an incomplete head: what a
// server counts against its cap on buffered bytes.
func (p *Parser) Buffered() int { return cap(p.buf) }

// InHead reports whether the parser has begun a request and not finished its head; false
// between requests (and before the first byte of the next one).
func (p *Parser) InHead() bool { return p.state > stStartLF && p.state <= stHeadLF && !p.trailer }

// Idle reports whether the parser stands between requests with nothing of the next one
// seen (empty lines aside).
func (p *Parser) Idle() bool { return p.state <= stStartLF }

// Request returns the request whose head the last EventHead reported; see Request for
// how long its slices are valid.
func (p *Parser) Request() *Request { return &p.req }

// Body returns the body bytes the last EventBody reported: a slice of the bytes given to
// Parse, valid as long as they are.
func (p *Parser) Body() []byte { return p.body }

// Trailers returns the trailer fields the last EventEnd reported, valid until the next
// call of Parse.
func (p *Parser) Trailers() []Header { return p.trailers }

func (p *Parser) fail(err *Error) (int, Event, error) {
	p.state = stFailed
	p.err = err
	p.hlen = 0
	return 0, EventNone, err
}

func (p *Parser) maxHeader() int {
	if p.MaxHeaderSize > 0 {
		return p.MaxHeaderSize
	}
	return DefaultMaxHeaderSize
}

func (p *Parser) maxLine() int {
	if p.MaxRequestLineSize > 0 {
		return min(p.MaxRequestLineSize, p.maxHeader())
	}
	return min(DefaultMaxRequestLineSize, p.maxHeader())
}

func (p *Parser) maxCount() int {
	if p.MaxHeadersCount > 0 {
		return p.MaxHeadersCount
	}
	return DefaultMaxHeadersCount
}

func (p *Parser) maxBody() int64 {
	switch {
	case p.MaxBodySize < 0:
		return math.MaxInt64
	case p.MaxBodySize == 0:
		return DefaultMaxBodySize
	}
	return p.MaxBodySize
}

// Parse consumes bytes from the start of data and stops at the first event: it returns how
// many bytes it consumed, the event, and an error (an *Error) if the request must be
// refused, in which case the connection should be answered with the error's status and
// closed. Call it again with data[n:] (which may be empty: EventEnd can follow EventHead
// or EventBody without more bytes) until it reports EventNone, which it does only when it
// has consumed all of data.
func (p *Parser) Parse(data []byte) (n int, ev Event, err error) {
	switch {
	case p.state == stFailed:
		return 0, EventNone, p.err
	case p.state == stEnd:
		p.state = stStart
		p.trailer = false
		return 0, EventEnd, nil
	case p.state == stBodyEOF:
		p.body = data
		p.Work += int64(len(data))
		if len(data) == 0 {
			return 0, EventNone, nil
		}
		return len(data), EventBody, nil
	case p.state == stBodyCL:
		if len(data) == 0 {
			return 0, EventNone, nil
		}
		k := int(min(uint64(len(data)), p.remaining))
		p.body = data[:k]
		p.remaining -= uint64(k)
		p.Work += int64(k)
		if p.remaining == 0 {
			p.state = stEnd
		}
		return k, EventBody, nil
	}
	n, ev, err = p.scan(data)
	p.Work += int64(n)
	return n, ev, err
}

// limit returns how far in data the head states may scan: the head (or the request line)
// must end within its cap. origin is the index in data of the head's first byte (negative
// when the head began in an earlier call).
func (p *Parser) limit(st state, origin, n int) int {
	switch {
	case st <= stStartLF:
		return min(n, maxLeadingCRLF-p.lead)
	case st <= stReqLF:
		return min(n, origin+p.maxLine())
	case st <= stHeadLF:
		return min(n, origin+p.maxHeader())
	}
	return n
}

// scan runs the state machine over data.
func (p *Parser) scan(data []byte) (int, Event, error) {
	st := p.state
	origin := -p.hlen // the index in data of the head's first byte
	i := 0
	lim := p.limit(st, origin, len(data))
	for i < lim {
		c := data[i]
		switch st {
		case stStart:
			if c == '\r' || c == '\n' { // an empty line (a bare LF ends one too: RFC 9112 section 2.2; as Node)
				if c == '\r' {
					st = stStartLF
				}
				i++
				p.lead++
				continue
			}
			if !tokenTable[c] {
				return p.fail(ErrRequestLine)
			}
			origin = i
			p.lead = 0
			p.method.start = 0
			st = stMethod
			if p.resp {
				p.nver = 0
				st = stRespVersion
			}
			lim = p.limit(st, origin, len(data))
		case stStartLF:
			if c != '\n' {
				return p.fail(ErrLineEnd)
			}
			i++
			p.lead++
			st = stStart
			lim = p.limit(st, origin, len(data))
		case stMethod:
			if i = upTo(data, i, lim, &tokenTable); i == lim {
				continue
			}
			if data[i] != ' ' {
				return p.fail(ErrMethod)
			}
			p.method.end = i - origin
			i++
			p.target.start = i - origin
			st = stTarget
		case stTarget:
			if i = upTo(data, i, lim, &targetTable); i == lim {
				continue
			}
			if data[i] != ' ' || i-origin == p.target.start {
				return p.fail(ErrTarget)
			}
			p.target.end = i - origin
			i++
			p.nver = 0
			st = stVersion
		case stVersion:
			if p.nver == 0 && lim-i >= 9 && data[i+8] == '\r' && string(data[i:i+7]) == "HTTP/1." && (data[i+7] == '1' || data[i+7] == '0') {
				p.req.Minor = int(data[i+7] - '0') // the common case, at once
				i += 9
				st = stReqLF
				continue
			}
			minor, done, err := p.version(c, '\r', ErrRequestLine)
			if err != nil {
				return p.fail(err)
			}
			i++
			if done {
				p.req.Minor = minor
				st = stReqLF
			}
		case stRespVersion:
			if p.nver < len("HTTP/") && c != "HTTP/"[p.nver] {
				return p.fail(ErrNotHTTP) // at once, as llhttp: bytes that cannot begin a response
			}
			minor, done, err := p.version(c, ' ', ErrStatusLine)
			if err != nil {
				return p.fail(err)
			}
			i++
			if done {
				p.rhead.Minor = minor
				p.rhead.Status, p.digits = 0, 0
				st = stRespStatus
			}
		case stRespStatus:
			switch {
			case isDigit(c) && p.digits < 3:
				p.rhead.Status = p.rhead.Status*10 + int(c-'0')
				p.digits++
			case p.digits == 3 && c == ' ':
				p.method = span{i + 1 - origin, i + 1 - origin}
				st = stRespReason
			case p.digits == 3 && c == '\r':
				p.method = span{i - origin, i - origin}
				st = stReqLF
			case p.digits < 3 || isDigit(c):
				return p.fail(ErrStatusCode)
			default:
				return p.fail(ErrStatusLine)
			}
			i++
		case stRespReason:
			if i = upTo(data, i, lim, &reasonTable); i == lim {
				continue
			}
			if data[i] != '\r' {
				return p.fail(ErrStatusLine)
			}
			p.method.end = i - origin
			i++
			st = stReqLF
		case stReqLF:
			if c != '\n' {
				return p.fail(ErrLineEnd)
			}
			i++
			p.fields = p.fields[:0]
			st = stFieldStart
			lim = p.limit(st, origin, len(data))
		case stFieldStart:
			switch {
			case c == '\r':
				st = stHeadLF
			case c == ' ' || c == '\t':
				return p.fail(ErrObsFold)
			case tokenTable[c]:
				if len(p.fields) == p.maxCount() {
					return p.fail(ErrTooManyHeaders)
				}
				p.fields = append(p.fields, field{name: span{start: i - origin}})
				st = stName
			default:
				return p.fail(ErrHeaderName)
			}
			i++
		case stName:
			if i = upTo(data, i, lim, &tokenTable); i == lim {
				continue
			}
			if data[i] != ':' {
				return p.fail(ErrHeaderName)
			}
			p.fields[len(p.fields)-1].name.end = i - origin
			i++
			st = stOWS
		case stOWS:
			switch {
			case c == ' ' || c == '\t':
				i++
			case c == '\r':
				f := &p.fields[len(p.fields)-1]
				f.value = span{i - origin, i - origin}
				st = stFieldLF
				i++
			case valueTable[c]:
				p.fields[len(p.fields)-1].value.start = i - origin
				st = stValue
			default:
				return p.fail(ErrHeaderValue)
			}
		case stValue:
			if i = upTo(data, i, lim, &valueTable); i == lim {
				continue
			}
			if data[i] != '\r' {
				return p.fail(ErrHeaderValue)
			}
			p.fields[len(p.fields)-1].value.end = i - origin
			i++
			st = stFieldLF
		case stFieldLF:
			if c != '\n' {
				return p.fail(ErrLineEnd)
			}
			i++
			st = stFieldStart
		case stHeadLF:
			if c != '\n' {
				return p.fail(ErrLineEnd)
			}
			i++
			var head []byte
			if p.hlen > 0 {
				p.buf = append(p.buf, data[:i]...)
				p.Work += int64(i)
				head = p.buf
			} else {
				head = data[origin:i]
			}
			p.hlen = 0
			if p.trailer {
				p.trailers = p.collect(head, p.trailers[:0])
				p.state = stStart
				p.trailer = false
				return i, EventEnd, nil
			}
			p.trailers = p.trailers[:0] // a message without a trailer section has none
			finish := p.finishHead
			if p.resp {
				finish = p.finishResponseHead
			}
			if err := finish(head); err != nil {
				return p.fail(err)
			}
			return i, EventHead, nil

		case stChunkSize:
			for i < len(data) && p.lineLen < maxChunkLine {
				d := unhex(data[i])
				if d < 0 {
					break
				}
				if p.digits == 16 {
					return p.fail(ErrChunk)
				}
				p.size = p.size<<4 | uint64(d)
				p.digits++
				p.lineLen++
				i++
			}
			if i == len(data) {
				continue
			}
			if p.digits == 0 || p.lineLen >= maxChunkLine {
				return p.fail(ErrChunk)
			}
			if p.size > uint64(p.maxBody()-p.received) {
				return p.fail(ErrBodyTooLarge)
			}
			switch data[i] {
			case ';':
				st = stChunkExt
			case ' ', '\t':
				st = stChunkBWS
			case '\r':
				st = stChunkLF
			default:
				return p.fail(ErrChunk)
			}
			p.lineLen++
			i++
		case stChunkBWS:
			switch c {
			case ' ', '\t':
			case ';':
				st = stChunkExt
			case '\r':
				st = stChunkLF
			default:
				return p.fail(ErrChunk)
			}
			p.lineLen++
			i++
			if p.lineLen >= maxChunkLine {
				return p.fail(ErrChunk)
			}
		case stChunkExt:
			j := i
			end := min(len(data), i+maxChunkLine-p.lineLen)
			for j < end && extTable[data[j]] {
				j++
			}
			p.lineLen += j - i
			i = j
			if i == len(data) {
				continue
			}
			if p.lineLen >= maxChunkLine || data[i] != '\r' {
				return p.fail(ErrChunk)
			}
			p.lineLen++
			i++
			st = stChunkLF
		case stChunkLF:
			if c != '\n' {
				return p.fail(ErrChunk)
			}
			i++
			if p.size == 0 { // the last chunk: the trailer section follows
				p.trailer = true
				p.fields = p.fields[:0]
				origin = i
				st = stFieldStart
				lim = p.limit(st, origin, len(data))
				continue
			}
			p.remaining = p.size
			st = stChunkData
		case stChunkData:
			k := int(min(uint64(len(data)-i), p.remaining))
			p.body = data[i : i+k]
			p.remaining -= uint64(k)
			p.received += int64(k)
			i += k
			if p.remaining == 0 {
				p.state = stChunkCR
			} else {
				p.state = stChunkData
			}
			return i, EventBody, nil
		case stChunkCR:
			if c != '\r' {
				return p.fail(ErrChunk)
			}
			i++
			st = stChunkDataLF
		case stChunkDataLF:
			if c != '\n' {
				return p.fail(ErrChunk)
			}
			i++
			p.size, p.digits, p.lineLen = 0, 0, 0
			st = stChunkSize
		default:
			panic("http1: parser in a bad state")
		}
	}
	if i < len(data) { // stopped at the limit of a head, a request line or leading CRLFs
		switch {
		case st <= stStartLF:
			return p.fail(ErrRequestLine)
		case st <= stReqLF:
			return p.fail(ErrURITooLong)
		default:
			return p.fail(ErrHeaderTooLarge)
		}
	}
	if st > stStartLF && st <= stHeadLF { // carry the unfinished head
		if p.hlen > 0 {
			p.buf = append(p.buf, data...)
		} else {
			p.buf = append(p.buf[:0], data[origin:]...)
		}
		p.Work += int64(len(data) - max(origin, 0))
		p.hlen = len(data) - origin
	}
	p.state = st
	return i, EventNone, nil
}

// version takes c, the next byte of a request line's or a status line's HTTP-version: into
// p.ver, or, if c is end, the byte after it, as the end of the version (done), whose minor
// number it returns. A version that is too long or not HTTP/1.x fails with bad, a
// well-formed HTTP/x.y other than 1.0 and 1.1 with ErrVersion.
func (p *Parser) version(c, end byte, bad *Error) (minor int, done bool, err *Error) {
	if c == end {
		switch {
		case p.nver == 8 && string(p.ver[:]) == "HTTP/1.1":
			return 1, true, nil
		case p.nver == 8 && string(p.ver[:]) == "HTTP/1.0":
			return 0, true, nil
		case p.nver == 8 && string(p.ver[:5]) == "HTTP/" && isDigit(p.ver[5]) && p.ver[6] == '.' && isDigit(p.ver[7]):
			return 0, false, ErrVersion
		}
		return 0, false, bad
	}
	if p.nver == len(p.ver) {
		return 0, false, bad
	}
	p.ver[p.nver] = c
	p.nver++
	return 0, false, nil
}

// upTo returns the index of the first byte from i on that t does not mark, or lim: the run
// of a method, a target, a reason, a field name or a field value.
func upTo(data []byte, i, lim int, t *[256]bool) int {
	for i < lim && t[data[i]] {
		i++
	}
	return i
}

// collect turns the recorded fields into Headers on head.
func (p *Parser) collect(head []byte, hs []Header) []Header {
	for _, f := range p.fields {
		v := head[f.value.start:f.value.end]
		for len(v) > 0 && (v[len(v)-1] == ' ' || v[len(v)-1] == '\t') {
			v = v[:len(v)-1]
		}
		hs = append(hs, Header{Name: head[f.name.start:f.name.end], Value: v})
	}
	p.Work += int64(len(head))
	return hs
}

// finishHead fills the Request from the complete head and decides the body's framing.
func (p *Parser) finishHead(head []byte) *Error {
	r := &p.req
	r.Method = head[p.method.start:p.method.end]
	r.Target = head[p.target.start:p.target.end]
	r.Headers = p.collect(head, r.Headers[:0])
	r.Host = nil
	r.ContentLength, r.Chunked, r.Upgrade, r.Expect100 = 0, false, false, false
	var (
		f             framing
		hosts         int
		upgradeHeader bool
	)
	for _, h := range r.Headers {
		switch n := len(h.Name); {
		case n != 4 && n != 6 && n != 7 && n != 10 && n != 14 && n != 17:
		case equalFold(h.Name, "host"):
			hosts++
			r.Host = h.Value
		case equalFold(h.Name, "upgrade"):
			upgradeHeader = true
		case equalFold(h.Name, "expect"):
			if r.Minor == 1 {
				switch {
				case equalFold(h.Value, "100-continue"), p.anyExpect && hasContinue(h.Value):
					r.Expect100 = true
				case !p.anyExpect:
					return ErrExpectation
				}
			}
		default:
			if err := f.add(h); err != nil {
				return err
			}
		}
	}
	if hosts > 1 || hosts == 0 && r.Minor == 1 || r.Host != nil && !validHost(r.Host) {
		return ErrHost
	}
	r.KeepAlive = f.keepAlive(r.Minor)
	r.Upgrade = f.upgrade && upgradeHeader || string(r.Method) == "CONNECT"
	p.received, p.remaining = 0, 0
	p.size, p.digits, p.lineLen = 0, 0, 0
	switch {
	case f.nte > 0:
		// RFC 9112 section 6.1: Transfer-Encoding in an HTTP/1.0 request, or beside a
		// Content-Length, is faulty framing; only "chunked" alone is understood.
		if r.Minor == 0 || f.haveCL {
			return ErrFraming
		}
		if f.nte > 1 || !equalFold(f.te, "chunked") {
			return ErrTransferEncoding
		}
		r.Chunked = true
		r.ContentLength = -1
		p.state = stChunkSize
	case f.haveCL:
		n, err := p.fixedBody(f.cl)
		if err != nil {
			return err
		}
		r.ContentLength = n
	default:
		p.state = stEnd
	}
	return nil
}

// framing gathers what a head's framing fields say, in a request and in a response:
// Content-Length, Transfer-Encoding and Connection.
type framing struct {
	cl, te               []byte // the Content-Length value; the last Transfer-Encoding value
	haveCL               bool
	nte                  int  // Transfer-Encoding fields
	close, keep, upgrade bool // Connection tokens
}

// add takes h if it is a framing field (and ignores it otherwise). Two Content-Lengths that
// differ fail with ErrContentLength.
func (f *framing) add(h Header) *Error {
	switch {
	case equalFold(h.Name, "content-length"):
		if f.haveCL && !bytes.Equal(f.cl, h.Value) {
			return ErrContentLength
		}
		f.cl, f.haveCL = h.Value, true
	case equalFold(h.Name, "transfer-encoding"):
		f.te = h.Value
		f.nte++
	case equalFold(h.Name, "connection"):
		forTokens(h.Value, func(t []byte) {
			switch {
			case equalFold(t, "close"):
				f.close = true
			case equalFold(t, "keep-alive"):
				f.keep = true
			case equalFold(t, "upgrade"):
				f.upgrade = true
			}
		})
	}
	return nil
}

// keepAlive reports whether the connection persists after a message of HTTP/1.minor:
// HTTP/1.1 unless Connection has "close", HTTP/1.0 only if it has "keep-alive" (and not
// "close").
func (f *framing) keepAlive(minor int) bool {
	if minor == 1 {
		return !f.close
	}
	return f.keep && !f.close
}

// fixedBody parses a Content-Length value cl and sets the parser to read that many bytes
// (stEnd for none); a bad value or one above the body cap fails.
func (p *Parser) fixedBody(cl []byte) (int64, *Error) {
	n, ok := parseContentLength(cl)
	if !ok {
		return 0, ErrContentLength
	}
	if n > p.maxBody() {
		return 0, ErrBodyTooLarge
	}
	p.remaining = uint64(n)
	p.state = stBodyCL
	if n == 0 {
		p.state = stEnd
	}
	return n, nil
}

// parseContentLength parses 1*DIGIT below 2^63, checking for overflow before each multiply
// and add (strconv.ParseUint's cutoff).
func parseContentLength(v []byte) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	const cutoff = math.MaxInt64 / 10
	var n int64
	for _, c := range v {
		if !isDigit(c) {
			return 0, false
		}
		if n > cutoff {
			return 0, false
		}
		n *= 10
		d := int64(c - '0')
		if n > math.MaxInt64-d {
			return 0, false
		}
		n += d
	}
	return n, true
}

// hasContinue reports whether v has "100-continue" (ASCII case ignored) between non-word
// bytes or the ends, as Node's server tests an Expect value (/(?:^|\W)100-continue(?:$|\W)/i).
func hasContinue(v []byte) bool {
	const tok = "100-continue"
	for i := 0; i+len(tok) <= len(v); i++ {
		if equalFold(v[i:i+len(tok)], tok) && (i == 0 || !isWordByte(v[i-1])) &&
			(i+len(tok) == len(v) || !isWordByte(v[i+len(tok)])) {
			return true
		}
	}
	return false
}

// isWordByte reports whether c is a byte of a regular expression's \w.
func isWordByte(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

// forTokens calls fn with each element of a comma-separated list, spaces trimmed, empty
// elements skipped.
func forTokens(v []byte, fn func([]byte)) {
	for len(v) > 0 {
		elem := v
		if i := bytes.IndexByte(v, ','); i >= 0 {
			elem, v = v[:i], v[i+1:]
		} else {
			v = nil
		}
		if elem = trimOWS(elem); len(elem) > 0 {
			fn(elem)
		}
	}
}

func trimOWS(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// equalFold compares b with lower, a lower-case ASCII string, ignoring ASCII case.
func equalFold[T string | []byte](b T, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func isToken(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !tokenTable[c] {
			return false
		}
	}
	return true
}

// validHost reports whether v may be a Host header's value: the bytes of an RFC 3986
// authority without userinfo (host, IP literal in brackets, port), as net/http checks.
func validHost(v []byte) bool {
	for _, c := range v {
		if !hostTable[c] {
			return false
		}
	}
	return true
}

var (
	// tokenTable marks RFC 9110's tchar.
	tokenTable = makeTable("!#$%&'*+-.^_`|~", true)
	// targetTable marks the bytes of a request target: visible ASCII.
	targetTable = func() (t [256]bool) {
		for c := 0x21; c < 0x7f; c++ {
			t[c] = true
		}
		return t
	}()
	// valueTable marks field-vchar, SP and HTAB (obs-text included, as RFC 9110 allows).
	valueTable = func() (t [256]bool) {
		for c := 0x20; c < 0x100; c++ {
			t[c] = c != 0x7f
		}
		t['\t'] = true
		return t
	}()
	// reasonTable marks the bytes a response's reason phrase may hold: all but CR and LF,
	// as llhttp (so node's client) takes them, control bytes included.
	reasonTable = func() (t [256]bool) {
		for c := range t {
			t[c] = c != '\r' && c != '\n'
		}
		return t
	}()
	// extTable marks the bytes of chunk extensions: what valueTable marks.
	extTable  = valueTable
	hostTable = makeTable("!$%&'()*+,-.:;=[]_~", true)
)

func makeTable(punct string, alnum bool) (t [256]bool) {
	if alnum {
		for c := '0'; c <= '9'; c++ {
			t[c] = true
		}
		for c := 'a'; c <= 'z'; c++ {
			t[c] = true
			t[c-'a'+'A'] = true
		}
	}
	for _, c := range punct {
		t[c] = true
	}
	return t
}
