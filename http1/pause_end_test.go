package http1

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestPauseEndsWithBody: a handler pauses the body and resumes only if its end has not been
// read by the next turn; when the end was parsed from the bytes read before the pause, the
// pause must end with the body, so that the next request on the connection is read and
// answered. (The connection stayed paused until the keep-alive timeout closed it.)
func TestPauseEndsWithBody(t *testing.T) {
	ts := startServer(t, HandlerFunc(func(w *Response, r *Request) {
		if string(r.Method) != "POST" {
			w.EndString("next")
			return
		}
		ended := false
		n := 0
		r.PauseBody()
		r.OnBody(func(b []byte) { n += len(b) }, func(err error) {
			ended = true
			w.EndString(strings.Repeat("x", n))
		})
		w.Conn().Server().Loop().SetImmediate(func() {
			if !ended {
				r.ResumeBody()
			}
		})
	}))
	c, br := ts.dial() // (its deadline is the hang guard)
	for i, tt := range []struct{ req, want string }{
		{req: "POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" + strings.Repeat("b", 100), want: strings.Repeat("x", 100)},
		{req: "GET /next HTTP/1.1\r\nHost: x\r\n\r\n", want: "next"},
	} {
		if _, err := io.WriteString(c, tt.req); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("response %d: %v", i, err)
		}
		b, err := io.ReadAll(res.Body)
		if err != nil || string(b) != tt.want {
			t.Fatalf("response %d: %q %v, want %q", i, b, err, tt.want)
		}
	}
}
