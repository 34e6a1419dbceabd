package main

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/http1"
	"github.com/uvgo/uvgo/uvloop"
	"go.uber.org/goleak"
	"golang.org/x/sys/unix"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func start(t *testing.T, loops int) *Server {
	t.Helper()
	s, err := Serve("127.0.0.1:0", loops)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

func dial(t *testing.T, s *Server) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", s.Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	return c, bufio.NewReader(c)
}

const get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"

// expect reads a response and checks its status, body and whether the server closes.
func expect(t *testing.T, br *bufio.Reader, status int, body string, closes bool) {
	t.Helper()
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != status || string(b) != body {
		t.Fatalf("got %d %q, want %d %q", resp.StatusCode, b, status, body)
	}
	if status == 200 && (resp.Header.Get("Content-Type") != "text/plain" || resp.Header.Get("Date") == "") {
		t.Fatalf("headers %v", resp.Header)
	}
	if closes {
		if !resp.Close {
			t.Fatal("the response does not say Connection: close")
		}
		if n, err := br.ReadByte(); err != io.EOF {
			t.Fatalf("after the last response: %v, %v; want EOF", n, err)
		}
	}
}

func TestPipelining(t *testing.T) {
	s := start(t, 1)
	c, br := dial(t, s)
	const n = 500
	if _, err := c.Write([]byte(strings.Repeat(get, n))); err != nil {
		t.Fatal(err)
	}
	for range n {
		expect(t, br, 200, "Hello, World!", false)
	}
	// Mixed: a body, a HEAD, a 404, a 405, then Connection: close ends it.
	reqs := "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello" +
		"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n" +
		"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n" +
		"GET /nope HTTP/1.1\r\nHost: x\r\n\r\n" +
		get +
		"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" +
		get // never answered
	if _, err := c.Write([]byte(reqs)); err != nil {
		t.Fatal(err)
	}
	expect(t, br, 405, "", false)
	expect(t, br, 405, "", false)
	resp, err := http.ReadResponse(br, &http.Request{Method: "HEAD"})
	if err != nil || resp.StatusCode != 200 || resp.ContentLength != 13 {
		t.Fatalf("HEAD: %v, %v", resp, err)
	}
	expect(t, br, 404, "", false)
	expect(t, br, 200, "Hello, World!", false)
	expect(t, br, 200, "Hello, World!", true)
}

// TestSplit sends requests in pieces: a byte at a time, and cut at every offset of a pair.
func TestSplit(t *testing.T) {
	s := start(t, 1)
	c, br := dial(t, s)
	c.(*net.TCPConn).SetNoDelay(true)
	req := "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
	for i := range len(req) {
		if _, err := c.Write([]byte(req[i : i+1])); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Microsecond)
	}
	expect(t, br, 405, "", false)
	pair := get + "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
	for cut := 1; cut < len(pair); cut++ {
		c.Write([]byte(pair[:cut]))
		time.Sleep(100 * time.Microsecond)
		c.Write([]byte(pair[cut:]))
		expect(t, br, 200, "Hello, World!", false)
		expect(t, br, 200, "Hello, World!", false)
	}
}

func TestKeepAlive(t *testing.T) {
	s := start(t, 1)
	c, br := dial(t, s)
	for range 2000 {
		if _, err := c.Write([]byte(get)); err != nil {
			t.Fatal(err)
		}
		expect(t, br, 200, "Hello, World!", false)
	}
	if got := s.Requests()[0]; got != 2000 {
		t.Fatalf("%d requests counted, want 2000", got)
	}
	// net/http's client reuses the connection.
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	for range 100 {
		resp, err := client.Get("http://" + s.Addr.String() + "/")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != "Hello, World!" {
			t.Fatalf("body %q", b)
		}
	}
}

func TestHTTP10(t *testing.T) {
	s := start(t, 1)
	c, br := dial(t, s)
	c.Write([]byte("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET / HTTP/1.0\r\n\r\n"))
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.Header.Get("Connection") != "keep-alive" {
		t.Fatalf("%v, %v", resp, err)
	}
	io.ReadAll(resp.Body)
	expect(t, br, 200, "Hello, World!", true)
}

func TestRefused(t *testing.T) {
	s := start(t, 1)
	tests := []struct {
		name   string
		req    string
		status int
	}{
		{name: "garbage", req: "hello\r\n\r\n", status: 400},
		{name: "bad method", req: "G(T / HTTP/1.1\r\nHost: x\r\n\r\n", status: 400},
		{name: "no Host", req: "GET / HTTP/1.1\r\n\r\n", status: 400},
		{name: "two Hosts", req: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400},
		{name: "bad header", req: "GET / HTTP/1.1\r\nHost: x\r\nNo colon\r\n\r\n", status: 400},
		{name: "folded header", req: "GET / HTTP/1.1\r\nHost: x\r\nA: b\r\n c\r\n\r\n", status: 400},
		{name: "bad Content-Length", req: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", status: 400},
		{name: "bad chunk", req: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", status: 400},
		{name: "body too large", req: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", status: 413},
		{name: "chunk too large", req: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n200000\r\n", status: 413},
		{name: "header too large", req: "GET / HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("a", 20000) + "\r\n\r\n", status: 431},
		{name: "gzip", req: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", status: 501},
		{name: "HTTP/2.0", req: "GET / HTTP/2.0\r\n\r\n", status: 505},
		{name: "after a good one", req: get + "BAD\r\n\r\n", status: 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, br := dial(t, s)
			if _, err := c.Write([]byte(tt.req)); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(tt.req, get) {
				expect(t, br, 200, "Hello, World!", false)
			}
			expect(t, br, tt.status, "", true)
		})
	}
}

// TestLoops serves with two loops on one port: both take connections.
func TestLoops(t *testing.T) {
	s := start(t, 2)
	for range 64 {
		c, br := dial(t, s)
		c.Write([]byte(get))
		expect(t, br, 200, "Hello, World!", false)
		c.Close()
	}
	for i, n := range s.Requests() {
		if n == 0 {
			t.Errorf("loop %d served nothing: %v", i, s.Requests())
		}
	}
}

// TestFds checks that Close leaves no fd behind, with connections still open.
func TestFds(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts /proc/self/fd")
	}
	count := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(ents)
	}
	before := count()
	s, err := Serve("127.0.0.1:0", 2)
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	for range 10 {
		c, err := net.Dial("tcp", s.Addr.String())
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(get))
		br := bufio.NewReader(c)
		expect(t, br, 200, "Hello, World!", false)
		conns = append(conns, c)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range conns {
		c.Close()
	}
	if after := count(); after != before {
		t.Fatalf("%d fds before, %d after", before, after)
	}
}

func TestServeErrors(t *testing.T) {
	for _, tt := range []struct {
		addr  string
		loops int
	}{{"127.0.0.1:0", 0}, {"nonsense", 1}, {"127.0.0.1:99999", 1}} {
		if s, err := Serve(tt.addr, tt.loops); err == nil {
			s.Close()
			t.Errorf("Serve(%q, %d) succeeded", tt.addr, tt.loops)
		}
	}
	// A port in use without SO_REUSEPORT.
	s := start(t, 1)
	if s2, err := Serve(s.Addr.String(), 1); err == nil {
		s2.Close()
		t.Error("a second Serve on the same port succeeded")
	}
}

// pair is a server loop with one connection over a socket pair, driven by the caller
// (RunNoWait), the client side with raw system calls: no socket set-up, no goroutine.
type pair struct {
	loop   *uvloop.Loop
	srv    *http1.Server
	client int
	buf    []byte
}

func newPair(tb testing.TB) *pair {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		tb.Fatal(err)
	}
	loop, err := uvloop.New()
	if err != nil {
		tb.Fatal(err)
	}
	p := &pair{loop: loop, srv: http1.NewServer(loop, hello), client: fds[1], buf: make([]byte, 256<<10)}
	pipe, _ := loop.NewPipe()
	if err := pipe.Open(fds[0]); err != nil {
		tb.Fatal(err)
	}
	if err := p.srv.ServeConn(pipe); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		p.srv.Close(nil)
		loop.Run(uvloop.RunDefault)
		loop.Close()
		unix.Close(fds[1])
	})
	return p
}

// roundTrip writes the requests (in two pieces, cut at cut) and reads until n responses
// have come back.
func (p *pair) roundTrip(tb testing.TB, reqs []byte, cut, n int) {
	for _, part := range [][]byte{reqs[:cut], reqs[cut:]} {
		if _, err := unix.Write(p.client, part); err != nil {
			tb.Fatal(err)
		}
		if _, err := p.loop.Run(uvloop.RunNoWait); err != nil {
			tb.Fatal(err)
		}
	}
	for got := 0; got < n; {
		p.loop.Run(uvloop.RunNoWait)
		k, err := unix.Read(p.client, p.buf)
		if err != nil {
			tb.Fatal(err)
		}
		got += bytes.Count(p.buf[:k], []byte("Hello, World!"))
	}
}

// BenchmarkHandler serves 16 pipelined requests per round, as one read would bring them,
// over a socket pair.
func BenchmarkHandler(b *testing.B) {
	const pipelined = 16
	canned := []byte(strings.Repeat("GET / HTTP/1.1\r\nHost: localhost:8080\r\nUser-Agent: wrk\r\nAccept: */*\r\n\r\n", pipelined))
	p := newPair(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(canned)))
	for b.Loop() {
		p.roundTrip(b, canned, len(canned), pipelined)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*pipelined), "ns/request")
}

func TestHandlerAllocs(t *testing.T) {
	canned := []byte(strings.Repeat(get, 16))
	p := newPair(t)
	half := len(canned)/2 + 7 // split requests are carried by the parser
	p.roundTrip(t, canned, half, 16)
	if n := testing.AllocsPerRun(1000, func() { p.roundTrip(t, canned, half, 16) }); n != 0 {
		t.Fatalf("%v allocations per 16 requests", n)
	}
	if got := p.srv.Requests(); got != 16*1002 {
		t.Fatalf("%d requests", got)
	}
}
