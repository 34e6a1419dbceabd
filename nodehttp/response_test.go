package nodehttp

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nodenet"
)

// line is fmt.Sprintln without the newline.
func line(a ...any) string { return strings.TrimSuffix(fmt.Sprintln(a...), "\n") }

// TestWriteHeadHeaders pins Node's two ways of writeHead's headers (checked with node
// v20): without a setHeader before, they go to the head as they are (repeated names too)
// and getHeader does not see them; after one, each is set as by setHeader. writeHead fixes
// the head, so End's body is chunked, as in Node (TestHeadFixedFramingRev10h compares the
// bytes with node's).
func TestWriteHeadHeaders(t *testing.T) {
	var seen []string
	handlers := []func(*IncomingMessage, *ServerResponse){
		func(req *IncomingMessage, res *ServerResponse) {
			res.WriteHead(200, []string{"Content-Type", "text/plain", "X-Twice", "a", "X-Twice", "b"})
			seen = append(seen, line(res.GetHeader("content-type"), res.GetHeaderNames(), res.HasHeader("x-twice"), res.HeadersSent()))
			res.EndString("ok")
		},
		func(req *IncomingMessage, res *ServerResponse) {
			res.WriteHead(200, map[string]string{"Content-Type": "text/plain"})
			seen = append(seen, line(res.GetHeader("content-type"), res.GetHeaderNames()))
			res.EndString("ok")
		},
		func(req *IncomingMessage, res *ServerResponse) {
			res.SetHeader("X-A", "1")
			res.SetHeader("X-Twice", "old")
			res.WriteHead(200, []string{"Content-Type", "text/plain", "X-Twice", "a", "X-Twice", "b"})
			seen = append(seen, line(res.GetHeader("content-type"), res.GetHeaderNames(), res.GetHeader("x-twice")))
			res.EndString("ok")
		},
		func(req *IncomingMessage, res *ServerResponse) {
			err := res.WriteHead(200, []string{"Bad Name", "x"})
			var ne *nodenet.Error
			errors.As(err, &ne)
			seen = append(seen, line(ne.Code, err, res.HeadersSent()))
			res.WriteHead(200)
			res.EndString("ok")
		},
	}
	i := 0
	h := newHelloPair(t, func(req *IncomingMessage, res *ServerResponse) {
		handlers[i](req, res)
		i++
	})
	defer h.close()
	var heads []string
	for range handlers {
		h.roundTrip([]byte(wrkGet), 1)
		head, _, _ := strings.Cut(string(h.buf), "\r\n\r\n")
		var fields []string
		for _, l := range strings.Split(head, "\r\n")[1:] {
			if !strings.HasPrefix(l, "Date:") {
				fields = append(fields, l)
			}
		}
		heads = append(heads, strings.Join(fields, "|"))
	}
	want := []string{
		"<nil> [] false true",
		"<nil> []",
		"text/plain [x-a x-twice content-type] b",
		`ERR_INVALID_HTTP_TOKEN Header name must be a valid HTTP token ["Bad Name"] false`,
	}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("seen:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
	wantHeads := []string{
		"Content-Type: text/plain|X-Twice: a|X-Twice: b|Connection: keep-alive|Keep-Alive: timeout=5|Transfer-Encoding: chunked",
		"Content-Type: text/plain|Connection: keep-alive|Keep-Alive: timeout=5|Transfer-Encoding: chunked",
		"X-A: 1|X-Twice: b|Content-Type: text/plain|Connection: keep-alive|Keep-Alive: timeout=5|Transfer-Encoding: chunked",
		"Connection: keep-alive|Keep-Alive: timeout=5|Transfer-Encoding: chunked",
	}
	if strings.Join(heads, "\n") != strings.Join(wantHeads, "\n") {
		t.Errorf("heads:\n%s\nwant:\n%s", strings.Join(heads, "\n"), strings.Join(wantHeads, "\n"))
	}
}
