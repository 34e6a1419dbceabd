package http1

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// TestEOFMidRequestAnswers400: a client that ends its side with a request cut short (in
// its head, in a Content-Length body, in a chunk, in the trailer section) gets 400 and the
// connection closes, as node v20's server answers (its parser's finish() fails with
// HPE_INVALID_EOF_STATE: "400 Bad Request", then close); a response the handler already
// began is not followed by a 400 (the connection closes). Responses to the whole requests
// before the cut one go out first. The server closed the connection without a word. Empty
// lines before the end are not a request: no answer.
func TestEOFMidRequestAnswers400(t *testing.T) {
	const h = "Host: x\r\n"
	tests := []struct {
		name, send string
		want       string // the statuses, in order
	}{
		{"in the request line", "GET / HT", "400"},
		{"in the head", "GET / HTTP/1.1\r\n" + h + "X-A: b", "400"},
		{"after a whole request", "GET /a HTTP/1.1\r\n" + h + "\r\nGET /b HTTP/1.1\r\n" + h, "200 400"},
		{"in a Content-Length body", "POST / HTTP/1.1\r\n" + h + "Content-Length: 10\r\n\r\nabc", "400"},
		{"in a chunk", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n5\r\nab", "400"},
		{"in the trailers", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n0\r\nX-T: 1\r\n", "400"},
		{"response begun", "POST /stream HTTP/1.1\r\n" + h + "Content-Length: 10\r\n\r\nabc", "200"},
		{"empty lines", "\r\n\r\n", ""},
	}
	handler := HandlerFunc(func(w *Response, r *Request) {
		if string(r.Target) == "/stream" {
			w.WriteString("begun")
		}
		r.OnBody(nil, func(err error) {
			if err == nil {
				w.EndString("ok")
			}
		})
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			modesRun(t, func(t *testing.T, lopts []uvloop.Option) string {
				ts := startServerOn(t, lopts, handler, KeepAliveTimeout(200*time.Millisecond))
				c, _ := ts.dial()
				c.Write([]byte(tt.send))
				c.(*net.TCPConn).CloseWrite()
				got := readAllRaw(c)
				var statuses []string
				for _, part := range strings.Split(got, "HTTP/1.1 ")[1:] {
					statuses = append(statuses, part[:3])
				}
				if s := strings.Join(statuses, " "); s != tt.want || !strings.HasSuffix(got, "<EOF>") {
					t.Errorf("got statuses %q, end %q; want %q then EOF\n%q", s, got[strings.LastIndex(got, "<"):], tt.want, got)
				}
				return got
			})
		})
	}
}

// TestRefusedMidBodyCallsOnClose: a request whose body is cut short, by the end of the
// client's stream or by RequestTimeout, with its handler's response not begun: the server
// answers 400 (408) and closes, and the response's OnClose runs, as its documentation says
// ("the client went away, a timeout"), after the body's end callback with the error. It did
// not run on the timeout: the refusal marked the response ended.
func TestRefusedMidBodyCallsOnClose(t *testing.T) {
	for _, tt := range []struct {
		name   string
		eof    bool
		status string
	}{{"eof", true, "400"}, {"request timeout", false, "408"}} {
		t.Run(tt.name, func(t *testing.T) {
			modesRun(t, func(t *testing.T, lopts []uvloop.Option) string {
				calls := make(chan string, 4)
				h := HandlerFunc(func(w *Response, r *Request) {
					w.OnClose(func() { calls <- "close" })
					r.OnBody(nil, func(err error) { calls <- "end " + errName(err) })
				})
				ts := startServerOn(t, lopts, h, RequestTimeout(100*time.Millisecond), KeepAliveTimeout(200*time.Millisecond))
				c, _ := ts.dial()
				c.Write([]byte("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc"))
				if tt.eof {
					c.(*net.TCPConn).CloseWrite()
				}
				got := readAllRaw(c)
				if !strings.HasPrefix(got, "HTTP/1.1 "+tt.status+" ") || !strings.HasSuffix(got, "<EOF>") {
					t.Errorf("got %q, want %s then EOF", got, tt.status)
				}
				ts.on(func() {}) // the close callbacks have run
				close(calls)
				var log []string
				for s := range calls {
					log = append(log, s)
				}
				if l := strings.Join(log, ", "); l != "end error, close" {
					t.Errorf("handler saw %q, want %q", l, "end error, close")
				}
				return got + "\n" + strings.Join(log, ", ")
			})
		})
	}
}

func errName(err error) string {
	if err == nil {
		return "nil"
	}
	return "error"
}
