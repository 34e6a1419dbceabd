package http1

import (
	"errors"
	"strings"
	"testing"
)

// parseResponses feeds in to a response-mode parser in pieces of size step (0: at once)
// and returns what it saw, one line per event.
func parseResponses(t *testing.T, method, in string, step int, eof bool) (string, error) {
	t.Helper()
	var p Parser
	p.MaxBodySize = -1
	p.ExpectResponse(method)
	var sb strings.Builder
	data := []byte(in)
	for len(data) > 0 || step >= 0 {
		n := len(data)
		if step > 0 && step < n {
			n = step
		}
		piece := data[:n]
		data = data[n:]
		for {
			k, ev, err := p.Parse(piece)
			if err != nil {
				return sb.String(), err
			}
			piece = piece[k:]
			switch ev {
			case EventHead:
				h := p.Response()
				sb.WriteString("head " + itoa(h.Status) + " " + string(h.Reason))
				for _, f := range h.Headers {
					sb.WriteString(" " + string(f.Name) + "=" + string(f.Value))
				}
				if h.KeepAlive {
					sb.WriteString(" keep")
				}
				if h.Upgrade {
					sb.WriteString(" upgrade")
				}
				sb.WriteString("\n")
			case EventBody:
				sb.WriteString("body " + string(p.Body()) + "\n")
			case EventEnd:
				sb.WriteString("end\n")
				p.ExpectResponse(method)
			}
			if ev == EventNone {
				break
			}
		}
		if len(data) == 0 {
			break
		}
	}
	if eof {
		ev, err := p.Finish()
		if err != nil {
			return sb.String(), err
		}
		if ev == EventEnd {
			sb.WriteString("end\n")
		}
	}
	return sb.String(), nil
}

func itoa(n int) string { return string(appendInt(nil, int64(n), 10)) }

// joinBodies merges consecutive body lines, which depend on how the input was split.
func joinBodies(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "body ") && len(out) > 0 && strings.HasPrefix(out[len(out)-1], "body ") {
			out[len(out)-1] += l[5:]
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func TestResponseParser(t *testing.T) {
	tests := []struct {
		name, method, in string
		eof              bool
		want             string
		err              error
	}{
		{name: "length", method: "GET", in: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
			want: "head 200 OK Content-Length=5 keep\nbody hello\nend\n"},
		{name: "chunked with trailer", method: "GET", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\nT: v\r\n\r\n",
			want: "head 200 OK Transfer-Encoding=chunked keep\nbody abcde\nend\n"},
		{name: "until close", method: "GET", in: "HTTP/1.1 200 OK\r\n\r\nabc", eof: true,
			want: "head 200 OK\nbody abc\nend\n"},
		{name: "1.0 keep-alive", method: "GET", in: "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n",
			want: "head 200 OK Connection=keep-alive Content-Length=0 keep\nend\n"},
		{name: "close", method: "GET", in: "HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx",
			want: "head 404 Not Found Connection=close Content-Length=1\nbody x\nend\n"},
		{name: "HEAD has no body", method: "HEAD", in: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
			want: "head 200 OK Content-Length=5 keep\nend\n"},
		{name: "204 and 304", method: "GET", in: "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n",
			want: "head 204 No Content keep\nend\nhead 304 Not Modified Content-Length=9 keep\nend\n"},
		{name: "100 then 200", method: "POST", in: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
			want: "head 100 Continue keep\nend\nhead 200 OK Content-Length=2 keep\nbody ok\nend\n"},
		{name: "101", method: "GET", in: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n",
			want: "head 101 Switching Protocols Upgrade=x keep upgrade\nend\n"},
		{name: "empty reason", method: "GET", in: "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n",
			want: "head 200  Content-Length=0 keep\nend\n"},
		{name: "bad status", method: "GET", in: "HTTP/1.1 20x OK\r\n\r\n", err: ErrStatusCode},
		{name: "long status", method: "GET", in: "HTTP/1.1 2000 OK\r\n\r\n", err: ErrStatusCode},
		{name: "not a response", method: "GET", in: "SSH-2.0\r\n", err: ErrNotHTTP},
		{name: "not a response, short", method: "GET", in: "EX", err: ErrNotHTTP},
		{name: "bad version", method: "GET", in: "HTTP/2.0 200 OK\r\n\r\n", err: ErrVersion},
		{name: "overflowing length", method: "GET", in: "HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551621\r\n\r\n", err: ErrContentLength},
		{name: "differing lengths", method: "GET", in: "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", err: ErrDuplicateLength},
		{name: "equal lengths", method: "GET", in: "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx", err: ErrDuplicateLength},
		{name: "chunked and length", method: "GET", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n1\r\nx\r\n0\r\n\r\n", err: ErrFraming},
		{name: "length and identity, no body", method: "GET", in: "HTTP/1.1 204 No Content\r\nContent-Length: 1\r\nTransfer-Encoding: identity\r\n\r\n", err: ErrFraming},
		{name: "cut short", method: "GET", in: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab", eof: true, err: ErrIncomplete},
		{name: "bad chunk", method: "GET", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", err: ErrChunk},
	}
	for _, tt := range tests {
		for _, step := range []int{0, 1, 2, 7} {
			got, err := parseResponses(t, tt.method, tt.in, step, tt.eof)
			if !errors.Is(err, tt.err) {
				t.Errorf("%s (step %d): error %v, want %v", tt.name, step, err, tt.err)
				continue
			}
			if tt.err == nil && joinBodies(got) != joinBodies(tt.want) {
				t.Errorf("%s (step %d):\n got %q\nwant %q", tt.name, step, got, tt.want)
			}
		}
	}
}
