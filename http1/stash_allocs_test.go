package http1

import (
	"bytes"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
	"golang.org/x/sys/unix"
)

// tcpRoundTripAllocs serves h on a loop of backend b over TCP (on io_uring, the ring's
// receives and sends) and returns the allocations per round trip of reqs, written in one
// piece by a client of raw system calls driven with the loop by the test goroutine, until
// want responses are read.
func tcpRoundTripAllocs(t *testing.T, b uvloop.Backend, h Handler, reqs []byte, want int) float64 {
	loop, err := uvloop.New(uvloop.WithBackend(b))
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
			if n := tcpRoundTripAllocs(t, b, bigH, []byte(strings.Repeat(get, 6)), 6); n != 0 {
				t.Errorf("%v allocations per 6 pipelined requests", n)
			}
		})
	}
}
