package http1

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
	"golang.org/x/sys/unix"
)

// pairServer serves h on one end of a socket pair; the test drives the other end with raw
// system calls (the client allocates nothing) and runs the loop by hand.
type pairServer struct {
	t    testing.TB
	loop *uvloop.Loop
	srv  *Server
	fd   int
	buf  []byte
	out  []byte // what the last roundTrip read
}

func newPairServer(t testing.TB, h Handler) *pairServer {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	loop, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(loop, h)
	p, _ := loop.NewPipe()
	if err := p.Open(fds[0]); err != nil {
		t.Fatal(err)
	}
	if err := srv.ServeConn(p); err != nil {
		t.Fatal(err)
	}
	// The client's end does not block: a completion backend may post the request's arrival
	// a loop turn after the write (epoll sees it in the same turn).
	if err := unix.SetNonblock(fds[1], true); err != nil {
		t.Fatal(err)
	}
	return &pairServer{t: t, loop: loop, srv: srv, fd: fds[1], buf: make([]byte, 64<<10), out: make([]byte, 0, 64<<10)}
}

// roundTrip writes in and runs the loop until want responses came back.
func (ps *pairServer) roundTrip(in []byte, want int) {
	if _, err := unix.Write(ps.fd, in); err != nil {
		ps.t.Fatal(err)
	}
	got := 0
	deadline := time.Now().Add(10 * time.Second)
	ps.out = ps.out[:0]
	for got < want {
		if _, err := ps.loop.Run(uvloop.RunNoWait); err != nil {
			ps.t.Fatal(err)
		}
		n, err := unix.Read(ps.fd, ps.buf)
		if err == unix.EAGAIN {
			if time.Now().After(deadline) {
				ps.t.Fatal("no answer in 10 s")
			}
			continue
		}
		if err != nil {
			ps.t.Fatal(err)
		}
		if n == 0 {
			ps.t.Fatal("the server closed the connection")
		}
		ps.out = append(ps.out, ps.buf[:n]...)
		got = bytes.Count(ps.out, []byte("HTTP/1.1 200"))
	}
}

func (ps *pairServer) close() {
	ps.srv.Close(nil)
	ps.loop.Run(uvloop.RunDefault)
	unix.Close(ps.fd)
	if err := ps.loop.Close(); err != nil {
		ps.t.Fatal(err)
	}
}

// netHello is bench/peers/uvnethttp's handler; it allocates three times itself (its two
// header slices and its body).
var netHello = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd["Content-Type"] = []string{"text/plain"}
	hd["Content-Length"] = []string{"13"}
	w.Write([]byte("Hello, World!"))
})

// netHelloNoAlloc answers the same with nothing of its own allocated.
var (
	helloType, helloLength = []string{"text/plain"}, []string{"13"}
	helloBody              = []byte("Hello, World!")
	netHelloNoAlloc        = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd["Content-Type"], hd["Content-Length"] = helloType, helloLength
		w.Write(helloBody)
	})
)

const wrkGet = "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"

// browserGet is a request with a browser's fields, a query and a repeated field.
const browserGet = "GET /search/items?q=uv&page=2 HTTP/1.1\r\nHost: example.com\r\n" +
	"User-Agent: Mozilla/5.0 (X11; Linux x86_64)\r\nAccept: text/html,*/*;q=0.8\r\n" +
	"Accept-Language: en-US,en;q=0.5\r\nAccept-Encoding: gzip, deflate\r\n" +
	"Cookie: a=1\r\ncookie: b=2\r\nConnection: keep-alive\r\nx-custom-thing: yes\r\n\r\n"

// TestFromNetHTTPAllocs pins what FromNetHTTP allocates per request on a keep-alive
// connection: nothing of its own (the request, its header, URL and the writer are reused,
// and the strings repeated from the connection's previous request too), for wrk's request
// and a browser's; the handler's own allocations on top.
func TestFromNetHTTPAllocs(t *testing.T) {
	for _, tt := range []struct {
		name   string
		h      http.Handler
		req    string
		perReq float64
	}{
		{name: "peer hello", h: netHello, req: wrkGet, perReq: 3},
		{name: "hello", h: netHelloNoAlloc, req: wrkGet, perReq: 0},
		{name: "browser", h: netHelloNoAlloc, req: browserGet, perReq: 1}, // the repeated Cookie's second value
	} {
		t.Run(tt.name, func(t *testing.T) {
			ps := newPairServer(t, FromNetHTTP(tt.h))
			defer ps.close()
			in := []byte(tt.req)
			ps.roundTrip(in, 1)
			if n := testing.AllocsPerRun(300, func() { ps.roundTrip(in, 1) }); n > tt.perReq {
				t.Errorf("%v allocations per request, want %v", n, tt.perReq)
			}
			pipelined := []byte(strings.Repeat(tt.req, 4))
			if n := testing.AllocsPerRun(100, func() { ps.roundTrip(pipelined, 4) }); n > 4*tt.perReq {
				t.Errorf("%v allocations per 4 pipelined requests, want %v", n, 4*tt.perReq)
			}
		})
	}
}

// TestFromNetHTTPReuse: a connection's requests share the reused Request, and none sees
// the fields, URL, body or response header of the one before, whatever its handler did
// to them.
func TestFromNetHTTPReuse(t *testing.T) {
	type seen struct {
		method, uri, path, query, host, remote string
		header                                 http.Header
		body                                   string
		cl                                     int64
	}
	var got []seen
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, seen{r.Method, r.RequestURI, r.URL.Path, r.URL.RawQuery, r.Host, r.RemoteAddr,
			r.Header.Clone(), string(b), r.ContentLength})
		r.Header.Set("X-Added", "by the handler")     // must not reach the next request
		r.URL.Path = "/changed"                       // nor this
		w.Header().Set("X-Once", r.Header.Get("X-A")) // nor this the next response
		if r.Header.Get("X-A") == "" {
			w.Header().Del("X-Once")
		}
		w.Write([]byte("ok"))
	})
	ps := newPairServer(t, FromNetHTTP(h))
	defer ps.close()
	ps.roundTrip([]byte("POST /a?x=1 HTTP/1.1\r\nHost: h1\r\nX-A: 1\r\nX-B: 2\r\nX-b: 3\r\nContent-Length: 4\r\n\r\nbody"), 1)
	if !bytes.Contains(ps.out, []byte("X-Once: 1\r\n")) {
		t.Errorf("first response: %q", ps.out)
	}
	ps.roundTrip([]byte("GET /b HTTP/1.1\r\nHost: h2\r\nX-C: 4\r\n\r\n"), 1)
	if bytes.Contains(ps.out, []byte("X-Once")) {
		t.Errorf("second response has the first one's field: %q", ps.out)
	}
	ps.roundTrip([]byte("GET /b HTTP/1.1\r\nHost: h2\r\nX-C: 4\r\n\r\n"), 1)
	want := []seen{
		{"POST", "/a?x=1", "/a", "x=1", "h1", "", http.Header{"X-A": {"1"}, "X-B": {"2", "3"}, "Content-Length": {"4"}}, "body", 4},
		{"GET", "/b", "/b", "", "h2", "", http.Header{"X-C": {"4"}}, "", 0},
		{"GET", "/b", "/b", "", "h2", "", http.Header{"X-C": {"4"}}, "", 0},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

// TestFastRequestURI holds the fast path of the request's URL to url.ParseRequestURI.
func TestFastRequestURI(t *testing.T) {
	targets := []string{"/", "/a/b/c", "/a?b=c&d=e", "/?", "/a?", "/a?b?", "/a??", "/%41", "/a b",
		"/a;b,c:d@e=f+g$h&i", "/a.b-c_d~e", "/a!b", "/(x)", "/*", "/'", "//x", "///x", "/x#y",
		"/é", "/a?é#%zz", "/a?\x7f", "*", "example.com:443", "http://x/y"}
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "/?#%!*()'abcXYZ019-_.~$&+,:;=@ \t\x7f\x80é"
	for range 5000 {
		b := []byte{'/'}
		for range rng.IntN(12) {
			b = append(b, alphabet[rng.IntN(len(alphabet))])
		}
		targets = append(targets, string(b))
	}
	fast := 0
	for _, target := range targets {
		var u url.URL
		if !fastRequestURI(&u, target) {
			continue
		}
		fast++
		want, err := url.ParseRequestURI(target)
		if err != nil {
			t.Errorf("%q: the fast path took what ParseRequestURI refuses (%v)", target, err)
			continue
		}
		if u != *want {
			t.Errorf("%q: fast %#v, ParseRequestURI %#v", target, u, *want)
		}
	}
	if fast < 500 {
		t.Errorf("only %d of %d targets took the fast path", fast, len(targets))
	}
}

func BenchmarkFromNetHTTP(b *testing.B) {
	ps := newPairServer(b, FromNetHTTP(netHello))
	defer ps.close()
	in := []byte(wrkGet)
	b.ReportAllocs()
	for b.Loop() {
		ps.roundTrip(in, 1)
	}
}

func BenchmarkPipelined(b *testing.B) {
	for _, bb := range []struct {
		name string
		h    Handler
	}{
		{"hello", HandlerFunc(func(w *Response, r *Request) {
			w.AddHeader("Content-Type", "text/plain")
			w.EndString("Hello, World!")
		})},
		{"FromNetHTTP", FromNetHTTP(netHelloNoAlloc)},
	} {
		b.Run(bb.name, func(b *testing.B) {
			ps := newPairServer(b, bb.h)
			defer ps.close()
			in := []byte(strings.Repeat(wrkGet, 16))
			b.ReportAllocs()
			defer reportCPU(b, 16)()
			for b.Loop() {
				ps.roundTrip(in, 16)
			}
		})
	}
}

// reportCPU reports the process's user and system CPU time per request (per of the
// requests of each op), steadier than ns/op on a busy machine; call the func it returns
// when the loop is done.
func reportCPU(b *testing.B, per int) func() {
	var r0 unix.Rusage
	unix.Getrusage(unix.RUSAGE_SELF, &r0)
	return func() {
		var r1 unix.Rusage
		unix.Getrusage(unix.RUSAGE_SELF, &r1)
		n := float64(b.N * per)
		b.ReportMetric(float64(r1.Utime.Nano()-r0.Utime.Nano())/n, "user-ns/req")
		b.ReportMetric(float64(r1.Stime.Nano()-r0.Stime.Nano())/n, "sys-ns/req")
	}
}
