package nodenet

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/uvloop"
)

// The review's differential scenarios: the same Node-style program runs on epoll and on
// io_uring, each with and without an OS thread of the loop's own, and the logs must match
// (and match Node's where Node's order is deterministic).

// runMode is run on a loop of mode m; it reports false if the backend is missing.
func runMode(t *testing.T, m looptest.Mode, setup func(l *uvloop.Loop)) bool {
	t.Helper()
	before := openFds()
	l, ok := m.New(t)
	if !ok {
		return false
	}
	setup(l)
	dog := l.SetTimeout(func() {
		t.Errorf("%s: watchdog: the loop is still alive after 20s", m.Name)
		l.Stop()
	}, 20*time.Second)
	dog.Unref()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Errorf("%s: Run: %v", m.Name, err)
	}
	closeLoop(t, l)
	if after := openFds(); before >= 0 && after != before {
		t.Errorf("%s: fds: %d before, %d after", m.Name, before, after)
	}
	return true
}

// diffModes runs scenario in every mode and compares each mode's log with want (if not
// nil) or else with epoll's.
func diffModes(t *testing.T, want []string, scenario func(t *testing.T, l *uvloop.Loop, log func(format string, args ...any))) {
	t.Helper()
	var ref []string
	for _, m := range looptest.Modes {
		var got []string
		log := func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) }
		if !runMode(t, m, func(l *uvloop.Loop) { scenario(t, l, log) }) {
			t.Logf("%s: not available", m.Name)
			continue
		}
		looptest.Compare(t, m, got, want, &ref)
	}
}

func errCode(err error) string {
	if err == nil {
		return "nil"
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return err.Error()
}

// big is a write larger than any socket buffer on this machine's defaults.
var big = make([]byte, 8<<20)

// write(cb) of more than the socket takes, a small write(cb), end(), then destroy() at
// once, from a nextTick, from setImmediate, or from the small write's callback: every
// callback, event and writableLength is the same on every backend, and node v20's (the
// same script in JS). Both callbacks got ECANCELED before the fix; node calls back the write
// its handle had with no error, and the buffered one with ERR_STREAM_DESTROYED.
func TestReviewWriteEndDestroy(t *testing.T) {
	head := []string{"write big false len=8388608", "write tail false len=8388612", "end len=8388612"}
	destroyed := append(head[:3:3], "cb big nil", "cb tail ERR_STREAM_DESTROYED", "close false len=0")
	wants := map[string][]string{
		"sync": destroyed, "tick": destroyed, "immediate": destroyed,
		"smallcb": append(head[:3:3], "cb big nil", "cb tail nil", "close false len=0", "server close"),
	}
	for _, when := range []string{"sync", "tick", "immediate", "smallcb"} {
		t.Run(when, func(t *testing.T) {
			diffModes(t, wants[when], func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
				var srv *Socket
				listen(t, l, func(sock *Socket) {
					srv = sock
					sock.Pause()
					sock.OnError(func(error) {})
					sock.OnClose(func(bool) { log("server close") })
				}, func(s *Server, port int) {
					c := Connect(l, port, "127.0.0.1", nil)
					c.OnError(func(err error) { log("error %s", errCode(err)) })
					c.OnFinish(func() { log("finish") })
					c.OnClose(func(had bool) {
						log("close %v len=%d", had, c.BufferedAmount())
						s.Close(nil)
					})
					c.OnConnect(func() {
						ok := c.Write(big, func(err error) { log("cb big %s", errCode(err)) })
						log("write big %v len=%d", ok, c.BufferedAmount())
						ok = c.WriteString("tail", func(err error) {
							log("cb tail %s", errCode(err))
							if when == "smallcb" {
								c.Destroy(nil)
							}
						})
						log("write tail %v len=%d", ok, c.BufferedAmount())
						c.End(nil)
						log("end len=%d", c.BufferedAmount())
						switch when {
						case "sync":
							c.Destroy(nil)
						case "tick":
							l.NextTick(func() { c.Destroy(nil) })
						case "immediate":
							l.SetImmediate(func() { c.Destroy(nil) })
						case "smallcb":
							// the server reads, so that the writes complete
							l.SetImmediate(func() {
								srv.OnData(func([]byte) {})
								srv.Resume()
							})
						}
					})
				})
			})
		})
	}
}

// 'drain' and writableLength across a send in flight: the server reads only once the
// client's first write returned false; "drain" comes before the callbacks, once.
func TestReviewDrain(t *testing.T) {
	diffModes(t, nil, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		var srv *Socket
		n := 0
		listen(t, l, func(sock *Socket) {
			srv = sock
			sock.Pause()
			sock.OnData(func(b []byte) { n += len(b) })
			sock.OnEnd(func() { log("server end %d", n) })
			sock.OnClose(func(bool) { log("server close") })
		}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			c.OnError(func(err error) { log("error %s", errCode(err)) })
			drains := 0
			c.OnDrain(func() {
				drains++
				log("drain len=%d", c.BufferedAmount())
				if drains == 1 {
					ok := c.WriteString("more", func(err error) { log("cb more %s", errCode(err)) })
					log("write more %v len=%d", ok, c.BufferedAmount())
					c.End(nil)
				}
			})
			c.OnFinish(func() { log("finish len=%d", c.BufferedAmount()) })
			c.OnEnd(func() { log("end") })
			c.OnClose(func(had bool) { log("close %v", had); s.Close(nil) })
			c.OnConnect(func() {
				for i := 0; i < 3; i++ {
					ok := c.Write(big[:1<<20], func(err error) { log("cb %d %s", i, errCode(err)) })
					log("write %d %v len=%d", i, ok, c.BufferedAmount())
				}
				l.NextTick(func() { log("tick len=%d", c.BufferedAmount()) })
				l.SetImmediate(func() {
					log("immediate len=%d", c.BufferedAmount())
					srv.Resume()
				})
			})
		})
	})
}

// setTimeout with a send stuck in flight: "timeout" comes (nothing moves), then the peer
// reads and everything completes.
func TestReviewTimeoutSendInFlight(t *testing.T) {
	diffModes(t, nil, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		var srv *Socket
		n := 0
		listen(t, l, func(sock *Socket) {
			srv = sock
			sock.Pause()
			sock.OnData(func(b []byte) { n += len(b) })
			sock.OnEnd(func() { log("server end %d", n) })
		}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			c.OnError(func(err error) { log("error %s", errCode(err)) })
			timeouts := 0
			c.OnTimeout(func() {
				timeouts++
				if timeouts == 1 {
					log("timeout len=%d", c.BufferedAmount())
					srv.Resume()
				}
			})
			c.OnFinish(func() { log("finish") })
			c.OnClose(func(had bool) { log("close %v", had); s.Close(nil) })
			c.OnConnect(func() {
				c.SetTimeout(30*time.Millisecond, nil)
				c.Write(big, func(err error) { log("cb %s", errCode(err)); c.SetTimeout(0, nil) })
				c.End(nil)
			})
		})
	})
}

// allowHalfOpen on the server: the client ends, the server answers after "end", then
// ends.
func TestReviewAllowHalfOpen(t *testing.T) {
	diffModes(t, nil, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		s := CreateServer(l, func(sock *Socket) {
			sock.OnDataString(func(d string) { log("server data %s", d) })
			sock.OnEnd(func() {
				log("server end")
				sock.WriteString("pong", func(err error) { log("server cb %s", errCode(err)) })
				l.SetImmediate(func() { sock.End(nil) })
			})
			sock.OnFinish(func() { log("server finish") })
			sock.OnClose(func(had bool) { log("server close %v", had) })
		})
		s.AllowHalfOpen = true
		s.Listen(0, "127.0.0.1", func() {
			c := Connect(l, s.Address().Port, "127.0.0.1", nil)
			c.OnDataString(func(d string) { log("client data %s", d) })
			c.OnFinish(func() { log("client finish") })
			c.OnEnd(func() { log("client end") })
			c.OnClose(func(had bool) { log("client close %v", had); s.Close(nil) })
			c.EndString("ping")
		})
	})
}

// server.close() with a connection open: the callback waits for it.
func TestReviewServerCloseWithOpenSocket(t *testing.T) {
	diffModes(t, nil, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		var s *Server
		s = listen(t, l, func(sock *Socket) {
			log("connection")
			s.Close(func(err error) { log("server close cb %s", errCode(err)) })
			s.OnClose(func() { log("server close") })
			sock.OnEnd(func() { log("server sock end") })
			sock.OnClose(func(had bool) { log("server sock close %v", had) })
			sock.WriteString("bye", func(err error) { log("server cb %s", errCode(err)) })
		}, func(_ *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			c.OnDataString(func(d string) { log("client data %s", d); c.End(nil) })
			c.OnEnd(func() { log("client end") })
			c.OnClose(func(had bool) { log("client close %v", had) })
		})
	})
}

// The peer pauses, then destroys its socket: with the client's bytes unread in it, which
// the client sees as ECONNRESET, first, then "close"; with none (size 0: a paused socket
// still reads up to its high-water mark), as the end. On io_uring the kernel had read the
// unread bytes for the paused stream (held), and closing sent a FIN: the client saw "end",
// "finish", "close false" (fixed: closing a stream with held bytes resets the connection).
// want is what node v20 prints for the same script; with 8 MiB the write in flight when the
// reset destroys the socket calls back with no error, as in TestReviewWriteEndDestroy.
func TestReviewReset(t *testing.T) {
	wants := map[int][]string{
		0:        {"cb x nil", "end", "finish", "close false", "server close false"},
		64 << 10: {"cb x nil", "cb big nil", "error ECONNRESET", "close true", "server close false"},
		8 << 20:  {"cb x nil", "error ECONNRESET", "cb big nil", "close true", "server close false"},
	}
	for _, size := range []int{0, 64 << 10, 8 << 20} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			diffModes(t, wants[size], func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
				listen(t, l, func(sock *Socket) {
					sock.Pause()
					sock.OnClose(func(had bool) { log("server close %v", had) })
					// once the client's bytes are in the socket (one write put them all there),
					// close it with those the paused socket did not take unread
					whenRead(l, sock, min(size+1, highWaterMark), func() { sock.Destroy(nil) })
				}, func(s *Server, port int) {
					c := Connect(l, port, "127.0.0.1", nil)
					c.OnError(func(err error) { log("error %s", errCode(err)) })
					c.OnEnd(func() { log("end") })
					c.OnFinish(func() { log("finish") })
					c.OnClose(func(had bool) { log("close %v", had); s.Close(nil) })
					c.OnConnect(func() {
						c.Write([]byte("x"), func(err error) { log("cb x %s", errCode(err)) })
						if size > 0 {
							c.Write(big[:size], func(err error) { log("cb big %s", errCode(err)) })
						}
						c.OnData(func([]byte) {})
					})
				})
			})
		})
	}
}

// socket.pipe(socket) echo of a body larger than the buffers, with backpressure on both
// sides; the client pauses now and then.
func TestReviewPipeEcho(t *testing.T) {
	diffModes(t, nil, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		listen(t, l, func(sock *Socket) {
			Pipe(sock, sock, true)
			sock.OnEnd(func() { log("server end") })
			sock.OnFinish(func() { log("server finish") })
			sock.OnClose(func(had bool) { log("server close %v", had) })
		}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			n, chunks := 0, 0
			c.OnData(func(b []byte) {
				n += len(b)
				chunks++
				if chunks%7 == 0 {
					c.Pause()
					l.SetImmediate(func() { c.Resume() })
				}
			})
			c.OnFinish(func() { log("client finish") })
			c.OnEnd(func() { log("client end %d", n) })
			c.OnClose(func(had bool) { log("client close %v", had); s.Close(nil) })
			body := big[:3<<20]
			for i := 0; i < len(body); i += 256 << 10 {
				c.Write(body[i:i+256<<10], nil)
			}
			c.End(nil)
		})
	})
}

// A paused-and-resumed reader of a large body that ends, with SetEncoding("utf8") and
// characters split between reads: every byte arrives, in order, and "end" after the last.
func TestReviewPauseResumeEncoding(t *testing.T) {
	body := []byte(strings.Repeat("añ€😀", 200<<10)) // 2 MiB, 1-4 byte characters
	diffModes(t, nil, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		listen(t, l, func(sock *Socket) {
			sock.OnData(func([]byte) {})
			sock.Write(body, func(err error) { log("server cb %s", errCode(err)) })
			sock.End(nil)
			sock.OnClose(func(had bool) { log("server close %v", had) })
		}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			if err := c.SetEncoding("utf8"); err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			chunks, ended := 0, false
			c.OnDataString(func(d string) {
				if ended {
					log("data after end")
				}
				got.WriteString(d)
				if chunks++; chunks%3 == 0 {
					c.Pause()
					l.SetImmediate(func() { c.Resume() })
				}
			})
			c.OnEnd(func() {
				ended = true
				log("end intact=%v", got.String() == string(body))
			})
			c.OnClose(func(had bool) { log("close %v", had); s.Close(nil) })
		})
	})
}

// The client ends while the server's large write is in flight; the server, not half-open,
// ends after "end", once its writes are written: the client gets every byte, then "end".
func TestReviewEndDuringPeerSend(t *testing.T) {
	diffModes(t, nil, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		listen(t, l, func(sock *Socket) {
			sock.OnData(func([]byte) {})
			sock.Write(big, func(err error) { log("server cb %s", errCode(err)) })
			sock.OnEnd(func() { log("server end len>0=%v", sock.BufferedAmount() > 0) })
			sock.OnFinish(func() { log("server finish") })
			sock.OnClose(func(had bool) { log("server close %v", had) })
		}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			n := 0
			c.OnData(func(b []byte) {
				n += len(b)
				if n == len(b) {
					c.End(nil)
				}
			})
			c.OnFinish(func() { log("finish") })
			c.OnEnd(func() { log("end %d", n) })
			c.OnClose(func(had bool) { log("close %v", had); s.Close(nil) })
		})
	})
}

// A half-open client writes after the peer closed: the first write goes out (the peer
// answers with a reset), a later one fails; "error" and the callbacks come in the same
// order on every backend, and as node v20 prints them for the same script.
func TestReviewWriteAfterPeerClose(t *testing.T) {
	want := []string{"end", "cb a nil", "cb b EPIPE", "cb c EPIPE", "error EPIPE", "close true", "server close false"}
	diffModes(t, want, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		listen(t, l, func(sock *Socket) {
			sock.OnData(func([]byte) {})
			sock.OnClose(func(had bool) { log("server close %v", had) })
			sock.Destroy(nil)
		}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			c.AllowHalfOpen = true
			c.OnError(func(err error) { log("error %s", errCode(err)) })
			c.OnEnd(func() {
				log("end")
				c.WriteString("a", func(err error) {
					log("cb a %s", errCode(err))
					l.SetTimeout(func() {
						c.WriteString("b", func(err error) { log("cb b %s", errCode(err)) })
						c.Write(big[:1<<20], func(err error) { log("cb c %s", errCode(err)) })
					}, 20*time.Millisecond)
				})
			})
			c.OnData(func([]byte) {})
			c.OnClose(func(had bool) { log("close %v", had); s.Close(nil) })
		})
	})
}

// Corked writes (one of them larger than the socket takes) go out as one write on
// Uncork; the socket is destroyed from the last callback. want is node v20's.
func TestReviewCorkDestroy(t *testing.T) {
	want := []string{"len=8388611", "cb a nil", "cb b nil", "cb big nil", "cb d nil", "cb e nil", "close false len=0", "server close false"}
	diffModes(t, want, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		var srv *Socket
		listen(t, l, func(sock *Socket) {
			srv = sock
			sock.Pause()
			sock.OnData(func([]byte) {})
			sock.OnClose(func(had bool) { log("server close %v", had) })
		}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			c.OnError(func(err error) { log("error %s", errCode(err)) })
			c.OnClose(func(had bool) { log("close %v len=%d", had, c.BufferedAmount()); s.Close(nil) })
			c.OnConnect(func() {
				c.WriteString("a", func(err error) { log("cb a %s", errCode(err)) })
				c.Cork()
				c.WriteString("b", func(err error) { log("cb b %s", errCode(err)) })
				c.Write(big, func(err error) { log("cb big %s", errCode(err)) })
				c.WriteString("d", func(err error) { log("cb d %s", errCode(err)) })
				c.Uncork()
				c.WriteString("e", func(err error) { log("cb e %s", errCode(err)); c.Destroy(nil) })
				log("len=%d", c.BufferedAmount())
				l.SetImmediate(func() { srv.Resume() })
			})
		})
	})
}

// The server destroys a flowing socket from its first "data" while the client's large
// write is still coming: the client sees the reset as on epoll (and in node).
func TestReviewDestroyWhileReading(t *testing.T) {
	for _, where := range []string{"data", "immediate"} {
		t.Run(where, func(t *testing.T) {
			diffModes(t, nil, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
				listen(t, l, func(sock *Socket) {
					first := true
					sock.OnData(func([]byte) {
						if !first {
							return
						}
						first = false
						if where == "data" {
							sock.Destroy(nil)
						} else {
							l.SetImmediate(func() { sock.Destroy(nil) })
						}
					})
					sock.OnClose(func(had bool) { log("server close %v", had) })
				}, func(s *Server, port int) {
					c := Connect(l, port, "127.0.0.1", nil)
					c.OnError(func(err error) { log("error %s", errCode(err)) })
					c.OnEnd(func() { log("end") })
					c.OnFinish(func() { log("finish") })
					c.OnClose(func(had bool) { log("close %v", had); s.Close(nil) })
					c.Write(big, func(err error) { log("cb big %s", errCode(err)) })
					c.OnData(func([]byte) {})
				})
			})
		})
	}
}

// A program that drives the loop a step at a time (RunOnce) and uses its sockets from the
// caller between the steps, as a port embedded in a Go program does: writes larger than
// the socket takes, a pause and resume, a destroy with bytes unread (or held). The same on
// every mode.
func TestReviewBetweenRuns(t *testing.T) {
	diffModes(t, nil, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		var srv, cli *Socket
		n := 0
		s := listen(t, l, func(sock *Socket) {
			srv = sock
			sock.OnData(func(b []byte) { n += len(b) })
			sock.OnEnd(func() { log("server end %d", n) })
			sock.OnClose(func(had bool) { log("server close %v", had) })
		}, func(_ *Server, port int) {
			cli = Connect(l, port, "127.0.0.1", nil)
			cli.OnError(func(err error) { log("error %s", errCode(err)) })
			cli.OnData(func([]byte) {})
			cli.OnEnd(func() { log("end") })
			cli.OnClose(func(had bool) { log("close %v", had) })
		})
		step := func(cond func() bool) {
			for i := 0; i < 10000 && !cond(); i++ {
				if _, err := l.Run(uvloop.RunOnce); err != nil {
					t.Error(err)
					return
				}
			}
		}
		step(func() bool { return srv != nil && cli != nil && !cli.Connecting() })
		srv.Pause()
		cli.Write(big, func(err error) { log("cb big %s", errCode(err)) })
		cli.WriteString("x", func(err error) { log("cb x %s", errCode(err)) })
		log("len=%d", cli.BufferedAmount())
		l.Run(uvloop.RunNoWait)
		srv.Resume()
		step(func() bool { return cli.BufferedAmount() == 0 })
		log("written len=%d", cli.BufferedAmount())
		// more than a paused server socket reads, then destroy it from here
		srv.Pause()
		read := srv.BytesRead()
		cli.Write(big, func(err error) { log("cb big 2 %s", errCode(err)) })
		step(func() bool { return srv.BytesRead() >= read+highWaterMark })
		l.Run(uvloop.RunNoWait)
		srv.Destroy(nil)
		s.Close(nil)
	})
}

// Several clients connect at once; the server closes from its first "connection": the
// other clients, whose handshakes the kernel completed, see the same events on every
// backend (sorted: their order is the kernel's).
func TestReviewServerCloseWhileAccepting(t *testing.T) {
	diffModes(t, nil, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		var lines []string
		accepted := 0
		var s *Server
		s = listen(t, l, func(sock *Socket) {
			if accepted++; accepted == 1 {
				s.Close(func(err error) { log("server close cb %s", errCode(err)) })
			}
			sock.OnData(func([]byte) {})
			sock.End([]byte("hi"))
		}, func(_ *Server, port int) {
			open := 5
			for i := 0; i < 5; i++ {
				c := Connect(l, port, "127.0.0.1", nil)
				var ev []string
				c.OnConnect(func() { ev = append(ev, "connect") })
				c.OnDataString(func(d string) { ev = append(ev, "data "+d) })
				c.OnError(func(err error) { ev = append(ev, "error "+errCode(err)) })
				c.OnEnd(func() { ev = append(ev, "end") })
				c.OnClose(func(had bool) {
					ev = append(ev, fmt.Sprint("close ", had))
					lines = append(lines, strings.Join(ev, ","))
					if open--; open == 0 {
						sort.Strings(lines)
						for _, s := range lines {
							log("%s", s)
						}
						log("accepted %d", accepted)
					}
				})
			}
		})
	})
}

// The client writes more than one read takes (the loop reads 64 KiB at a time on
// readiness) and waits; the server destroys its socket from the first "data": the rest is
// unread, so the client sees a reset, as on epoll and in node (want is node v20's). On
// io_uring the kernel had read the rest too, reported later in the same batch, and closing
// sent a FIN: the client saw "end" (fixed: closing a stream whose bytes are later in the
// batch resets the connection, as with held bytes).
func TestReviewDestroyFromFirstData(t *testing.T) {
	for _, size := range []int{100 << 10, 600 << 10} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			want := []string{"cb nil", "error ECONNRESET", "close true", "server data", "server close false"}
			diffModes(t, want, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
				var s *Server
				first := true
				s = listen(t, l, func(sock *Socket) {
					sock.OnData(func([]byte) {
						if first {
							first = false
							log("server data")
							sock.Destroy(nil)
						}
					})
					sock.OnClose(func(had bool) { log("server close %v", had) })
				}, func(_ *Server, port int) {
					c := Connect(l, port, "127.0.0.1", nil)
					c.OnError(func(err error) { log("error %s", errCode(err)) })
					c.OnEnd(func() { log("end") })
					c.OnClose(func(had bool) { log("close %v", had); s.Close(nil) })
					c.OnData(func([]byte) {})
					c.Write(big[:size], func(err error) { log("cb %s", errCode(err)) })
				})
			})
		})
	}
}

// whenRead calls fn from a setImmediate once sock has read n bytes.
func whenRead(l *uvloop.Loop, sock *Socket, n int, fn func()) {
	l.SetImmediate(func() {
		if sock.BytesRead() >= n {
			fn()
			return
		}
		whenRead(l, sock, n, fn)
	})
}

// dgram: a ping-pong of datagrams, send callbacks, a send to a closed port (ECONNREFUSED on
// a connected socket), close from a message callback.
func TestReviewDgram(t *testing.T) {
	diffModes(t, nil, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		var a, b *DgramSocket
		var err error
		b, err = CreateDgramSocket(l, "udp4", func(msg []byte, r RemoteInfo) {
			log("server msg %s", msg)
			b.Send(append([]byte("re:"), msg...), r.Port, r.Address, func(err error, n int) { log("server sent %s %d", errCode(err), n) })
		})
		if err != nil {
			t.Fatal(err)
		}
		a, err = CreateDgramSocket(l, "udp4", func(msg []byte, r RemoteInfo) {
			log("msg %s", msg)
			if string(msg) == "re:3" {
				a.Close(func() { log("close") })
				b.Close(func() { log("server close") })
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		a.On("error", func(args ...any) { log("error %s", errCode(args[0].(error))) })
		b.Bind(0, "127.0.0.1", func() {
			addr, _ := b.Address()
			for i := 1; i <= 3; i++ {
				a.SendString(fmt.Sprint(i), addr.Port, "127.0.0.1", func(err error, n int) { log("sent %d %s %d", i, errCode(err), n) })
			}
		})
	})
}
