package httpparse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
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
	"POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-T: 1\r\n\r\n",
	"POST /p HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
	"POST /p HTTP/1.0\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\nab",
	"GET / HTTP/1.1\nHost: a\n\n",
	"GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",
	"GET / HTTP/1.1\r\nHost : a\r\n\r\n",
	"GET / HTTP/2.0\r\n\r\n",
	"GET http://example.com/x HTTP/1.1\r\nHost: b\r\n\r\n",
	"CONNECT example.com:443 HTTP/1.1\r\n\r\n",
	"OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
	"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx",
	"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx",
	"GET / HTTP/1.1\r\nHost: a\r\nPragma: no-cache\r\n\r\nGET / HTTP/1.1\r\n\r\n",
	"GET /%zz HTTP/1.1\r\n\r\n",
}

// FuzzParse holds Parse to net/http's ReadRequest (reading the body too): for input that
// ReadRequest accepts, Parse must accept it, consume the same bytes and agree on the
// method, target, version, headers, Host, framing, keep-alive and body; for input that
// Parse accepts, ReadRequest must accept it — except for the deliberate differences of
// the package documentation. It also feeds the input a byte at a time to one Parser, which
// must decide as it does on the whole input.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		p := Parser{MaxHeaderBytes: 1 << 30, MaxBodyBytes: 1 << 40}
		var r Request
		n, err := p.Parse(in, &r)
		checkSplit(t, in, n, err)

		req, body, consumed, gerr := readRequest(in)
		switch {
		case gerr == nil && err == nil:
			compare(t, in, &r, n, req, body, consumed)
		case gerr == nil && err != nil:
			if err == ErrObsFold || err == ErrHeaderName || err == ErrVersion || err == ErrTrailer {
				return // deliberate differences
			}
			if r.Chunked && err != ErrIncomplete && strings.Contains(string(in), "\r\n0") && errors.Is(err, ErrHeaderTooLarge) {
				return // a long trailer
			}
			t.Fatalf("ReadRequest accepts %q, Parse fails: %v", in, err)
		case gerr != nil && err == nil:
			var ue *url.Error
			if errors.As(gerr, &ue) {
				return // Parse does not parse the target as a URL
			}
			if strings.Contains(gerr.Error(), "suspiciously long trailer") {
				return
			}
			t.Fatalf("Parse accepts %q (n=%d), ReadRequest fails: %v", in, n, gerr)
		}
	})
}

// readRequest is the reference: ReadRequest, then the whole body, and how many bytes of
// in they took.
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
	return req, body, len(in) - br.Buffered() - src.Len(), nil
}

func compare(t *testing.T, in []byte, r *Request, n int, req *http.Request, body []byte, consumed int) {
	t.Helper()
	fail := func(what string, got, want any) {
		t.Fatalf("%q: %s: Parse %v, ReadRequest %v", in, what, got, want)
	}
	if n != consumed {
		fail("length", n, consumed)
	}
	if string(r.Method) != req.Method {
		fail("method", string(r.Method), req.Method)
	}
	if string(r.Target) != req.RequestURI {
		fail("target", string(r.Target), req.RequestURI)
	}
	if req.ProtoMajor != 1 || r.Minor != req.ProtoMinor {
		fail("version", r.Minor, req.Proto)
	}
	if r.KeepAlive == req.Close {
		fail("keep-alive", r.KeepAlive, !req.Close)
	}
	if r.Chunked != (len(req.TransferEncoding) > 0) {
		fail("chunked", r.Chunked, req.TransferEncoding)
	}
	if r.ContentLength != req.ContentLength {
		fail("content length", r.ContentLength, req.ContentLength)
	}
	if !bytes.Equal(r.Body, body) {
		fail("body", r.Body, body)
	}
	if req.URL.Host == "" && string(r.Host) != req.Host { // ReadRequest prefers the target's host
		fail("host", string(r.Host), req.Host)
	}
	// The headers, as net/http keeps them: by canonical name, Host and Transfer-Encoding removed,
	// Content-Length deduplicated (compared above), Pragma: no-cache implying Cache-Control.
	got := http.Header{}
	for _, h := range r.Headers {
		got.Add(string(h.Name), string(h.Value))
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

// checkSplit feeds in a byte at a time (the first 4 KiB; larger inputs in 7 pieces) to one
// Parser, which must report ErrIncomplete until it decides, and decide as on all of in.
func checkSplit(t *testing.T, in []byte, wantN int, wantErr error) {
	t.Helper()
	p := Parser{MaxHeaderBytes: 1 << 30, MaxBodyBytes: 1 << 40}
	var r Request
	step := 1
	if len(in) > 4096 {
		step = len(in)/7 + 1
	}
	for k := 0; k < len(in); k += step {
		n, err := p.Parse(in[:k], &r)
		if err == ErrIncomplete {
			continue
		}
		if n != wantN || err != wantErr {
			t.Fatalf("%q: on the first %d bytes Parse = %d, %v; on all %d bytes %d, %v", in, k, n, err, len(in), wantN, wantErr)
		}
		return
	}
	n, err := p.Parse(in, &r)
	if n != wantN || err != wantErr {
		t.Fatalf("%q: resumed Parse = %d, %v; fresh %d, %v", in, n, err, wantN, wantErr)
	}
}
