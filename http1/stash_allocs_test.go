package http1

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
	"golang.org/x/sys/unix"
)

// tcpRoundTripAllocs serves h on a loop made with lopts over TCP (on io_uring, the ring's
// receives and sends; TestServerAllocs serves a Pipe, which reads by readiness everywhere) and returns the allocations per round trip of reqs, written in one
// piece by a client of raw system calls driven with the loop by the test goroutine, until
// want responses are read.
func tcpRoundTripAllocs(t *testing.T, lopts []uvloop.Option, h Handler, reqs []byte, want int) float64 {
	loop, err := uvloop.New(lopts...)
	if err != nil {
		t.Skip(err)
	}
	srv := NewServer(loop, h)
	ap, err := srv.ListenTCP("127.0.0.1:0", 0)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", ap.String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	raw, err := c.(*net.TCPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var fd int
	raw.Control(func(f uintptr) { fd = int(f) }) // non-blocking, as net leaves it
	buf := make([]byte, 256<<10)
	roundTrip := func() {
		if _, err := unix.Write(fd, reqs); err != nil {
			t.Fatal(err)
		}
		got := 0
		deadline := time.Now().Add(10 * time.Second)
		for got < want {
			if _, err := loop.Run(uvloop.RunNoWait); err != nil {
				t.Fatal(err)
			}
			n, err := unix.Read(fd, buf)
			if err == unix.EAGAIN { // not answered yet: run the loop again
				if time.Now().After(deadline) {
					t.Fatal("no answer in 10 s")
				}
				continue
			}
			if err != nil || n == 0 {
				t.Fatal("read", n, err)
			}
			got += bytes.Count(buf[:n], []byte("HTTP/1.1 200"))
		}
	}
	for range 20 {
		roundTrip()
	}
	n := testing.AllocsPerRun(200, roundTrip)
	srv.Close(nil)
	if _, err := loop.Run(uvloop.RunDefault); err != nil {
		t.Error(err)
	}
	if err := loop.Close(); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPipelinedLargeAnswersAllocs: pipelined requests whose answers (100 KiB each) are over
// the high-water mark wait in the stash, fed one at a time as the output drains; what is
// held again moves to the front of the stash's buffer, so the hot path allocates nothing,
// on every backend. (The stash was dropped and made again: 5 allocations per 6 requests.)
func TestPipelinedLargeAnswersAllocs(t *testing.T) {
	big := strings.Repeat("L", 100<<10)
	bigH := HandlerFunc(func(w *Response, r *Request) { w.EndString(big) })
	for _, b := range []uvloop.Backend{uvloop.BackendEpoll, uvloop.BackendIOURing} {
		t.Run(b.String(), func(t *testing.T) {
			if n := tcpRoundTripAllocs(t, []uvloop.Option{uvloop.WithBackend(b)}, bigH, []byte(strings.Repeat(get, 6)), 6); n != 0 {
				t.Errorf("%v allocations per 6 pipelined requests", n)
			}
		})
	}
}

// TestStashBurstFedInOrder: a burst of pipelined requests larger than keepBuf, held behind
// output over the high-water mark and fed one at a time as it drains, each held again at the
// front of the same buffer: every request is answered, in order, with its own target, and
// once the burst is fed its buffer is not kept.
func TestStashBurstFedInOrder(t *testing.T) {
	pad := strings.Repeat("p", 1<<10)
	ts := startServer(t, HandlerFunc(func(w *Response, r *Request) {
		w.EndString(string(r.Target) + " " + pad)
	}), HighWaterMark(512))
	c, br := ts.dial()
	const n = 300
	var burst strings.Builder
	for i := range n {
		fmt.Fprintf(&burst, "GET /%d HTTP/1.1\r\nHost: x\r\n\r\n", i)
	}
	if burst.Len() <= keepBuf {
		t.Fatalf("a burst of %d bytes does not test the bound (keepBuf %d)", burst.Len(), keepBuf)
	}
	if _, err := io.WriteString(c, burst.String()); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("response %d: %v", i, err)
		}
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatalf("response %d: %v", i, err)
		}
		if want := fmt.Sprintf("/%d %s", i, pad); string(b) != want {
			t.Fatalf("response %d: %.20q..., want %.20q...", i, b, want)
		}
	}
	ts.on(func() {
		ts.srv.eachConn(func(c *conn) {
			if len(c.stash) != 0 || cap(c.stash) > keepBuf {
				t.Errorf("after the burst the stash holds %d bytes in a buffer of %d (keepBuf %d)", len(c.stash), cap(c.stash), keepBuf)
			}
		})
	})
}
