package nodehttp_test

import (
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodehttp"
)

// closeTwinJS: /hold is answered when /close comes; /close calls server.close() (and, for
// /close?idle, closeIdleConnections() after it) and answers.
const closeTwinJS = `
const http = require('http');
let held = [];
const s = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/hold') { held.push(res); return; }
    if (req.url.startsWith('/close')) {
      s.close();
      if (req.url === '/close?idle') s.closeIdleConnections();
      for (const h of held) h.end('held');
      held = [];
    }
    res.end(req.url);
  });
});
s.keepAliveTimeout = 200;
s.listen(0, '127.0.0.1', () => process.stdout.write(s.address().port + '\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`

func closeServe(srv **nodehttp.Server) func(*nodehttp.IncomingMessage, *nodehttp.ServerResponse) {
	var held []*nodehttp.ServerResponse
	return func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
		req.Resume()
		req.OnEnd(func() {
			if req.URL == "/hold" {
				held = append(held, res)
				return
			}
			if strings.HasPrefix(req.URL, "/close") {
				(*srv).Close(nil)
				if req.URL == "/close?idle" {
					(*srv).CloseIdleConnections()
				}
				for _, h := range held {
					h.EndString("held")
				}
				held = nil
			}
			res.EndString(req.URL)
		})
	}
}

// closeStates runs the server.close() scenario against port: connections that sent
// nothing, half a head, a request still unanswered (/hold), and one idle after its
// answer; then /close on a fifth. Once the client has read its answer, each of the others
// sends a request with "Connection: close" (the half head its end, the unanswered one once
// its answer came): answered if the server kept the connection, not if it closed it. It
// returns what each connection read.
func closeStates(t *testing.T, port int, closePath string) string {
	t.Helper()
	addr := "127.0.0.1:" + strconv.Itoa(port)
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(10 * time.Second)) // a deadlock guard
		t.Cleanup(func() { c.Close() })
		return c
	}
	readUntil := func(c net.Conn, s string) string {
		var got []byte
		buf := make([]byte, 4096)
		for s == "" || !strings.Contains(string(got), s) {
			n, err := c.Read(buf)
			got = append(got, buf[:n]...)
			switch {
			case err == nil:
			case err == io.EOF || strings.Contains(err.Error(), "reset"):
				return string(got) + "<closed>"
			default:
				return string(got) + "<" + err.Error() + ">"
			}
		}
		return string(got)
	}
	const last = " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
	silent := dial()
	half := dial()
	half.Write([]byte("GET /half HTTP/1.1\r\nHo"))
	hold := dial()
	hold.Write([]byte("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n"))
	idle := dial()
	idle.Write([]byte("GET /idle HTTP/1.1\r\nHost: x\r\n\r\n"))
	idleGot := readUntil(idle, "/idle")
	closer := dial()
	closer.Write([]byte("GET " + closePath + last))
	closerGot := readUntil(closer, closePath)
	silent.Write([]byte("GET /silent" + last))
	half.Write([]byte("st: x\r\nConnection: close\r\n\r\n"))
	idle.Write([]byte("GET /idle2" + last))
	holdGot := readUntil(hold, "held")
	if strings.HasSuffix(holdGot, "held") {
		hold.Write([]byte("GET /after" + last))
	}
	out := []string{
		"silent: " + readUntil(silent, ""),
		"half head: " + readUntil(half, ""),
		"unanswered: " + holdGot + readUntil(hold, ""),
		"idle: " + idleGot + readUntil(idle, ""),
		"closer: " + closerGot + readUntil(closer, ""),
	}
	return rawDateRe.ReplaceAllString(strings.Join(out, "\n"), "")
}

// TestServerCloseStatesRev9h: server.close() (and closeIdleConnections()) with clients in
// each state; each client must read what it reads from node v20.
func TestServerCloseStatesRev9h(t *testing.T) {
	for _, path := range []string{"/close", "/close?idle"} {
		t.Run(path, func(t *testing.T) {
			want := closeStates(t, startNodeTwin(t, closeTwinJS), path)
			for _, m := range looptest.Modes {
				var srv *nodehttp.Server
				port, ok := startRawServerWith(t, m, closeServe(&srv), func(s *nodehttp.Server) { srv = s })
				if !ok {
					continue
				}
				if got := closeStates(t, port, path); got != want {
					t.Errorf("%s:\n got %q\nwant %q (node)", m.Name, got, want)
				}
			}
		})
	}
}
