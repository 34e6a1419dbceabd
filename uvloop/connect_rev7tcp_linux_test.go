package uvloop_test

import (
	"io"
	"net"
	"net/netip"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// rev7Diff runs scenario on each backend (ringWriteDiff), on plain loops and on loops of
// their own thread.
func rev7Diff(t *testing.T, scenario func(t *testing.T, l *uvloop.Loop) []string) {
	t.Setenv(uvloop.OwnThreadEnv, "0")
	t.Run("plain", func(t *testing.T) { ringWriteDiff(t, scenario) })
	t.Run("own", func(t *testing.T) { ringWriteDiffWith(t, []uvloop.Option{uvloop.WithOwnThread()}, scenario) })
}

// rev7Accepted returns a stream the loop accepted (through the ring's multishot accept on
// io_uring) and the Go client at its other end; the listener is closed.
func rev7Accepted(t *testing.T, l *uvloop.Loop) (*uvloop.TCP, *net.TCPConn) {
	t.Helper()
	var c *uvloop.TCP
	srv, addr := listenTCP(t, l, func(server *uvloop.TCP, err error) {
		mustOK(t, err)
		c = acceptTCP(t, server)
	})
	p, err := net.Dial("tcp", addr.String())
	mustOK(t, err)
	runUntil(t, l, "accept", func() bool { return c != nil })
	srv.Close(nil)
	return c, p.(*net.TCPConn)
}

// rev7ClosedPort returns a loopback address on which nothing listens.
func rev7ClosedPort(t *testing.T) netip.AddrPort {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	mustOK(t, err)
	addr := ln.Addr().(*net.TCPAddr).AddrPort()
	ln.Close()
	return addr
}

// rev7Connecting starts a connect of a new TCP of l to a Go listener that never accepts (the
// kernel completes the handshake), open until the test ends.
func rev7Connecting(t *testing.T, l *uvloop.Loop, cb func(error)) *uvloop.TCP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	mustOK(t, err)
	t.Cleanup(func() { ln.Close() })
	c, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, c.Connect(ln.Addr().(*net.TCPAddr).AddrPort(), cb))
	return c
}

// A connect refused (nothing listens): the connect callback gets ECONNREFUSED, then the
// writes queued behind it fail with ECANCELED, in order, and the handle closes cleanly; an
// immediate queued with the Connect tells in which phase the refusal came.
func TestRev7ConnectRefusedDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		c, err := l.NewTCP()
		mustOK(t, err)
		done := false
		mustOK(t, c.Connect(rev7ClosedPort(t), func(err error) {
			g.add("connect %s", ringWriteErr(err))
			if err := c.Write([]byte("late"), nil); err != nil {
				g.add("write in connect cb: %s", ringWriteErr(err))
			}
			done = true
		}))
		mustOK(t, c.Write([]byte("a"), g.cb("w1")))
		mustOK(t, c.Writev([][]byte{[]byte("b"), []byte("c")}, g.cb("w2")))
		if err := c.Shutdown(g.cb("shutdown")); err != nil {
			g.add("shutdown: %s", ringWriteErr(err))
		}
		g.add("queued %d", c.WriteQueueSize())
		runUntil(t, l, "connect", func() bool { return done })
		g.add("queued %d readable %v writable %v", c.WriteQueueSize(), c.IsReadable(), c.IsWritable())
		ringWriteClose(t, l, c, &g, false)
		return g
	})
}

// Close while the connect is in flight, with writes and a shutdown queued behind it: the
// connect callback, each write's and the shutdown's run once, with ECANCELED, in that order,
// before the close callback; the server's end reads nothing and sees the end.
func TestRev7ConnectCloseDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		c := rev7Connecting(t, l, g.cb("connect"))
		mustOK(t, c.Write([]byte("a"), g.cb("w1")))
		mustOK(t, c.Write([]byte("b"), g.cb("w2")))
		mustOK(t, c.Shutdown(g.cb("shutdown")))
		ringWriteClose(t, l, c, &g, false)
		return g
	})
}

// Shutdown's edges on an accepted stream: writes queued before it go out first (their
// callbacks, then the shutdown's), a second Shutdown fails with ENOTCONN and a Write after
// it with EPIPE, both leaving the stream as it was; the peer reads the bytes, then the end.
// The stream still reads (half open): the peer's reply arrives, then its end.
func TestRev7ShutdownEdgesDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		c, p := rev7Accepted(t, l)
		defer p.Close()
		var got []byte
		eof := false
		mustOK(t, c.ReadStart(func(data []byte, err error) {
			if err != nil {
				g.add("read %s", ringWriteErr(err))
				eof = true
				return
			}
			got = append(got, data...)
		}))
		mustOK(t, c.Write([]byte("ab"), g.cb("w1")))
		mustOK(t, c.Writev([][]byte{[]byte("c"), []byte("d")}, g.cb("w2")))
		shut := false
		mustOK(t, c.Shutdown(func(err error) { g.add("shutdown %s", ringWriteErr(err)); shut = true }))
		g.add("again: %s", ringWriteErr(c.Shutdown(g.cb("shutdown2"))))
		g.add("write after: %s", ringWriteErr(c.Write([]byte("x"), g.cb("w3"))))
		g.add("writable %v readable %v", c.IsWritable(), c.IsReadable())
		runUntil(t, l, "shutdown", func() bool { return shut })
		all, err := ringWritePeer(p)
		g.add("peer read %q %s", all, ringWriteErr(err))
		_, err = p.Write([]byte("reply"))
		mustOK(t, err)
		mustOK(t, p.CloseWrite())
		runUntil(t, l, "eof", func() bool { return eof })
		g.add("got %q", got)
		g.add("again after: %s", ringWriteErr(c.Shutdown(nil)))
		ringWriteClose(t, l, c, &g, false)
		return g
	})
}

// Shutdown then Close in the same callback, with a write queued: the write goes out (its
// callback nil, as write(2) took it inside Write on epoll), the shutdown is cancelled, and
// the peer reads the bytes, then the end.
func TestRev7ShutdownThenCloseDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		c, p := rev7Accepted(t, l)
		defer p.Close()
		mustOK(t, c.Write([]byte("bytes"), g.cb("w1")))
		mustOK(t, c.Shutdown(g.cb("shutdown")))
		ringWriteClose(t, l, c, &g, false)
		all, err := ringWritePeer(p)
		g.add("peer read %q %s", all, ringWriteErr(err))
		return g
	})
}

// The socket options of an accepted stream (a ring socket on io_uring): those set on the
// handle before Accept reach the accepted socket, and setting them after works as well.
func TestRev7AcceptedOptionsDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		var c *uvloop.TCP
		srv, addr := listenTCP(t, l, func(server *uvloop.TCP, err error) {
			mustOK(t, err)
			c, err = l.NewTCP()
			mustOK(t, err)
			mustOK(t, c.SetNoDelay(true))
			mustOK(t, c.SetKeepAlive(true, 7*time.Second))
			mustOK(t, server.Accept(c))
		})
		p, err := net.Dial("tcp", addr.String())
		mustOK(t, err)
		defer p.Close()
		runUntil(t, l, "accept", func() bool { return c != nil })
		srv.Close(nil)
		opts := func(when string) {
			nd, _ := unix.GetsockoptInt(c.Fd(), unix.IPPROTO_TCP, unix.TCP_NODELAY)
			ka, _ := unix.GetsockoptInt(c.Fd(), unix.SOL_SOCKET, unix.SO_KEEPALIVE)
			idle, _ := unix.GetsockoptInt(c.Fd(), unix.IPPROTO_TCP, unix.TCP_KEEPIDLE)
			g.add("%s nodelay %d keepalive %d idle %d", when, nd, ka, idle)
		}
		opts("accepted")
		mustOK(t, c.SetNoDelay(false))
		mustOK(t, c.SetKeepAlive(false, 0))
		opts("off")
		mustOK(t, c.SetKeepAlive(true, 1500*time.Millisecond))
		opts("on again")
		// The stream still works through the ring after the setters.
		mustOK(t, c.Write([]byte("ok"), g.cb("w")))
		c.Close(nil)
		all, err := ringWritePeer(p.(*net.TCPConn))
		g.add("peer read %q %s", all, ringWriteErr(err))
		return g
	})
}

// ReadStart right after Connect, before the connect completes (libuv allows it): the connect
// callback hears the outcome first, then the read callback what the socket gives. Through
// the ring the receive started at once and took the connect's error from the socket: the
// read callback got ECONNREFUSED, and then the connect callback nil, a refused connect
// reported as made. Each case also has a write queued behind the connect.
func TestRev7ReadWhileConnectingDiff(t *testing.T) {
	for _, tc := range []struct {
		name   string
		listen bool // a peer listens (and answers "hi" to the write), else the connect is refused
		stop   bool // the connect callback stops reading
	}{
		{name: "refused"},
		{name: "refused-stop", stop: true},
		{name: "connected", listen: true},
		{name: "connected-stop", listen: true, stop: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
				var g ringWriteLog
				addr := rev7ClosedPort(t)
				var peer chan net.Conn
				answered := make(chan struct{})
				if tc.listen {
					ln, err := net.Listen("tcp", "127.0.0.1:0")
					mustOK(t, err)
					defer ln.Close()
					addr = ln.Addr().(*net.TCPAddr).AddrPort()
					peer = make(chan net.Conn, 1)
					go func() {
						p, err := ln.Accept()
						if err == nil {
							p.SetReadDeadline(time.Now().Add(5 * time.Second))
							if _, err := io.ReadFull(p, make([]byte, 1)); err == nil {
								p.Write([]byte("hi"))
							}
						}
						peer <- p
						close(answered)
					}()
				}
				c, err := l.NewTCP()
				mustOK(t, err)
				done, ended := false, false
				mustOK(t, c.Connect(addr, func(err error) {
					g.add("connect %s", ringWriteErr(err))
					if tc.stop {
						mustOK(t, c.ReadStop())
					}
					done = true
				}))
				mustOK(t, c.ReadStart(func(data []byte, err error) {
					g.add("read %q %s", data, ringWriteErr(err))
					ended = ended || err != nil || tc.listen
				}))
				written := false
				mustOK(t, c.Write([]byte("w"), func(err error) { g.add("w %s", ringWriteErr(err)); written = true }))
				runUntil(t, l, "connect and write", func() bool { return done && written })
				if !tc.stop {
					runUntil(t, l, "a read", func() bool { return ended })
				}
				if tc.listen {
					<-answered // when reading stopped, "hi" stays unread: the close resets
				}
				runNoWaitN(t, l, 3)
				ringWriteClose(t, l, c, &g, false)
				if peer != nil {
					if p := <-peer; p != nil {
						g.add("peer %s", rev7PeerEnd(p))
						p.Close()
					}
				}
				return g
			})
		})
	}
}

// ReadStart on a bound, unconnected socket, then Connect: both backends tell the same.
func TestRev7ReadBeforeConnectDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		mustOK(t, err)
		defer ln.Close()
		c, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, c.Bind(loopback, 0))
		g.add("readstart %s", ringWriteErr(c.ReadStart(func(data []byte, err error) {
			g.add("read %q %s", data, ringWriteErr(err))
		})))
		runNoWaitN(t, l, 3)
		done := false
		g.add("connect %s", ringWriteErr(c.Connect(ln.Addr().(*net.TCPAddr).AddrPort(), func(err error) {
			g.add("connected %s", ringWriteErr(err))
			done = true
		})))
		runUntil(t, l, "connect", func() bool { return done || len(g) > 4 })
		runNoWaitN(t, l, 3)
		ringWriteClose(t, l, c, &g, false)
		return g
	})
}

// Stream A's read callback closes stream B, whose peer's end (EOF) is later in the same
// batch: B's read callback never runs, its close callback does, and B's peer sees an orderly
// end (nothing was left unread), on both backends.
func TestRev7CloseOtherWithEOFLaterInBatch(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		a, pa := rev7Accepted(t, l)
		defer pa.Close()
		b, pb := rev7Accepted(t, l)
		defer pb.Close()
		closed := false
		mustOK(t, a.ReadStart(func(data []byte, err error) {
			g.add("A read %q %s", data, ringWriteErr(err))
			if !b.IsClosing() {
				b.Close(func() { g.add("B closed"); closed = true })
			}
		}))
		mustOK(t, b.ReadStart(func(data []byte, err error) {
			g.add("B read %q %s", data, ringWriteErr(err))
		}))
		runNoWaitN(t, l, 3)
		_, err := pa.Write([]byte("a"))
		mustOK(t, err)
		mustOK(t, pb.CloseWrite())
		runUntil(t, l, "B closed", func() bool { return closed })
		g.add("B peer %s", rev7PeerEnd(pb))
		ringWriteClose(t, l, a, &g, false)
		return g
	})
}

// The peer half-closes first: the stream reads the bytes, then EOF, and still writes (half
// open); a ReadStart after the EOF reads it again; Shutdown then ends the other direction,
// and the peer reads both replies, then the end.
func TestRev7PeerHalfCloseFirstDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		c, p := rev7Accepted(t, l)
		defer p.Close()
		eofs, shut := 0, false
		var onRead func(data []byte, err error)
		onRead = func(data []byte, err error) {
			g.add("read %q %s", data, ringWriteErr(err))
			switch {
			case err == nil:
				mustOK(t, c.Write([]byte("r1"), g.cb("w1")))
			case eofs == 0:
				eofs++
				mustOK(t, c.Write([]byte("r2"), g.cb("w2")))
				g.add("readable %v writable %v", c.IsReadable(), c.IsWritable())
				g.add("readstart again %s", ringWriteErr(c.ReadStart(onRead)))
			default:
				eofs++
				mustOK(t, c.Shutdown(func(err error) { g.add("shutdown %s", ringWriteErr(err)); shut = true }))
			}
		}
		mustOK(t, c.ReadStart(onRead))
		_, err := p.Write([]byte("q"))
		mustOK(t, err)
		mustOK(t, p.CloseWrite())
		runUntil(t, l, "shutdown", func() bool { return shut })
		all, err := ringWritePeer(p)
		g.add("peer read %q %s", all, ringWriteErr(err))
		ringWriteClose(t, l, c, &g, false)
		return g
	})
}

// Connect, ReadStart and Close in one go: the connect callback gets ECANCELED before the
// close callback, and the read callback never runs, on both backends.
func TestRev7ReadWhileConnectingCloseDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		c := rev7Connecting(t, l, g.cb("connect"))
		mustOK(t, c.ReadStart(func(data []byte, err error) { g.add("read %q %s", data, ringWriteErr(err)) }))
		ringWriteClose(t, l, c, &g, false)
		recvs, sends := l.KernelWaitCounts()
		g.add("recvs %d sends %d", recvs, sends)
		return g
	})
}

// Shutdown right after Connect, with no write queued. The shutdown happens once the connect
// is made, its callback after the connect's, and the peer reads the end of the stream; after
// a refused connect it fails with ENOTCONN, after the connect callback. (It never ran on
// either backend: the connect's outcome stopped the wait for writability, the queue being
// empty, and nothing started the shutdown, which only Close ended, with ECANCELED.)
func TestShutdownWhileConnectingDiff(t *testing.T) {
	for _, refused := range []bool{false, true} {
		name := "accepted"
		if refused {
			name = "refused"
		}
		t.Run(name, func(t *testing.T) {
			rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
				var g ringWriteLog
				addr := rev7ClosedPort(t)
				var peer chan net.Conn
				if !refused {
					ln, err := net.Listen("tcp", "127.0.0.1:0")
					mustOK(t, err)
					defer ln.Close()
					addr = ln.Addr().(*net.TCPAddr).AddrPort()
					peer = make(chan net.Conn, 1)
					go func() {
						p, _ := ln.Accept()
						peer <- p
					}()
				}
				c, err := l.NewTCP()
				mustOK(t, err)
				mustOK(t, c.Connect(addr, g.cb("connect")))
				mustOK(t, c.Shutdown(g.cb("shutdown")))
				runUntil(t, l, "the shutdown callback", func() bool { return len(g) >= 2 })
				if !refused {
					p := <-peer
					if p == nil {
						t.Fatal("accept failed")
					}
					all, err := ringWritePeer(p.(*net.TCPConn))
					g.add("peer read %q %s", all, ringWriteErr(err))
					p.Close()
				}
				ringWriteClose(t, l, c, &g, false)
				return g
			})
		})
	}
}
