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
	panicP             float64 // the probability that a request asks the handler to panic
	counts             sync.Map
	bg                 sync.WaitGroup // the slowloris tricklers
}

func (c *clients) count(k string) { c.add(k, 1) }

func (c *clients) add(k string, n int) {
	v, _ := c.counts.LoadOrStore(k, new(atomic.Int64))
	v.(*atomic.Int64).Add(int64(n))
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

func (c *clients) dial(addr, what string, b *backoff) net.Conn {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		c.count(what + " dial failed")
		if os.Getenv("UVSOAK_DEBUG") != "" {
			var errno syscall.Errno
			switch {
			case errors.As(err, &errno):
				c.count(fmt.Sprintf("%s dial failed: %v", what, errno))
			case timedOut(err) || errors.Is(err, syscall.ETIMEDOUT):
				c.count(what + " dial failed: timeout")
			default:
				c.count(fmt.Sprintf("%s dial failed: %v", what, err))
			}
		}
		b.wait()
		return nil
	}
	return conn
}

// backoff is how long a client waits before it dials again when the server turned it away
// (a dial that failed, a connection shed at accept): from 20 ms, doubling up to 2 s, with
// jitter; a connection that gets through resets it. A client that redials at once after a
// shed is not a client but a SYN flood: 6,000 of them (the clients beyond the server's fd
// limit) kept both accept queues full and starved this process's other goroutines, the
// HTTP clients among them, of CPU.
type backoff struct {
	d   time.Duration
	rnd *rand.Rand
}

func (b *backoff) wait() {
	b.d = min(max(2*b.d, 20*time.Millisecond), 2*time.Second)
	time.Sleep(b.d/2 + time.Duration(b.rnd.Int64N(int64(b.d/2))))
}

// after ends a connection: shed says whether the server turned it away.
func (b *backoff) after(shed bool) {
	if shed {
		b.wait()
	} else {
		b.d = 0
	}
}

// echoClient: mostly round trips of random bytes checked byte for byte; also resets,
// half-closes, clients that write and never read, and idle ones.
func (c *clients) echoClient(seed uint64) {
	rnd := rand.New(rand.NewPCG(seed, 7))
	b := &backoff{rnd: rnd}
	buf := make([]byte, 64<<10)
	back := make([]byte, 64<<10)
	for c.running() {
		conn := c.dial(c.echoAddr, "echo", b)
		if conn == nil {
			continue
		}
		shed := false
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
			queued := false
			if err != nil {
				queued = timedOut(err) && first && got == 0 && neverEstablished(conn)
				conn.SetDeadline(time.Now()) // unblock the writer
				if timedOut(err) && !queued {
					// Where it stalled: nothing back on a new connection (accepted and
					// never read), or in the middle.
					c.count(fmt.Sprintf("echo stalled: first %v, %d of %d bytes back", first, min(got, 1), min(len(p), 2)))
				}
			}
			if e := <-werr; err == nil {
				err = e
			}
			if queued {
				c.count(neverAccepted)
				return false
			}
			if err != nil {
				shed = c.fail("echo", err, first)
				return false
			}
			if !bytes.Equal(back[:len(p)], p) {
				c.count("echo wrong bytes")
				return false
			}
			c.count("echo round trips")
			c.add("echo bytes checked", len(p))
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
			queued := false
			if err != nil {
				queued = timedOut(err) && len(got) == 0 && neverEstablished(conn)
				conn.SetDeadline(time.Now())
			}
			if e := <-werr; err == nil {
				err = e
			}
			switch {
			case queued:
				c.count(neverAccepted)
			case err != nil:
				shed = c.fail("echo", err, len(got) == 0)
			case len(got) == 0 && len(p) > 0:
				c.count("echo shed")
				shed = true
			case !bytes.Equal(got, p):
				c.count("echo wrong bytes")
			default:
				c.count("echo half-closes")
				c.add("echo bytes checked", len(got))
			}
			if err != nil {
				// Not Close: a connection still in the server's SYN queue would linger as an
				// orphan that retransmits its data and FIN for up to two minutes (see
				// neverAccepted), and reach the server after the load.
				reset(conn)
			} else {
				conn.Close()
			}
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
		b.after(shed)
	}
}

// afterPanic reads what follows a request whose handler panicked: by http1's policy (Node's
// after a request listener throws) the responses before it came, and then either nothing
// (the server waits for its RequestTimeout, 10 s, longer than this client waits) or, if
// more bytes of the burst reached the server after the panic, 400, or at the timeout 408,
// each with Connection: close and the end of the connection. Anything else is wrong.
// Before the first request of a burst the server may have closed the connection: shed at
// accept (the first burst), or idle for its keep-alive timeout.
func (c *clients) afterPanic(conn net.Conn, br *bufio.Reader, firstOfBurst, firstBurst bool) (shed bool) {
	conn.SetDeadline(time.Now().Add(3 * time.Second))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		switch {
		case timedOut(err): // not a byte of a head (part of one reads as malformed)
			c.count("http unanswered (handler panicked)")
		case firstOfBurst && firstBurst && gone(err):
			c.count("http shed")
			return true
		case firstOfBurst && gone(err):
			c.count("http closed when idle")
		default:
			c.count("http wrong answer after a panic")
			if os.Getenv("UVSOAK_DEBUG") != "" {
				c.count(fmt.Sprintf("http wrong answer after a panic: %v", err))
			}
		}
		return
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	_, eof := br.ReadByte()
	if (resp.StatusCode == 400 || resp.StatusCode == 408) && resp.Close && eof == io.EOF {
		c.count(fmt.Sprintf("http %d after a panic, closed", resp.StatusCode))
		return
	}
	c.count("http wrong answer after a panic")
	if os.Getenv("UVSOAK_DEBUG") != "" {
		c.count(fmt.Sprintf("http wrong answer after a panic: %d close %v then %v", resp.StatusCode, resp.Close, eof))
	}
	return false
}

// recordingConn keeps the last error its reads returned.
type recordingConn struct {
	net.Conn
	err error
}

func (r *recordingConn) Read(p []byte) (int, error) {
	n, err := r.Conn.Read(p)
	if err != nil {
		r.err = err
	}
	return n, err
}

// cause returns the read error behind a parse error (the deadline or the end of the
// stream, which bufio hides when part of a line came), else err.
func (r *recordingConn) cause(err error) error {
	if err != nil && r.err != nil && !timedOut(err) && !gone(err) {
		return r.err
	}
	return err
}

// neverAccepted counts the exchanges on connections that the server's kernel never
// established (see neverEstablished): the listener's accept queue was full when the
// handshake ended. The kernel's doing, and the load's (thousands of clients redialing at
// once), not the server's: nothing of them reaches the server's process.
const neverAccepted = "echo never established (accept queue full)"

// fail counts a failed exchange: shed (the server closed a connection it could not keep)
// when nothing came back yet, a stall on a timeout, else a cut. It reports a shed.
func (c *clients) fail(what string, err error, first bool) (shed bool) {
	switch {
	case first && gone(err):
		c.count(what + " shed")
		return true
	case timedOut(err):
		c.count(what + " stalled")
	default:
		c.count(what + " cut")
		if os.Getenv("UVSOAK_DEBUG") != "" {
			c.count(fmt.Sprintf("%s cut: first %v: %v", what, first, err))
		}
	}
	return false
}

// httpClient: keep-alive bursts of pipelined GETs and POSTs, each answer checked; also
// slowloris heads, resets and malformed requests.
func (c *clients) httpClient(seed uint64) {
	rnd := rand.New(rand.NewPCG(seed, 11))
	b := &backoff{rnd: rnd}
	n := 0
	body := make([]byte, 4096)
	for c.running() {
		conn := c.dial(c.httpAddr, "http", b)
		if conn == nil {
			continue
		}
		shed := false
		rc := &recordingConn{Conn: conn}
		br := bufio.NewReader(rc)
		switch mode := rnd.IntN(100); {
		case mode < 70:
			ok := true
			for burst := range 1 + rnd.IntN(5) {
				k := 1 + rnd.IntN(8)
				var req bytes.Buffer
				var want []string
				boom := -1 // the request whose handler panics (asked for by its target)
				for j := range k {
					n++
					target := fmt.Sprintf("/c%d-%d", seed, n)
					if boom < 0 && c.panicP > 0 && rnd.Float64() < c.panicP {
						boom = j
						fmt.Fprintf(&req, "GET /panic%s HTTP/1.1\r\nHost: soak\r\n\r\n", target)
						want = append(want, "")
					} else if rnd.IntN(4) == 0 {
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
				conn.SetDeadline(time.Now().Add(30 * time.Second))
				if _, err := conn.Write(req.Bytes()); err != nil {
					shed = c.httpFail(err, burst == 0, rc)
					ok = false
					break
				}
				for i, w := range want {
					if i == boom {
						shed = c.afterPanic(conn, br, i == 0, burst == 0)
						ok = false
						break
					}
					resp, err := http.ReadResponse(br, nil)
					var got []byte
					if err == nil {
						got, err = io.ReadAll(resp.Body)
						resp.Body.Close()
					}
					if err != nil && i == 0 && burst > 0 && gone(rc.cause(err)) {
						// The server closed the connection between two bursts: its
						// keep-alive timeout (5 s) ran out on a CPU-starved client.
						c.count("http closed when idle")
						ok = false
						break
					}
					if err != nil {
						if burst == 0 && i == 0 && timedOut(err) && neverEstablished(conn) {
							c.count("http never established (accept queue full)")
						} else {
							shed = c.httpFail(err, burst == 0 && i == 0, rc)
						}
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
					c.add("http body bytes checked", len(got))
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
			switch {
			case closed || !c.running():
				c.count("slowloris closed")
			case neverEstablished(conn):
				c.count("slowloris never established (accept queue full)")
			default:
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
			case err == nil && resp.StatusCode == 408:
				// The bad line came later than HeadersTimeout after the connection's start:
				// a client starved of CPU, as above.
				c.count("http 408 (a client too slow)")
			case err != nil && gone(err):
				c.count("http shed")
				shed = true
			case err != nil && !strings.Contains(err.Error(), "malformed"):
				shed = c.httpFail(err, true, rc)
			default:
				c.count("http wrong answer")
				if os.Getenv("UVSOAK_DEBUG") != "" {
					status := 0
					if resp != nil {
						status = resp.StatusCode
					}
					c.count(fmt.Sprintf("http wrong answer to a malformed request: %d %v", status, err))
				}
			}
			conn.Close()
		}
		b.after(shed)
	}
}

// httpFail counts a failed exchange, by the error of the read under the parser (rc): a
// head cut by the deadline reads as a malformed head, since bufio hands the parser the
// partial line and drops the timeout.
func (c *clients) httpFail(err error, first bool, rc *recordingConn) (shed bool) {
	err = rc.cause(err)
	switch {
	case first && gone(err):
		c.count("http shed")
		return true
	case timedOut(err):
		c.count("http stalled")
	default:
		c.count("http cut")
		if os.Getenv("UVSOAK_DEBUG") != "" {
			c.count(fmt.Sprintf("http cut: first %v: %v", first, err))
		}
	}
	return false
}
