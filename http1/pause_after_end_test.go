package http1

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestPauseAfterBodyEnd: PauseBody called once the body's end is in (from the end callback, where a
// body reader that paused and then sees the end might still pause) pauses the connection
// with no end to come that would resume it: the next request on the keep-alive connection
// is never read. In Node, req.pause() after 'end' leaves the socket reading.
func TestPauseAfterBodyEnd(t *testing.T) {
	ts := startServer(t, HandlerFunc(func(w *Response, r *Request) {
		if string(r.Method) != "POST" {
			w.EndString("next")
			return
		}
		n := 0
		r.OnBody(func(b []byte) { n += len(b) }, func(err error) {
			r.PauseBody() // the body is done: nothing more to pause
			w.EndString(strings.Repeat("x", n))
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
