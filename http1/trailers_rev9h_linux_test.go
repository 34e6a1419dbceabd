package http1

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/uvloop"
)

// TestParseTrailersNotCarried: a chunked request with trailers, then requests without any
// on the same parser (one with a Content-Length body, one with none, one chunked with an
// empty trailer section): their EventEnd must report no trailers. Parser.Trailers gave the
// first request's trailers to each of them (the list was only refilled by a trailer
// section), and nodehttp's req.rawTrailers of the next request on a keep-alive connection
// showed them (node v20: []).
func TestParseTrailersNotCarried(t *testing.T) {
	in := "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-T: 1\r\n\r\n" +
		"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nxy" +
		"GET / HTTP/1.1\r\nHost: a\r\n\r\n" +
		"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
	var p Parser
	data := []byte(in)
	var got []string
	for len(data) > 0 {
		n, ev, err := p.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		data = data[n:]
		if ev == EventEnd {
			got = append(got, fmt.Sprint(len(p.Trailers())))
		}
	}
	if _, ev, _ := p.Parse(nil); ev == EventEnd {
		got = append(got, fmt.Sprint(len(p.Trailers())))
	}
	if want := "1 0 0 0"; strings.Join(got, " ") != want {
		t.Fatalf("trailers per request: %s, want %s", strings.Join(got, " "), want)
	}
}

// TestServerTrailersNotCarried: Request.Trailers in OnBody's end callback of the second
// request on a keep-alive connection (no trailers) reported the first request's trailers.
func TestServerTrailersNotCarried(t *testing.T) {
	h := HandlerFunc(func(w *Response, r *Request) {
		r.OnBody(nil, func(err error) {
			var names []string
			for _, f := range r.Trailers() {
				names = append(names, string(f.Name))
			}
			w.EndString(string(r.Target) + " [" + strings.Join(names, ",") + "]")
		})
	})
	modesRun(t, func(t *testing.T, lopts []uvloop.Option) string {
		ts := startServerOn(t, lopts, h, KeepAliveTimeout(200*time.Millisecond))
		c, _ := ts.dial()
		go c.Write([]byte("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\nX-T: 1\r\n\r\n" +
			"POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nz" +
			"GET /c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
		got := readAllRaw(c)
		for _, want := range []string{"/a [X-T]", "/b []", "/c []"} {
			if !strings.Contains(got, want) {
				t.Errorf("no %q in %q", want, got)
			}
		}
		return got
	})
}

// modesRun is diffRun over looptest.Modes: epoll and io_uring, each also with an OS thread
// of the loop's own.
func modesRun(t *testing.T, scenario func(t *testing.T, lopts []uvloop.Option) string) {
	t.Helper()
	var ref string
	for i, m := range looptest.Modes {
		var got string
		if !t.Run(m.Name, func(t *testing.T) { got = scenario(t, m.Opts) }) {
			continue
		}
		if i == 0 {
			ref = got
			continue
		}
		if got != ref {
			t.Errorf("%s differs from %s:\n--- %s\n%s\n--- %s\n%s", m.Name, looptest.Modes[0].Name, looptest.Modes[0].Name, clip(ref), m.Name, clip(got))
		}
	}
}
