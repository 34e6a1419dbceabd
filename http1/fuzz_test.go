package http1

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	"GET / HTTP/1.1\r\nHost: a\r\n\r\n",
	"GET / HTTP/1.0\r\n\r\n",
	"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
	"GET /x?y=1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
	"POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 18446744073709551621\r\n\r\nhello", // wraps to 5 if the check follows the multiply
	"POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 9223372036854775808\r\n\r\nhello",
	"POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 9223372036854775807\r\n\r\nhello",
	"POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-T: 1\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000005\r\nhello\r\n0\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n",
	"POST /p HTTP/1.0\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\nab",
	"GET / HTTP/1.1\nHost: a\n\n",
	"GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",
	"GET / HTTP/1.1\r\nHost : a\r\n\r\n",
	"GET / HTTP/2.0\r\n\r\n",
	"GET http://example.com/x HTTP/1.1\r\nHost: b\r\n\r\n",
	"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
	"OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
	"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx",
	"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx",
	"GET / HTTP/1.1\r\nHost: a\r\nPragma: no-cache\r\n\r\nGET / HTTP/1.1\r\n\r\n",
	"GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
	"\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
	"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
	"GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi",
}

// result is what one request's parse produced, copied out of the parser.
type result struct {
	n         int // bytes consumed up to the request's end or the error
	err       error
	done      bool // EventEnd was seen
	head      bool // EventHead was seen
	method    string
	target    string
	minor     int
	headers   [][2]string
	host      *string
	cl        int64
	chunked   bool
	keepAlive bool
	upgrade   bool
	expect    bool
	body      []byte
	trailers  [][2]string
}

// parsePieces gives in to a fresh Parser cut at cuts, each piece copied into a scratch
// buffer that is scribbled over before the next piece (as a loop's read buffer is), and
// returns what the first request produced.
func parsePieces(t *testing.T, p *Parser, in []byte, cuts []int) result {
	t.Helper()
	var res result
	scratch := make([]byte, len(in))
	prev := 0
	for k := 0; k <= len(cuts); k++ {
		end := len(in)
		if k < len(cuts) {
			end = cuts[k]
		}
		piece := scratch[:end-prev]
		copy(piece, in[prev:end])
		data := piece
		prev = end
		for {
			n, ev, err := p.Parse(data)
			if n < 0 || n > len(data) {
				t.Fatalf("Parse consumed %d of %d bytes", n, len(data))
			}
			res.n += n
			data = data[n:]
			if err != nil {
				res.err = err
				res.n = -1 // where an error is found depends on the pieces
				return res
			}
			switch ev {
			case EventNone:
				if len(data) != 0 {
					t.Fatalf("EventNone with %d bytes left", len(data))
				}
			case EventHead:
				r := p.Request()
				res.head = true
				res.method, res.target, res.minor = string(r.Method), string(r.Target), r.Minor
				for _, h := range r.Headers {
					res.headers = append(res.headers, [2]string{string(h.Name), string(h.Value)})
				}
				if r.Host != nil {
					h := string(r.Host)
					res.host = &h
				}
				res.cl, res.chunked, res.keepAlive = r.ContentLength, r.Chunked, r.KeepAlive
				res.upgrade, res.expect = r.Upgrade, r.Expect100
			case EventBody:
				res.body = append(res.body, p.Body()...)
			case EventEnd:
				for _, h := range p.Trailers() {
					res.trailers = append(res.trailers, [2]string{string(h.Name), string(h.Value)})
				}
				res.done = true
				return res
			}
			if ev == EventNone {
				break
			}
		}
		for i := range piece {
			piece[i] = 0xA5
		}
	}
	return res
}

func sameResult(a, b result) bool {
	return a.n == b.n && a.err == b.err && a.done == b.done && a.head == b.head &&
		a.method == b.method && a.target == b.target && a.minor == b.minor &&
		slices.Equal(a.headers, b.headers) && (a.host == nil) == (b.host == nil) &&
		(a.host == nil || *a.host == *b.host) && a.cl == b.cl && a.chunked == b.chunked &&
		a.keepAlive == b.keepAlive && a.upgrade == b.upgrade && a.expect == b.expect &&
		bytes.Equal(a.body, b.body) && slices.Equal(a.trailers, b.trailers)
}

func newFuzzParser() *Parser {
	return &Parser{MaxHeaderSize: 1 << 20, MaxRequestLineSize: 1 << 20, MaxBodySize: -1}
}

// FuzzParse parses the input whole, a byte at a time and cut at random places (the state
// kept across the pieces), which must all agree; then holds the outcome to net/http's
// ReadRequest (reading the body too). When both accept, they must agree on the bytes
// consumed, the method, target, version, headers, framing, keep-alive and body. When only
// one accepts, the difference must be one the package documentation lists.
func FuzzParse(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add([]byte(s), uint64(i))
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64) {
		whole := parsePieces(t, newFuzzParser(), in, nil)
		rng := rand.New(rand.NewPCG(seed, seed>>7))
		var cuts []int
		for c := 0; len(in) > 1; {
			c += 1 + rng.IntN(max(len(in)/4, 1))
			if c >= len(in) {
				break
			}
			cuts = append(cuts, c)
		}
		if split := parsePieces(t, newFuzzParser(), in, cuts); !sameResult(whole, split) {
			t.Fatalf("%q cut at %v:\n%+v\nwhole:\n%+v", in, cuts, split, whole)
		}
		if len(in) <= 2048 {
			bytewise := make([]int, 0, len(in))
			for i := 1; i < len(in); i++ {
				bytewise = append(bytewise, i)
			}
			if split := parsePieces(t, newFuzzParser(), in, bytewise); !sameResult(whole, split) {
				t.Fatalf("%q a byte at a time:\n%+v\nwhole:\n%+v", in, split, whole)
			}
		}
		compareReference(t, in, whole)
	})
}

// compareReference holds res (the parse of in) to net/http's ReadRequest.
func compareReference(t *testing.T, in []byte, res result) {
	// Empty lines (CRLF, or a bare LF) before the request line are skipped (RFC 9112
	// section 2.2); ReadRequest refuses them.
	lead := 0
	for {
		if lead+1 < len(in) && in[lead] == '\r' && in[lead+1] == '\n' {
			lead += 2
		} else if lead < len(in) && in[lead] == '\n' {
			lead++
		} else {
			break
		}
	}
	req, body, consumed, gerr := readRequest(in[lead:])
	consumed += lead
	accepted := res.err == nil && res.done
	switch {
	case !accepted && res.err == nil:
		// Incomplete: ReadRequest must not have read a whole request either, unless the
		// input ends in the middle of what would be a trailer section.
		if gerr == nil && !res.chunked {
			t.Fatalf("%q: ReadRequest accepts, Parse wants more (consumed %d)", in, res.n)
		}
	case gerr == nil && accepted:
		compare(t, in, res, req, body, consumed)
	case gerr == nil:
		if deliberate(in[lead:], res, req) {
			return
		}
		t.Fatalf("ReadRequest accepts %q, Parse fails: %v", in, res.err)
	case accepted:
		var ue *url.Error
		if errors.As(gerr, &ue) || strings.Contains(gerr.Error(), "invalid URI") {
			return // Parse does not parse the target as a URL
		}
		if strings.Contains(gerr.Error(), "too much non-data") || strings.Contains(gerr.Error(), "suspiciously long trailer") {
			return // net/http's chunked reader limits the framing overhead
		}
		t.Fatalf("Parse accepts %q (n=%d), ReadRequest fails: %v", in, res.n, gerr)
	}
}

// deliberate reports whether Parse refusing what ReadRequest accepts is one of the
// documented differences.
func deliberate(in []byte, res result, req *http.Request) bool {
	switch res.err {
	case ErrObsFold, ErrVersion, ErrHost, ErrFraming, ErrExpectation, ErrTransferEncoding:
		return true
	case ErrLineEnd, ErrHeaderValue, ErrHeaderName, ErrChunk, ErrRequestLine, ErrTarget, ErrMethod:
		// Strict line ends and field bytes: a bare LF, or a CR or control byte where
		// ReadRequest takes it (textproto trims and accepts more than RFC 9110).
		if hasBareLF(in) || hasCTL(in) {
			return true
		}
		if res.err == ErrHeaderName && hasBadName(in) {
			return true // RFC 9110 section 5.1: a field name is a token
		}
		if (res.err == ErrTarget || res.err == ErrRequestLine) && emptyTarget(in) {
			return true // RFC 9112 section 3: one SP apart, and the target is not empty
		}
	case ErrContentLength:
		// "Content-Length: 1" and "Content-Length: 01" twice: ReadRequest compares
		// the values trimmed; so does Parse (field values are trimmed), but
		// net/http also accepts repeated values it parses equal.
		return true
	}
	if res.head && res.chunked && bytes.Equal(res.body, mustBody(req)) {
		return true // the trailer section: Parse wants CRLF lines and valid fields
	}
	return false
}

// emptyTarget reports whether in's request line has an empty request-target or separators
// of more than one SP ("CONNECT  HTTP/1.1"), which ReadRequest accepts for CONNECT.
func emptyTarget(in []byte) bool {
	line, _, _ := bytes.Cut(in, []byte("\r\n"))
	return bytes.Contains(line, []byte("  ")) || bytes.HasPrefix(line, []byte(" "))
}

func mustBody(req *http.Request) []byte {
	b, _ := io.ReadAll(req.Body)
	return b
}

// hasBadName reports whether a field line of in's head has a name that is not a token
// (ReadRequest keeps such a field under its raw name).
func hasBadName(in []byte) bool {
	head, _, _ := bytes.Cut(in, []byte("\r\n\r\n"))
	lines := bytes.Split(head, []byte("\r\n"))
	for _, l := range lines[1:] {
		name, _, ok := bytes.Cut(l, []byte(":"))
		if ok && !isToken(name) {
			return true
		}
	}
	return false
}

func hasBareLF(in []byte) bool {
	for i, c := range in {
		if c == '\n' && (i == 0 || in[i-1] != '\r') {
			return true
		}
	}
	return false
}

func hasCTL(in []byte) bool {
	for _, c := range in {
		if c < 0x20 && c != '\r' && c != '\n' || c == 0x7f || c >= 0x80 {
			return true
		}
	}
	return bytes.Contains(in, []byte(" \r")) || bytes.Contains(in, []byte("\r\r"))
}

// readRequest is the reference: ReadRequest, then the whole body, and how many bytes of in
// they took.
func readRequest(in []byte) (req *http.Request, body []byte, consumed int, err error) {
	src := bytes.NewReader(in)
	br := bufio.NewReader(src)
	req, err = http.ReadRequest(br)
	if err != nil {
		return nil, nil, 0, err
	}
	body, err = io.ReadAll(req.Body)
	if err != nil {
		return nil, nil, 0, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	return req, body, len(in) - br.Buffered() - src.Len(), nil
}

func compare(t *testing.T, in []byte, r result, req *http.Request, body []byte, consumed int) {
	t.Helper()
	fail := func(what string, got, want any) {
		t.Fatalf("%q: %s: Parse %v, ReadRequest %v", in, what, got, want)
	}
	if r.n != consumed {
		fail("length", r.n, consumed)
	}
	if r.method != req.Method {
		fail("method", r.method, req.Method)
	}
	if r.target != req.RequestURI {
		fail("target", r.target, req.RequestURI)
	}
	if req.ProtoMajor != 1 || r.minor != req.ProtoMinor {
		fail("version", r.minor, req.Proto)
	}
	if r.keepAlive == req.Close {
		fail("keep-alive", r.keepAlive, !req.Close)
	}
	if r.chunked != (len(req.TransferEncoding) > 0) {
		fail("chunked", r.chunked, req.TransferEncoding)
	}
	if r.cl != req.ContentLength {
		fail("content length", r.cl, req.ContentLength)
	}
	if !bytes.Equal(r.body, body) {
		fail("body", r.body, body)
	}
	if req.URL.Host == "" && (r.host == nil && req.Host != "" || r.host != nil && *r.host != req.Host) {
		fail("host", r.host, req.Host)
	}
	// The headers, as net/http keeps them: by canonical name, Host and Transfer-Encoding
	// removed, Content-Length deduplicated (compared above), Pragma: no-cache implying
	// Cache-Control.
	got := http.Header{}
	for _, h := range r.headers {
		got.Add(h[0], h[1])
	}
	if hp := got["Pragma"]; len(hp) > 0 && hp[0] == "no-cache" && got["Cache-Control"] == nil {
		got["Cache-Control"] = []string{"no-cache"}
	}
	want := req.Header.Clone()
	for _, h := range []http.Header{got, want} {
		delete(h, "Host")
		delete(h, "Transfer-Encoding")
		delete(h, "Content-Length")
	}
	if len(got) != len(want) {
		fail("headers", got, want)
	}
	for k, v := range want {
		if !slices.Equal(got[k], v) {
			fail("header "+k, got[k], v)
		}
	}
}
