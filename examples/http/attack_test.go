//go:build linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The Attack tests are hostile and unusual clients against the HTTP server (resets with writes
// queued, half-closes, clients that never read, floods, storms, running out of fds), on the
// backend the loop gets (UVGO_BACKEND; CI runs them on io_uring, which auto gives these locked
// loops where the kernel allows it, and on epoll): every byte a well-behaved client sends is
// answered, a misbehaving one is cut off without harm to the others, and stopping the server
// under all of it returns and leaves no fd behind.

func backendName() string {
	ents, _ := os.ReadDir("/proc/self/fd")
	for _, e := range ents {
		l, _ := os.Readlink("/proc/self/fd/" + e.Name())
		if strings.Contains(l, "io_uring") {
			return "io_uring"
		}
	}
	return "epoll"
}

// startA is start with a bound on Close's time.
func startA(t *testing.T) *Server {
	t.Helper()
	s, err := Serve("127.0.0.1:0", 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("backend %s", backendName())
	t.Cleanup(func() {
		done := make(chan error, 1)
		go func() { done <- s.Close() }()
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Close did not return within 5 s")
		}
	})
	return s
}

var resp200 = "Hello, World!"

// countResponses reads until EOF and counts the 200 responses.
func countResponses(r io.Reader) (int, error) {
	b, err := io.ReadAll(r)
	return bytes.Count(b, []byte(resp200)), err
}

// TestAttackPipelineHalfClose: many pipelined requests, then a half-close; the client
// reads everything (at once, or late). Every request must be answered before EOF.
func TestAttackPipelineHalfClose(t *testing.T) {
	s := startA(t)
	for _, tt := range []struct {
		n     int
		delay time.Duration
	}{{100, 0}, {5000, 0}, {20000, 0}, {2000, 300 * time.Millisecond}, {20000, 300 * time.Millisecond}} {
		t.Run(fmt.Sprintf("%d requests, read after %v", tt.n, tt.delay), func(t *testing.T) {
			c, err := net.Dial("tcp", s.Addr.String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(8 * time.Second))
			werr := make(chan error, 1)
			go func() {
				_, err := c.Write([]byte(strings.Repeat(get, tt.n)))
				if err == nil {
					err = c.(*net.TCPConn).CloseWrite()
				}
				werr <- err
			}()
			time.Sleep(tt.delay)
			got, err := countResponses(c)
			if werr := <-werr; werr != nil {
				t.Fatalf("write: %v", werr)
			}
			if err != nil {
				t.Fatalf("read: %v after %d responses", err, got)
			}
			if got != tt.n {
				t.Fatalf("%d responses of %d", got, tt.n)
			}
		})
	}
}

// TestAttackPipelineNoRead: many pipelined requests, the client reads nothing for a while
// (the server's responses back up and it stops reading), then reads them all.
func TestAttackPipelineNoRead(t *testing.T) {
	s := startA(t)
	c, err := net.Dial("tcp", s.Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(8 * time.Second))
	const n = 40000
	werr := make(chan error, 1)
	go func() {
		_, err := c.Write([]byte(strings.Repeat(get, n) + "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
		werr <- err
	}()
	time.Sleep(500 * time.Millisecond)
	got, err := countResponses(c)
	if werr := <-werr; werr != nil {
		t.Fatalf("write: %v", werr)
	}
	if err != nil {
		t.Fatalf("read: %v after %d", err, got)
	}
	if got != n+1 {
		t.Fatalf("%d responses of %d", got, n+1)
	}
}

// TestAttackPipelineReset: clients pipeline lots, read nothing, and reset; others go on.
func TestAttackPipelineReset(t *testing.T) {
	s := startA(t)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var served atomic.Int64
	errs := make(chan error, 16)
	for range 4 {
		wg.Go(func() {
			c, err := net.Dial("tcp", s.Addr.String())
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(8 * time.Second))
			br := bufio.NewReader(c)
			for !stop.Load() {
				if _, err := c.Write([]byte(strings.Repeat(get, 10))); err != nil {
					errs <- err
					return
				}
				for range 10 {
					if err := readOne(br); err != nil {
						errs <- err
						return
					}
				}
				served.Add(10)
			}
		})
	}
	var bad sync.WaitGroup
	for i := range 30 {
		bad.Go(func() {
			c, err := net.Dial("tcp", s.Addr.String())
			if err != nil {
				return
			}
			c.SetWriteDeadline(time.Now().Add(time.Duration(30+5*i) * time.Millisecond))
			c.Write([]byte(strings.Repeat(get, 50000)))
			c.(*net.TCPConn).SetLinger(0)
			c.Close()
		})
	}
	bad.Wait()
	time.Sleep(200 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if served.Load() == 0 {
		t.Error("nothing served")
	}
	t.Logf("%d served", served.Load())
}

func readOne(br *bufio.Reader) error {
	// A response is a fixed head and the body; find the body.
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return err
		}
		if line == "\r\n" {
			break
		}
	}
	b := make([]byte, len(resp200))
	if _, err := io.ReadFull(br, b); err != nil {
		return err
	}
	if string(b) != resp200 {
		return fmt.Errorf("body %q", b)
	}
	return nil
}

// TestAttackSlowloris: many connections send a head a byte at a time, slowly; others are
// served meanwhile; then Close ends it all.
func TestAttackSlowloris(t *testing.T) {
	s := startA(t)
	var wg sync.WaitGroup
	done := make(chan struct{})
	for range 200 {
		wg.Go(func() {
			c, err := net.Dial("tcp", s.Addr.String())
			if err != nil {
				return
			}
			defer c.Close()
			c.(*net.TCPConn).SetNoDelay(true)
			head := "GET / HTTP/1.1\r\nHost: x\r\n" + strings.Repeat("X-Slow: y\r\n", 1000)
			for i := range len(head) {
				select {
				case <-done:
					return
				case <-time.After(20 * time.Millisecond):
				}
				if _, err := c.Write([]byte{head[i]}); err != nil {
					return
				}
			}
		})
	}
	time.Sleep(300 * time.Millisecond)
	for range 200 {
		c, br := dial(t, s)
		c.Write([]byte(get))
		expect(t, br, 200, resp200, false)
		c.Close()
	}
	close(done)
	wg.Wait()
}

// TestAttackOneByteConcurrent: many clients send pipelined requests in 1-byte writes.
func TestAttackOneByteConcurrent(t *testing.T) {
	s := startA(t)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			c, err := net.Dial("tcp", s.Addr.String())
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(8 * time.Second))
			c.(*net.TCPConn).SetNoDelay(true)
			reqs := strings.Repeat(get, 20) + "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc" + "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
			go func() {
				for i := range len(reqs) {
					if _, err := c.Write([]byte{reqs[i]}); err != nil {
						return
					}
				}
			}()
			b, err := io.ReadAll(c)
			if err != nil {
				t.Error(err)
			}
			if n := bytes.Count(b, []byte(resp200)); n != 21 {
				t.Errorf("%d 200s of 21", n)
			}
			if n := bytes.Count(b, []byte(" 405 ")); n != 1 {
				t.Errorf("%d 405s of 1", n)
			}
		})
	}
	wg.Wait()
}

// TestAttackOversized: heads and request lines too large, followed by a flood the server
// must stop reading; the client gets 431 (or a reset: not a hang), others are served.
func TestAttackOversized(t *testing.T) {
	s := startA(t)
	for i, req := range []string{
		"GET / HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("a", 1<<20),
		"GET /" + strings.Repeat("a", 1<<20),
		"GET / HTTP/1.1\r\nHost: x\r\n" + strings.Repeat("A: b\r\n", 100000),
	} {
		c, err := net.Dial("tcp", s.Addr.String())
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(5 * time.Second))
		go c.Write([]byte(req))
		b, err := io.ReadAll(c)
		c.Close()
		t.Logf("case %d: %q, %v", i, b[:min(len(b), 40)], err)
		if err != nil && !strings.Contains(err.Error(), "reset") {
			t.Errorf("case %d: %v", i, err)
		}
		if len(b) > 0 && !bytes.HasPrefix(b, []byte("HTTP/1.1 4")) {
			t.Errorf("case %d: %q", i, b)
		}
		c2, br := dial(t, s)
		c2.Write([]byte(get))
		expect(t, br, 200, resp200, false)
		c2.Close()
	}
}

// TestAttackCloseUnderLoad: Close while clients pipeline, read nothing, send slowly, etc.
func TestAttackCloseUnderLoad(t *testing.T) {
	for round := range 3 {
		before := len(mustReadDir(t))
		s, err := Serve("127.0.0.1:0", 1)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		var conns []net.Conn
		for i := range 24 {
			wg.Go(func() {
				c, err := net.Dial("tcp", s.Addr.String())
				if err != nil {
					return
				}
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
				c.SetDeadline(time.Now().Add(8 * time.Second))
				switch i % 4 {
				case 0: // pipeline, read
					go io.Copy(io.Discard, c)
					for {
						if _, err := c.Write([]byte(strings.Repeat(get, 1000))); err != nil {
							return
						}
					}
				case 1: // pipeline, no read
					for {
						if _, err := c.Write([]byte(strings.Repeat(get, 1000))); err != nil {
							return
						}
					}
				case 2: // big body, slowly
					c.Write([]byte("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 900000\r\n\r\n"))
					for {
						if _, err := c.Write(make([]byte, 1000)); err != nil {
							return
						}
						time.Sleep(time.Millisecond)
					}
				case 3: // a half-close after a pipeline
					c.Write([]byte(strings.Repeat(get, 3000)))
					c.(*net.TCPConn).CloseWrite()
					io.Copy(io.Discard, c)
				}
			})
		}
		time.Sleep(time.Duration(100+200*round) * time.Millisecond)
		done := make(chan error, 1)
		go func() { done <- s.Close() }()
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("round %d: Close did not return", round)
		}
		wg.Wait()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		// The closes reach the loop through the kernel: give them up to 2 s.
		for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			after := len(mustReadDir(t))
			if after <= before {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("round %d: %d fds before, %d after", round, before, after)
				break
			}
		}
	}
}

func mustReadDir(t *testing.T) []os.DirEntry {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return ents
}

// TestAttackAbandon: thousands of connections, some with a partial request, abandoned.
func TestAttackAbandon(t *testing.T) {
	s := startA(t)
	var conns []net.Conn
	for i := range 3000 {
		c, err := net.Dial("tcp", s.Addr.String())
		if err != nil {
			t.Fatalf("dial %d: %v", i, err)
		}
		conns = append(conns, c)
		switch i % 4 {
		case 1:
			c.Write([]byte("GET / HTTP/1.1\r\nHo"))
		case 2:
			c.Write([]byte(strings.Repeat(get, 100)))
		}
	}
	for i, c := range conns {
		if i%2 == 0 {
			c.(*net.TCPConn).SetLinger(0)
		}
		c.Close()
	}
	for range 100 {
		c, br := dial(t, s)
		c.Write([]byte(get))
		expect(t, br, 200, resp200, false)
		c.Close()
	}
}

// TestAttackTrickleNoRead: a client sends requests one per write and never reads. Once its
// socket is full the server must stop reading (the high-water mark, 64 KiB, plus the
// socket buffers); it must not go on answering into memory.
func TestAttackTrickleNoRead(t *testing.T) {
	s := startA(t)
	c, err := net.Dial("tcp", s.Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.(*net.TCPConn).SetNoDelay(true)
	c.(*net.TCPConn).SetReadBuffer(4096) // the client reads nothing; keep its buffer small
	req := []byte(get)
	deadline := time.Now().Add(3 * time.Second)
	c.SetWriteDeadline(deadline)
	sent := 0
	for time.Now().Before(deadline) {
		if _, err := c.Write(req); err != nil {
			break
		}
		sent++
	}
	time.Sleep(100 * time.Millisecond)
	n := s.Requests()[0]
	t.Logf("sent %d requests (%d bytes), server answered %d (~%d MB of responses) with nothing read", sent, sent*len(get), n, n*130>>20)
	// 64 KiB high water + a few MB of socket buffers is at most ~60000 responses of ~130 bytes.
	if n > 100000 {
		t.Errorf("the server answered %d requests into its buffers for a client that reads nothing", n)
	}
}

// TestAttackTrickleHalfClose: requests one per write, then a half-close, and the client
// reads only later: every request must be answered.
func TestAttackTrickleHalfClose(t *testing.T) {
	s := startA(t)
	for _, n := range []int{1000, 20000, 60000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			c, err := net.Dial("tcp", s.Addr.String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(8 * time.Second))
			c.(*net.TCPConn).SetNoDelay(true)
			werr := make(chan error, 1)
			go func() {
				var err error
				for range n {
					if _, err = c.Write([]byte(get)); err != nil {
						break
					}
				}
				if err == nil {
					err = c.(*net.TCPConn).CloseWrite()
				}
				werr <- err
			}()
			time.Sleep(500 * time.Millisecond)
			got, err := countResponses(c)
			if werr := <-werr; werr != nil {
				t.Fatalf("write: %v", werr)
			}
			if err != nil {
				t.Fatalf("read: %v after %d responses", err, got)
			}
			if got != n {
				t.Fatalf("%d responses of %d", got, n)
			}
		})
	}
}

// TestAttackHalfCloseAfterRequests is the smallest form: a few requests in separate
// writes, a half-close at once, then the client reads. Each must be answered.
func TestAttackHalfCloseAfterRequests(t *testing.T) {
	s := startA(t)
	lost := 0
	for round := range 300 {
		c, err := net.Dial("tcp", s.Addr.String())
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(5 * time.Second))
		c.(*net.TCPConn).SetNoDelay(true)
		for range 3 {
			c.Write([]byte(get))
		}
		c.(*net.TCPConn).CloseWrite()
		got, err := countResponses(c)
		c.Close()
		if err != nil || got != 3 {
			lost++
			if lost <= 3 {
				t.Errorf("round %d: %d responses of 3, %v", round, got, err)
			}
		}
	}
	if lost > 0 {
		t.Errorf("%d rounds of 300 lost responses", lost)
	}
}

// TestAttackHalfClosePartial: a whole request, then part of the next, then a half-close:
// the whole one is answered (Node answers it and ends the connection).
func TestAttackHalfClosePartial(t *testing.T) {
	s := startA(t)
	lost := 0
	for round := range 200 {
		c, err := net.Dial("tcp", s.Addr.String())
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(5 * time.Second))
		c.(*net.TCPConn).SetNoDelay(true)
		c.Write([]byte(get))
		if round%2 == 1 {
			time.Sleep(time.Millisecond)
		}
		c.Write([]byte("GET / HTTP/1.1\r\nHo"))
		c.(*net.TCPConn).CloseWrite()
		got, err := countResponses(c)
		c.Close()
		if err != nil || got != 1 {
			lost++
			if lost <= 3 {
				t.Errorf("round %d: %d responses of 1, %v", round, got, err)
			}
		}
	}
	if lost > 0 {
		t.Errorf("%d rounds of 200 lost the response", lost)
	}
}

// TestAttackTrickleThenFlood: requests one at a time (one small response write each) until
// the client's socket is full and a small write is stuck, then a flood of pipelined
// requests; the client never reads. The server must stop reading at its high-water mark.
func TestAttackTrickleThenFlood(t *testing.T) {
	s := startA(t)
	c, err := net.Dial("tcp", s.Addr.String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.(*net.TCPConn).SetNoDelay(true)
	c.(*net.TCPConn).SetReadBuffer(4096)
	req := []byte(get)
	var prev int64 = -1
	stuck := 0
	var ms0 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	trickleEnd := time.Now().Add(2 * time.Second)
	for i := 0; stuck < 20 && time.Now().Before(trickleEnd); i++ {
		c.Write(req)
		if i%100 == 0 {
			time.Sleep(200 * time.Microsecond)
			n := s.Requests()[0]
			if n == prev {
				stuck++
			} else {
				stuck = 0
			}
			prev = n
		}
	}
	n1 := s.Requests()[0]
	flood := []byte(strings.Repeat(get, 1000))
	deadline := time.Now().Add(2 * time.Second)
	c.SetWriteDeadline(deadline)
	sent := 0
	for time.Now().Before(deadline) {
		if _, err := c.Write(flood); err != nil {
			break
		}
		sent += 1000
	}
	time.Sleep(100 * time.Millisecond)
	n2 := s.Requests()[0]
	var ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms1)
	t.Logf("answered %d by the trickle, %d after a flood of %d requests, nothing read; heap in use %d MB -> %d MB",
		n1, n2, sent, ms0.HeapInuse>>20, ms1.HeapInuse>>20)
	// What the kernel's buffers take between them (the server's send buffer grows to 4 MiB,
	// about 30,000 responses, and under load the trickle may end before they are full) is
	// allowed; when responses gathered without bound behind a stuck write, 545,000-800,000
	// more were answered (70-100 MB).
	if n2-n1 > 60000 {
		t.Errorf("the server answered %d more requests (~%d MB) after the client's socket was full", n2-n1, (n2-n1)*130>>20)
	}
}
