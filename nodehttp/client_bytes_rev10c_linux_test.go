package nodehttp_test

// The bytes nodehttp's client sends for common requests, against node v20's http.request
// with the same options: a raw server records each request (head and body).

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodehttp"
	"github.com/uvgo/uvgo/uvloop"
)

const clientBytesJS = `
const http = require('http');
const port = +process.argv[2];
const cases = [
  (cb) => { const r = http.request({port, host: '127.0.0.1'}, cb); r.end(); },
  (cb) => { const r = http.request({port, host: '127.0.0.1', method: 'POST'}, cb); r.write('abc'); r.end(); },
  (cb) => { const r = http.request({port, host: '127.0.0.1', method: 'POST'}, cb); r.end('abc'); },
  (cb) => { const r = http.request({port, host: '127.0.0.1', method: 'PUT', headers: {'Content-Length': '3'}}, cb); r.end('abc'); },
  (cb) => { const r = http.request({port, host: '127.0.0.1', agent: false}, cb); r.end(); },
  (cb) => { const r = http.request({port, host: '127.0.0.1', method: 'DELETE'}, cb); r.end(); },
  (cb) => { const r = http.request({port, host: '127.0.0.1', method: 'HEAD'}, cb); r.end(); },
  (cb) => { const r = http.request({port, host: '127.0.0.1', headers: {Host: 'example.com', 'X-A': '1'}}, cb); r.end(); },
  (cb) => { const r = http.request({port, host: '127.0.0.1', agent: new http.Agent({keepAlive: false})}, cb); r.end(); },
  (cb) => { const r = http.request({port, host: '127.0.0.1', method: 'POST'}, cb); r.end(); },
  (cb) => { const r = http.request({port, host: '127.0.0.1', method: 'OPTIONS'}, cb); r.end(); },
  (cb) => { const r = http.request({port, host: 'localhost'}, cb); r.end(); },
  (cb) => { const r = http.request({port, host: '127.0.0.1', method: 'POST', headers: {'Transfer-Encoding': 'chunked'}}, cb); r.write('ab'); r.end('c'); },
  (cb) => { const r = http.request({port, host: '127.0.0.1', method: 'POST'}, cb); r.setHeader('X-B', ['1', '2']); r.write(''); r.end(); },
  (cb) => { const r = http.request({port, host: '127.0.0.1', path: '/a?b=c'}, cb); r.end(); },
];
(function next(i) {
  if (i === cases.length) return;
  cases[i]((res) => { res.resume(); res.on('end', () => setTimeout(() => next(i + 1), 10)); });
})(0);
`

// nodeClient runs js (a client of this test's server) under node with args and returns the
// lines it printed; it skips the test when node is missing.
func nodeClient(t *testing.T, js string, args ...string) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on $PATH: the differential test against node v20's http client needs it")
	}
	script := filepath.Join(t.TempDir(), "client.js")
	if err := os.WriteFile(script, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, append([]string{script}, args...)...).Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	if len(out) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(out), "\n"), "\n")
}

// recordRequests serves one request per connection, records it (head and the body its
// framing gives, read for 30 ms at most past the head) and answers 200 with no body.
func recordRequests(t *testing.T) (int, func() []string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	ch := make(chan string, 64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second)) // a deadlock guard
				var got []byte
				buf := make([]byte, 4096)
				for !strings.Contains(string(got), "\r\n\r\n") {
					n, err := c.Read(buf)
					got = append(got, buf[:n]...)
					if err != nil {
						return
					}
				}
				c.SetReadDeadline(time.Now().Add(30 * time.Millisecond)) // the body, if any
				rest, _ := io.ReadAll(bufio.NewReader(c))
				got = append(got, rest...)
				ch <- string(got)
				c.SetDeadline(time.Now().Add(10 * time.Second))
				c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
			}()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	return port, func() []string {
		var out []string
		for {
			select {
			case s := <-ch:
				s = strings.ReplaceAll(s, ":"+strconv.Itoa(port), ":PORT")
				b, _ := json.Marshal(s)
				out = append(out, string(b))
			default:
				return out
			}
		}
	}
}

// TestClientRequestBytesRev10c: each request's bytes, as node sends them.
func TestClientRequestBytesRev10c(t *testing.T) {
	port, drain := recordRequests(t)
	nodeClient(t, clientBytesJS, strconv.Itoa(port))
	want := drain()
	for _, m := range looptest.Modes {
		l, ok := m.New(t)
		if !ok {
			continue
		}
		o := func(method string) nodehttp.RequestOptions {
			return nodehttp.RequestOptions{Port: port, Host: "127.0.0.1", Method: method}
		}
		cases := []func(cb func(*nodehttp.IncomingMessage)){
			func(cb func(*nodehttp.IncomingMessage)) { nodehttp.Request(l, o(""), cb).End(nil) },
			func(cb func(*nodehttp.IncomingMessage)) {
				r := nodehttp.Request(l, o("POST"), cb)
				r.WriteString("abc")
				r.End(nil)
			},
			func(cb func(*nodehttp.IncomingMessage)) { nodehttp.Request(l, o("POST"), cb).EndString("abc") },
			func(cb func(*nodehttp.IncomingMessage)) {
				op := o("PUT")
				op.Headers = []string{"Content-Length", "3"}
				nodehttp.Request(l, op, cb).EndString("abc")
			},
			func(cb func(*nodehttp.IncomingMessage)) {
				op := o("")
				op.NoAgent = true
				nodehttp.Request(l, op, cb).End(nil)
			},
			func(cb func(*nodehttp.IncomingMessage)) { nodehttp.Request(l, o("DELETE"), cb).End(nil) },
			func(cb func(*nodehttp.IncomingMessage)) { nodehttp.Request(l, o("HEAD"), cb).End(nil) },
			func(cb func(*nodehttp.IncomingMessage)) {
				op := o("")
				op.Headers = []string{"Host", "example.com", "X-A", "1"}
				nodehttp.Request(l, op, cb).End(nil)
			},
			func(cb func(*nodehttp.IncomingMessage)) {
				op := o("")
				op.Agent = nodehttp.NewAgent(l, nodehttp.AgentOptions{})
				nodehttp.Request(l, op, cb).End(nil)
			},
			func(cb func(*nodehttp.IncomingMessage)) { nodehttp.Request(l, o("POST"), cb).End(nil) },
			func(cb func(*nodehttp.IncomingMessage)) { nodehttp.Request(l, o("OPTIONS"), cb).End(nil) },
			func(cb func(*nodehttp.IncomingMessage)) {
				op := o("")
				op.Host = "localhost"
				nodehttp.Request(l, op, cb).End(nil)
			},
			func(cb func(*nodehttp.IncomingMessage)) {
				op := o("POST")
				op.Headers = []string{"Transfer-Encoding", "chunked"}
				r := nodehttp.Request(l, op, cb)
				r.WriteString("ab")
				r.EndString("c")
			},
			func(cb func(*nodehttp.IncomingMessage)) {
				r := nodehttp.Request(l, o("POST"), cb)
				r.SetHeader("X-B", []string{"1", "2"})
				r.WriteString("")
				r.End(nil)
			},
			func(cb func(*nodehttp.IncomingMessage)) {
				op := o("")
				op.Path = "/a?b=c"
				nodehttp.Request(l, op, cb).End(nil)
			},
		}
		var next func(i int)
		next = func(i int) {
			if i == len(cases) {
				return
			}
			cases[i](func(res *nodehttp.IncomingMessage) {
				res.Resume()
				res.OnEnd(func() { l.SetTimeout(func() { next(i + 1) }, 10*time.Millisecond) })
			})
		}
		next(0)
		dog := l.SetTimeout(func() { t.Errorf("%s: watchdog: the loop is still alive after 30 s", m.Name); l.Stop() }, 30*time.Second)
		dog.Unref()
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
		l.Walk(func(h uvloop.Handle) { h.Close(nil) })
		l.Run(uvloop.RunDefault)
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		got := drain()
		if len(got) != len(want) {
			t.Errorf("%s: %d requests recorded, node's %d", m.Name, len(got), len(want))
		}
		for i := 0; i < len(got) && i < len(want); i++ {
			if got[i] != want[i] {
				t.Errorf("%s case %d:\n got %s\nwant %s (node)", m.Name, i, got[i], want[i])
			}
		}
	}
}
