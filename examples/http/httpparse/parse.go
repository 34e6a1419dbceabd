// Package httpparse is an incremental, allocation-free HTTP/1.x request parser for servers
// that read into buffers they do not own, such as a uvgo loop's read buffer.
//
// Parse looks at the bytes received so far on a connection, starting at a request's first
// byte. It returns the length of the first complete request and fills a Request whose
// slices point into those bytes, or ErrIncomplete when more bytes are needed, or an *Error
// with the HTTP status to answer before closing the connection. A request may arrive split
// at any byte (call Parse again with the same bytes extended) and several may arrive in one
// read (call Parse again after the n bytes of the first).
//
// What is a valid request follows net/http's ReadRequest (the fuzz test holds the two
// together), with these deliberate differences:
//
//   - Only HTTP/1.0 and HTTP/1.1 are parsed; another well-formed version is ErrVersion
//     (505). ReadRequest takes any HTTP/d.d.
//   - Obsolete line folding (a header line starting with a space or tab) is ErrObsFold
//     (400), as RFC 9112 section 5.2 allows; ReadRequest joins the lines.
//   - A space in a header name (before the colon) is ErrHeaderName (400), as RFC 9112
//     section 5.1 requires; ReadRequest keeps such a header under its raw name.
//   - The target is checked byte by byte (no control bytes, no spaces), not parsed as a
//     URL; ReadRequest also rejects what net/url cannot parse ("%zz", "a:b:c", ...).
//   - Chunk trailers are parsed as headers; their lines must end with CRLF (ErrTrailer) and
//     the section within 4 KiB. ReadRequest accepts bare LFs there if it sees a CRLF CRLF
//     somewhere in the next 4 KiB of its buffer, even past the trailers' end.
//   - A missing Host header of an HTTP/1.1 request is the server's business (net/http's
//     server answers 400, as examples/http does), not the parser's.
//
// Transfer-Encoding is handled as net/http handles it: ignored on HTTP/1.0; otherwise it
// must be exactly one "chunked" field, and anything else is ErrTransferEncoding (501).
package httpparse

import (
	"bytes"
)

// Defaults for Parser's limits.
const (
	DefaultMaxHeaderBytes = 16 << 10 // as Node's --max-http-header-size
	DefaultMaxBodyBytes   = 1 << 20
	maxChunkLine          = 4096 // a chunk-size line with its CRLF, as net/http's bufio buffer
	maxTrailerBytes       = 4096
)

// Error is a request the server must refuse: Status is the HTTP status to answer with
// before closing the connection.
type Error struct {
	Status int
	Reason string
}

func (e *Error) Error() string { return "httpparse: " + e.Reason }

// The errors Parse returns. They are values: Parse formats nothing and allocates nothing.
var (
	ErrIncomplete       = &Error{0, "incomplete request"}
	ErrMalformed        = &Error{400, "malformed request"}
	ErrMethod           = &Error{400, "invalid method"}
	ErrTarget           = &Error{400, "invalid request target"}
	ErrHeaderName       = &Error{400, "invalid header name"}
	ErrHeaderValue      = &Error{400, "invalid header value"}
	ErrObsFold          = &Error{400, "obsolete line folding"}
	ErrHost             = &Error{400, "too many Host headers"}
	ErrContentLength    = &Error{400, "invalid Content-Length"}
	ErrChunk            = &Error{400, "malformed chunked body"}
	ErrTrailer          = &Error{400, "trailer section not ended by CRLF CRLF"}
	ErrBodyTooLarge     = &Error{413, "body too large"}
	ErrHeaderTooLarge   = &Error{431, "header section too large"}
	ErrTransferEncoding = &Error{501, "unsupported Transfer-Encoding"}
	ErrVersion          = &Error{505, "unsupported HTTP version"}
)

// Header is one header field; both slices point into the parsed bytes. Value has no
// leading or trailing spaces or tabs.
type Header struct {
	Name, Value []byte
}

// Request is a parsed request. Its slices point into the bytes given to Parse (Body,
// when the body was chunked, into the Request's own buffer): they are valid until those
// bytes change or the Request is parsed into again. A Request is reused from request to
// request without allocating once its slices have grown.
type Request struct {
	Method  []byte
	Target  []byte
	Minor   int      // HTTP/1.Minor: 0 or 1
	Headers []Header // in order, Transfer-Encoding and Content-Length included
	Host    []byte   // the Host header's value; nil if there is none
	// ContentLength is the declared length, or -1 for a chunked body.
	ContentLength int64
	Chunked       bool
	// KeepAlive tells whether the connection may carry another request: HTTP/1.1 unless
	// Connection has "close", HTTP/1.0 if Connection has "keep-alive" (and not "close").
	KeepAlive bool
	Body      []byte
	chunks    []byte // the de-chunked body; reused
}

// Parser parses the requests of one connection. Its zero value uses the default limits.
// It keeps where it stopped looking for the end of an incomplete header section, so a
// section arriving a byte at a time is scanned once; call Reset before giving it bytes
// that are not the same request's. Not safe for concurrent use.
type Parser struct {
	MaxHeaderBytes int   // request line and headers with their line ends; 0: the default
	MaxBodyBytes   int64 // 0: the default
	scanned        int   // the head was scanned up to here without finding its end
}

// Reset forgets the progress on an incomplete request.
func (p *Parser) Reset() { p.scanned = 0 }

// Parse parses the request at the start of buf; see the package documentation.
func (p *Parser) Parse(buf []byte, r *Request) (n int, err error) {
	maxHead := p.MaxHeaderBytes
	if maxHead <= 0 {
		maxHead = DefaultMaxHeaderBytes
	}
	maxBody := p.MaxBodyBytes
	if maxBody <= 0 {
		maxBody = DefaultMaxBodyBytes
	}
	head, err := p.headEnd(buf, maxHead)
	if err != nil {
		return 0, err
	}
	if err := parseHead(buf[:head], r); err != nil {
		p.scanned = 0
		return 0, err
	}
	switch {
	case r.Chunked:
		n, err = p.chunked(buf, head, maxBody, r)
	case r.ContentLength > maxBody:
		err = ErrBodyTooLarge
	case int64(len(buf)-head) < r.ContentLength:
		return 0, ErrIncomplete
	default:
		n = head + int(r.ContentLength)
		r.Body = buf[head:n:n]
	}
	if err != ErrIncomplete {
		p.scanned = 0
	}
	return n, err
}

// headEnd finds the end of the header section: the byte after its empty line.
func (p *Parser) headEnd(buf []byte, limit int) (int, error) {
	i := p.scanned
	if i > len(buf) {
		i = 0
	}
	for {
		nl := bytes.IndexByte(buf[i:], '\n')
		if nl < 0 {
			p.scanned = i
			if len(buf) > limit {
				p.scanned = 0
				return 0, ErrHeaderTooLarge
			}
			return 0, ErrIncomplete
		}
		line := buf[i : i+nl]
		i += nl + 1
		if i > limit {
			p.scanned = 0
			return 0, ErrHeaderTooLarge
		}
		if len(line) == 0 || len(line) == 1 && line[0] == '\r' {
			if i == nl+1 { // the request line is empty
				p.scanned = 0
				return 0, ErrMalformed
			}
			return i, nil
		}
	}
}

// nextLine returns the line at buf[i:] without its LF or CRLF, and where the next begins;
// buf holds whole lines.
func nextLine(buf []byte, i int) (line []byte, next int) {
	nl := bytes.IndexByte(buf[i:], '\n')
	line = buf[i : i+nl]
	if len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	return line, i + nl + 1
}

// parseHead parses the request line and the headers; head ends with the empty line.
func parseHead(head []byte, r *Request) error {
	line, i := nextLine(head, 0)
	sp := bytes.IndexByte(line, ' ')
	if sp < 0 {
		return ErrMalformed
	}
	r.Method, line = line[:sp], line[sp+1:]
	sp = bytes.IndexByte(line, ' ')
	if sp < 0 {
		return ErrMalformed
	}
	r.Target, line = line[:sp], line[sp+1:]
	if !isToken(r.Method) {
		return ErrMethod
	}
	switch string(line) {
	case "HTTP/1.1":
		r.Minor = 1
	case "HTTP/1.0":
		r.Minor = 0
	default:
		if len(line) == 8 && string(line[:5]) == "HTTP/" && isDigit(line[5]) && line[6] == '.' && isDigit(line[7]) {
			return ErrVersion
		}
		return ErrMalformed
	}
	if len(r.Target) == 0 {
		return ErrTarget
	}
	for _, c := range r.Target {
		if c <= ' ' || c == 0x7f {
			return ErrTarget
		}
	}

	r.Headers = r.Headers[:0]
	r.Host, r.Body = nil, nil
	r.ContentLength, r.Chunked = 0, false
	var (
		cl            []byte // the first Content-Length
		haveCL, hasTE bool
		te            []byte
		nTE           int
		hasClose      bool
		hasKeepAlive  bool
	)
	for i < len(head) {
		line, i = nextLine(head, i)
		if len(line) == 0 {
			break
		}
		h, err := parseField(line)
		if err != nil {
			return err
		}
		r.Headers = append(r.Headers, h)
		switch {
		case asciiEqualFold(h.Name, "host"):
			if r.Host != nil {
				return ErrHost
			}
			r.Host = h.Value
		case asciiEqualFold(h.Name, "content-length"):
			if !haveCL {
				cl, haveCL = h.Value, true
			} else if !bytes.Equal(cl, h.Value) {
				return ErrContentLength
			}
		case asciiEqualFold(h.Name, "transfer-encoding"):
			hasTE = true
			te = h.Value
			nTE++
		case asciiEqualFold(h.Name, "connection"):
			hasClose = hasClose || containsToken(h.Value, "close")
			hasKeepAlive = hasKeepAlive || containsToken(h.Value, "keep-alive")
		}
	}
	if r.Minor == 1 {
		r.KeepAlive = !hasClose
	} else {
		r.KeepAlive = !hasClose && hasKeepAlive
	}
	if hasTE && r.Minor == 1 { // net/http ignores Transfer-Encoding on HTTP/1.0
		if nTE != 1 || !asciiEqualFold(te, "chunked") {
			return ErrTransferEncoding
		}
		r.Chunked = true
	}
	if haveCL {
		n, ok := parseUint63(cl)
		if !ok {
			return ErrContentLength
		}
		r.ContentLength = n
	}
	if r.Chunked {
		r.ContentLength = -1
	}
	return nil
}

// parseField parses one header line "Name: value".
func parseField(line []byte) (Header, error) {
	if line[0] == ' ' || line[0] == '\t' {
		return Header{}, ErrObsFold
	}
	colon := bytes.IndexByte(line, ':')
	if colon < 0 {
		return Header{}, ErrMalformed
	}
	name, value := line[:colon], line[colon+1:]
	if len(name) == 0 {
		return Header{}, ErrHeaderName
	}
	for _, c := range name {
		if !tokenByte(c) {
			if c == ' ' {
				return Header{}, ErrHeaderName
			}
			return Header{}, ErrMalformed
		}
	}
	for _, c := range value {
		if c < ' ' && c != '\t' || c == 0x7f {
			return Header{}, ErrHeaderValue
		}
	}
	return Header{Name: name, Value: trimOWS(value)}, nil
}

// chunked parses a chunked body starting at buf[i:], de-chunking it into r.chunks, and
// returns the length of the whole request. It follows net/http's chunked reader: CRLF
// line ends, at most 16 hex digits, extensions ignored, at most 16 KiB of framing beyond
// 16 bytes per chunk plus twice its data.
func (p *Parser) chunked(buf []byte, i int, maxBody int64, r *Request) (int, error) {
	body := r.chunks[:0]
	var excess int64
	for {
		nl := bytes.IndexByte(buf[i:min(len(buf), i+maxChunkLine)], '\n')
		if nl < 0 {
			if len(buf)-i >= maxChunkLine {
				return 0, ErrChunk
			}
			return 0, ErrIncomplete
		}
		line := buf[i : i+nl+1]
		i += nl + 1
		if len(line) < 2 || bytes.IndexByte(line, '\r') != len(line)-2 {
			return 0, ErrChunk // a bare LF, or a CR inside the line
		}
		line = line[:len(line)-2]
		excess += int64(len(line)) + 2
		for len(line) > 0 && (line[len(line)-1] == ' ' || line[len(line)-1] == '\t') {
			line = line[:len(line)-1]
		}
		if semi := bytes.IndexByte(line, ';'); semi >= 0 {
			line = line[:semi]
		}
		size, ok := parseHex(line)
		if !ok {
			return 0, ErrChunk
		}
		if size > uint64(maxBody) {
			r.chunks = body
			return 0, ErrBodyTooLarge
		}
		excess = max(excess-16-2*int64(size), 0)
		if excess > 16<<10 {
			return 0, ErrChunk
		}
		if size == 0 {
			break
		}
		if int64(len(body))+int64(size) > maxBody {
			r.chunks = body
			return 0, ErrBodyTooLarge
		}
		n := int(size)
		switch rest := len(buf) - i; {
		case rest <= n:
			r.chunks = body
			return 0, ErrIncomplete
		case buf[i+n] != '\r':
			return 0, ErrChunk
		case rest == n+1:
			r.chunks = body
			return 0, ErrIncomplete
		case buf[i+n+1] != '\n':
			return 0, ErrChunk
		}
		body = append(body, buf[i:i+n]...)
		i += n + 2
	}
	r.chunks = body
	r.Body = body
	// The trailer section: header fields up to an empty line.
	start := i
	for {
		if i-start > maxTrailerBytes {
			return 0, ErrHeaderTooLarge
		}
		nl := bytes.IndexByte(buf[i:], '\n')
		if nl < 0 {
			if len(buf)-start > maxTrailerBytes {
				return 0, ErrHeaderTooLarge
			}
			return 0, ErrIncomplete
		}
		line := buf[i : i+nl]
		i += nl + 1
		if len(line) == 0 || line[len(line)-1] != '\r' {
			return 0, ErrTrailer
		}
		line = line[:len(line)-1]
		if len(line) == 0 {
			if i-start > maxTrailerBytes {
				return 0, ErrHeaderTooLarge
			}
			return i, nil
		}
		if _, err := parseField(line); err != nil {
			return 0, err
		}
	}
}

func parseHex(v []byte) (uint64, bool) {
	if len(v) == 0 || len(v) > 16 {
		return 0, false
	}
	var n uint64
	for _, c := range v {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		n = n<<4 | uint64(c)
	}
	return n, true
}

// parseUint63 parses a Content-Length as net/http does: digits only, below 2^63.
func parseUint63(v []byte) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	var n uint64
	for _, c := range v {
		if !isDigit(c) {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
		if n >= 1<<63 {
			return 0, false
		}
	}
	return int64(n), true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func trimOWS(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// containsToken reports whether the comma-separated list v has token (lower case),
// ignoring ASCII case.
func containsToken(v []byte, token string) bool {
	for len(v) > 0 {
		elem := v
		if comma := bytes.IndexByte(v, ','); comma >= 0 {
			elem, v = v[:comma], v[comma+1:]
		} else {
			v = nil
		}
		if asciiEqualFold(trimOWS(elem), token) {
			return true
		}
	}
	return false
}

// asciiEqualFold compares b with lower, a lower-case ASCII string, ignoring ASCII case.
func asciiEqualFold(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

func isToken(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !tokenByte(c) {
			return false
		}
	}
	return true
}

// tokenTable marks RFC 9110's tchar.
var tokenTable = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()

func tokenByte(c byte) bool { return tokenTable[c] }
