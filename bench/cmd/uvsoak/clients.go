package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// clients are the load: each echo or HTTP client keeps one connection at a time and picks
// what to do with it at random, until the deadline.
type clients struct {
	echoAddr, httpAddr string
	deadline           time.Time
	panics             bool // the server panics on purpose: unanswered requests are expected
	counts             sync.Map
	bg                 sync.WaitGroup // the slowloris tricklers
}

func (c *clients) count(k string) {
	v, _ := c.counts.LoadOrStore(k, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

func (c *clients) running() bool { return time.Now().Before(c.deadline) }

// gone reports whether err says the server dropped the connection (a reset, or EOF).
func gone(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ENOTCONN)
}

func timedOut(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }

func reset(conn net.Conn) {
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}

func (c *clients) dial(addr, what string, rnd *rand.Rand) net.Conn {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		c.count(what + " dial failed")
		time.Sleep(time.Duration(20+rnd.IntN(80)) * time.Millisecond)
		return nil
	}
	return conn
}

// echoClient: mostly round trips of random bytes checked byte for byte; also resets,
// half-closes, clients that write and never read, and idle ones.
func (c *clients) echoClient(seed uint64) {
	rnd := rand.New(rand.NewPCG(seed, 7))
	buf := make([]byte, 64<<10)
	back := make([]byte, 64<<10)
	for c.running() {
		conn := c.dial(c.echoAddr, "echo", rnd)
		if conn == nil {
			continue
		}
		fill := func() []byte {
			n := 1 + rnd.IntN(4096)
			if rnd.IntN(50) == 0 {
				n = len(buf)
			}
			for i := range n {
				buf[i] = byte(rnd.Uint32())
			}
			return buf[:n]
		}
		// roundTrip writes p and reads it back; first says no byte came back on this
		// connection yet (a connection the server sheds at EMFILE ends there).
		roundTrip := func(p []byte, first bool) bool {
			conn.SetDeadline(time.Now().Add(30 * time.Second))
			// Write while reading: an echo client that writes everything before it reads
			// deadlocks once the buffers on the way hold less than what it writes (the
			// server stops reading while its echo waits), which the kernel's memory
			// pressure brings about with 10,000 sockets.
			werr := make(chan error, 1)
			go func() { _, err := conn.Write(p); werr <- err }()
			got, err := io.ReadFull(conn, back[:len(p)])
			if err != nil {
				conn.SetDeadline(time.Now()) // unblock the writer
				if timedOut(err) {
					// Where it stalled: nothing back on a new connection (never accepted,
					// or accepted and never read), or in the middle.
					c.count(fmt.Sprintf("echo stalled: first %v, %d of %d bytes back", first, min(got, 1), min(len(p), 2)))
				}
			}
			if e := <-werr; err == nil {
				err = e
			}
			if err != nil {
				c.fail("echo", err, first)
				return false
			}
			if !bytes.Equal(back[:len(p)], p) {
				c.count("echo wrong bytes")
				return false
			}
			c.count("echo round trips")
			return true
		}
		switch mode := rnd.IntN(100); {
		case mode < 75:
			ok := true
			for r := range 1 + rnd.IntN(5) {
				if ok = roundTrip(fill(), r == 0); !ok {
					break
				}
			}
			if ok {
				conn.Close()
			} else {
				reset(conn)
			}
		case mode < 83: // a reset in the middle of an echo
			p := fill()
			conn.SetDeadline(time.Now().Add(30 * time.Second))
			if _, err := conn.Write(p); err == nil {
				io.ReadFull(conn, back[:len(p)/2])
			}
			reset(conn)
			c.count("echo resets")
		case mode < 90: // half-close: everything written must come back, then EOF
			p := fill()
			conn.SetDeadline(time.Now().Add(30 * time.Second))
			werr := make(chan error, 1)
			go func() {
				_, err := conn.Write(p)
				if err == nil {
					err = conn.(*net.TCPConn).CloseWrite()
				}
				werr <- err
			}()
			got, err := io.ReadAll(conn)
			if err != nil {
				conn.SetDeadline(time.Now())
			}
			if e := <-werr; err == nil {
				err = e
			}
			switch {
			case err != nil:
				c.fail("echo", err, len(got) == 0)
			case len(got) == 0 && len(p) > 0:
				c.count("echo shed")
			case !bytes.Equal(got, p):
				c.count("echo wrong bytes")
			default:
				c.count("echo half-closes")
			}
			conn.Close()
		case mode < 95: // writes and never reads: the server must stop reading, not buffer
			conn.SetWriteDeadline(time.Now().Add(time.Second))
			written := 0
			for written < 8<<20 {
				n, err := conn.Write(buf)
				written += n
				if err != nil {
					break
				}
			}
			reset(conn)
			c.count("echo never-read")
		default: // idle for a while
			time.Sleep(time.Duration(200+rnd.IntN(1500)) * time.Millisecond)
			conn.Close()
			c.count("echo idle")
		}
	}
}

// fail counts a failed exchange: shed (the server closed a connection it could not keep)
// when nothing came back yet, a stall on a timeout, else a cut.
func (c *clients) fail(what string, err error, first bool) {
	switch {
	case first && gone(err):
		c.count(what + " shed")
	case timedOut(err):
		c.count(what + " stalled")
	default:
		c.count(what + " cut")
		if os.Getenv("UVSOAK_DEBUG") != "" {
			c.count(fmt.Sprintf("%s cut: first %v: %v", what, first, err))
		}
	}
}

// httpClient: keep-alive bursts of pipelined GETs and POSTs, each answer checked; also
// slowloris heads, resets and malformed requests.
func (c *clients) httpClient(seed uint64) {
	rnd := rand.New(rand.NewPCG(seed, 11))
	n := 0
	body := make([]byte, 4096)
	for c.running() {
		conn := c.dial(c.httpAddr, "http", rnd)
		if conn == nil {
			continue
		}
		br := bufio.NewReader(conn)
		switch mode := rnd.IntN(100); {
		case mode < 70:
			ok := true
			for burst := range 1 + rnd.IntN(5) {
				k := 1 + rnd.IntN(8)
				var req bytes.Buffer
				var want []string
				for range k {
					n++
					target := fmt.Sprintf("/c%d-%d", seed, n)
					if rnd.IntN(4) == 0 {
						m := 1 + rnd.IntN(len(body))
						for i := range m {
							body[i] = 'a' + byte(rnd.IntN(26))
						}
						fmt.Fprintf(&req, "POST %s HTTP/1.1\r\nHost: soak\r\nContent-Length: %d\r\n\r\n%s", target, m, body[:m])
						want = append(want, string(body[:m]))
					} else {
						fmt.Fprintf(&req, "GET %s HTTP/1.1\r\nHost: soak\r\n\r\n", target)
						want = append(want, target)
					}
				}
				wait := 30 * time.Second
				if c.panics {
					wait = 3 * time.Second
				}
				conn.SetDeadline(time.Now().Add(wait))
				if _, err := conn.Write(req.Bytes()); err != nil {
					c.httpFail(err, burst == 0)
					ok = false
					break
				}
				for i, w := range want {
					resp, err := http.ReadResponse(br, nil)
					var got []byte
					if err == nil {
						got, err = io.ReadAll(resp.Body)
						resp.Body.Close()
					}
					if err != nil && i == 0 && burst > 0 && gone(err) {
						// The server closed the connection between two bursts: its
						// keep-alive timeout (5 s) ran out on a CPU-starved client.
						c.count("http closed when idle")
						ok = false
						break
					}
					if err != nil {
						c.httpFail(err, burst == 0 && i == 0)
						ok = false
						break
					}
					if resp.StatusCode == 408 {
						// The head came later than HeadersTimeout after the connection's
						// start: a client starved of CPU on an overloaded machine. The
						// server closes the connection after it.
						c.count("http 408 (a client too slow)")
						ok = false
						break
					}
					if resp.StatusCode != 200 || string(got) != w {
						c.count("http wrong answer")
						if os.Getenv("UVSOAK_DEBUG") != "" {
							c.count(fmt.Sprintf("http wrong answer: %d %.40q want %.40q", resp.StatusCode, got, w))
						}
						ok = false
						break
					}
					c.count("http requests")
				}
				if !ok {
					break
				}
			}
			if ok {
				conn.Close()
			} else {
				reset(conn)
			}
		case mode < 80: // slowloris: the head never ends; HeadersTimeout (5 s) must end it
			start := time.Now()
			conn.SetDeadline(start.Add(12 * time.Second))
			closed := false
			if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: soak\r\nX-Slow: "); err == nil {
				c.bg.Go(func() { // trickle a byte every 300 ms until the server closes
					for time.Since(start) < 12*time.Second {
						time.Sleep(300 * time.Millisecond)
						if _, err := conn.Write([]byte("x")); err != nil {
							return
						}
					}
				})
				_, err := io.Copy(io.Discard, br)
				closed = err == nil || gone(err)
			} else {
				closed = true
			}
			if closed || !c.running() {
				c.count("slowloris closed")
			} else {
				c.count("slowloris not closed")
			}
			reset(conn)
		case mode < 90: // a request, then a reset before the answer
			fmt.Fprintf(conn, "GET /reset HTTP/1.1\r\nHost: soak\r\n\r\n")
			reset(conn)
			c.count("http resets")
		default: // a malformed request: 400 and close
			conn.SetDeadline(time.Now().Add(30 * time.Second))
			io.WriteString(conn, "BAD REQUEST LINE\r\n\r\n")
			resp, err := http.ReadResponse(br, nil)
			switch {
			case err == nil && resp.StatusCode == 400:
				c.count("http refused 400")
			case err != nil && gone(err):
				c.count("http shed")
			case err != nil && !strings.Contains(err.Error(), "malformed"):
				c.httpFail(err, true)
			default:
				c.count("http wrong answer")
			}
			conn.Close()
		}
	}
}

func (c *clients) httpFail(err error, first bool) {
	switch {
	case timedOut(err) && c.panics:
		c.count("http unanswered (handler panicked)")
	case first && gone(err):
		c.count("http shed")
	case timedOut(err):
		c.count("http stalled")
	default:
		c.count("http cut")
		if os.Getenv("UVSOAK_DEBUG") != "" {
			c.count(fmt.Sprintf("http cut: first %v: %v", first, err))
		}
	}
}
