package nodehttp

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/uvgo/uvgo/uvloop"
	"golang.org/x/sys/unix"
)

// helloPair serves handler on one end of a socket pair whose other end the test drives
// with raw system calls (nothing of the client allocates), running the loop by hand.
type helloPair struct {
	t    testing.TB
	loop *uvloop.Loop
	srv  *Server
	fd   int
	buf  []byte
}

func newHelloPair(t testing.TB, handler func(*IncomingMessage, *ServerResponse)) *helloPair {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	loop, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	srv := CreateServer(loop, handler)
	p, _ := loop.NewPipe()
	if err := p.Open(fds[0]); err != nil {
		t.Fatal(err)
	}
	if err := srv.engine().ServeConn(p); err != nil {
		t.Fatal(err)
	}
	// The client's end does not block: the loop runs until the answer is there. (A completion
	// backend may post the request's arrival a turn after the write, where epoll sees it in the
	// same turn; a blocking read after one RunNoWait would then wait forever.)
	if err := unix.SetNonblock(fds[1], true); err != nil {
		t.Fatal(err)
	}
	return &helloPair{t: t, loop: loop, srv: srv, fd: fds[1], buf: make([]byte, 64<<10)}
}

// roundTrip writes in and runs the loop until want responses came back.
func (h *helloPair) roundTrip(in []byte, want int) {
	if _, err := unix.Write(h.fd, in); err != nil {
		h.t.Fatal(err)
	}
	got := 0
	deadline := time.Now().Add(10 * time.Second)
	for got < want {
		if _, err := h.loop.Run(uvloop.RunNoWait); err != nil {
			h.t.Fatal(err)
		}
		n, err := unix.Read(h.fd, h.buf)
		if err == unix.EAGAIN {
			if time.Now().After(deadline) {
				h.t.Fatal("no answer in 10 s")
			}
			continue
		}
		if err != nil {
			h.t.Fatal(err)
		}
		if n == 0 {
			h.t.Fatal("the server closed the connection")
		}
		got += bytes.Count(h.buf[:n], []byte("HTTP/1.1 200"))
	}
	for range 3 { // the ticks after the response: 'finish', 'close', the request's end
		h.loop.Run(uvloop.RunNoWait)
	}
}

func (h *helloPair) close() {
	h.srv.Close(nil)
	h.srv.CloseAllConnections()
	h.loop.Run(uvloop.RunDefault)
	unix.Close(h.fd)
	if err := h.loop.Close(); err != nil {
		h.t.Fatal(err)
	}
}

var helloHeaders = []string{"Content-Type", "text/plain", "Content-Length", "13"}

func benchHello(req *IncomingMessage, res *ServerResponse) {
	res.WriteHead(200, helloHeaders)
	res.EndString("Hello, World!")
}

const wrkGet = "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"

// TestHelloAllocs pins the allocations of a hello exchange (bench/peers/uvnodehttp's
// handler): one per request, the IncomingMessage and ServerResponse together, single and
// pipelined, the client a socket pair written with raw system calls.
func TestHelloAllocs(t *testing.T) {
	if n := unsafe.Sizeof(exchange{}); n > 576 { // (two EventEmitters of 40 bytes in it)
		t.Errorf("an exchange is %d bytes, over the 576-byte size class", n)
	}
	h := newHelloPair(t, benchHello)
	defer h.close()
	in := []byte(wrkGet)
	h.roundTrip(in, 1)
	if n := testing.AllocsPerRun(500, func() { h.roundTrip(in, 1) }); n > 1 {
		t.Errorf("%v allocations per request, want 1", n)
	}
	pipelined := []byte(strings.Repeat(wrkGet, 4))
	if n := testing.AllocsPerRun(200, func() { h.roundTrip(pipelined, 4) }); n > 4 {
		t.Errorf("%v allocations per 4 pipelined requests, want 4", n)
	}
}

func BenchmarkHello(b *testing.B) {
	h := newHelloPair(b, benchHello)
	defer h.close()
	in := []byte(wrkGet)
	b.ReportAllocs()
	for b.Loop() {
		h.roundTrip(in, 1)
	}
}

func BenchmarkHelloPipelined(b *testing.B) {
	h := newHelloPair(b, benchHello)
	defer h.close()
	in := []byte(strings.Repeat(wrkGet, 16))
	b.ReportAllocs()
	defer reportCPU(b, 16)()
	for b.Loop() {
		h.roundTrip(in, 16)
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
