package http1

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// FuzzParseResponse feeds a response-mode parser (a client's, reading what a server, maybe
// a hostile one, sends) any bytes: whole, and in pieces of every size the input's first
// byte picks. It must not panic, it must report the same heads, bodies, ends and error
// however the bytes are split (the parser examines each byte once), the bodies it reports
// must come from the input (in order), and an error must be one of the package's.
func FuzzParseResponse(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\nT: v\r\n\r\n",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
		"HTTP/1.0 200 OK\r\n\r\nuntil close",
		"HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\nraw",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
		"HTTP/1.1 2OO OK\r\n\r\n",
		"SSH-2.0\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n",
	} {
		f.Add([]byte(s), byte(1), false)
		f.Add([]byte(s), byte(7), true)
	}
	f.Fuzz(func(t *testing.T, in []byte, step byte, head bool) {
		if len(in) > 1<<16 {
			return
		}
		method := "GET"
		if head {
			method = "HEAD"
		}
		whole, werr := responseEvents(method, in, 0)
		pieces, perr := responseEvents(method, in, int(step%16)+1)
		if werr != perr {
			t.Fatalf("%q: whole: error %v, in pieces of %d: %v", in, werr, step%16+1, perr)
		}
		if !slices.Equal(whole, pieces) {
			t.Fatalf("%q: whole:\n%q\nin pieces of %d:\n%q", in, whole, step%16+1, pieces)
		}
		if werr != nil {
			var he *Error
			if !errors.As(werr, &he) {
				t.Fatalf("%q: error %v is not an *http1.Error", in, werr)
			}
		}
		for _, e := range whole {
			if b, ok := strings.CutPrefix(e, "body "); ok && !subsequence(b, string(in)) {
				t.Fatalf("%q: body %q is not in the input", in, b)
			}
		}
	})
}

// responseEvents parses in as parseResponses does (pieces of step bytes, 0 for all at
// once; the stream's end after it), and returns the events: each head with its fields, each
// message's body bytes together, each end.
func responseEvents(method string, in []byte, step int) ([]string, error) {
	var p Parser
	p.MaxBodySize = -1
	p.ExpectResponse(method)
	var evs []string
	var body []byte
	flush := func() {
		if body != nil {
			evs = append(evs, "body "+string(body))
			body = nil
		}
	}
	for data := in; len(data) > 0; {
		n := len(data)
		if step > 0 && step < n {
			n = step
		}
		piece := data[:n]
		data = data[n:]
		for len(piece) > 0 {
			k, ev, err := p.Parse(piece)
			if err != nil {
				flush()
				return evs, err
			}
			piece = piece[k:]
			switch ev {
			case EventHead:
				h := p.Response()
				e := "head " + itoa(h.Status) + " " + string(h.Reason)
				for _, f := range h.Headers {
					e += "|" + string(f.Name) + "=" + string(f.Value)
				}
				evs = append(evs, e)
			case EventBody:
				body = append(body, p.Body()...)
			case EventEnd:
				flush()
				evs = append(evs, "end")
				p.ExpectResponse(method)
			}
			if ev == EventNone {
				break
			}
		}
	}
	ev, err := p.Finish()
	flush()
	if ev == EventEnd {
		evs = append(evs, "end")
	}
	return evs, err
}

// subsequence reports whether the bytes of b appear in s in order (a chunked body's pieces
// are apart in the input).
func subsequence(b, s string) bool {
	for i := 0; i < len(b); i++ {
		j := strings.IndexByte(s, b[i])
		if j < 0 {
			return false
		}
		s = s[j+1:]
	}
	return true
}
