package uvloop_test

import (
	"errors"
	"io"
	"net/netip"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of more of libuv's TCP tests (test-tcp-bind-error.c, test-tcp-write-*.c,
// test-shutdown-*.c, ...), in our own words, each run in every mode. Each names the libuv test
// it ports.

// eachModeRev10l runs body in every mode of looptest.Modes, on a fresh loop with a watchdog
// that fails the test and closes every handle if the loop still runs after 10s; the loop is
// closed cleanly when body returns.
func eachModeRev10l(t *testing.T, body func(t *testing.T, l *uvloop.Loop)) {
	t.Helper()
	for _, m := range looptest.Modes {
		t.Run(m.Name, func(t *testing.T) {
			l, ok := m.New(t)
			if !ok {
				t.Skipf("%s is not available here", m.Name)
			}
			watchdog(t, l, 10*time.Second)
			body(t, l)
			closeLoop(t, l)
		})
	}
}

// tcp_bind_error_inval: a handle bound once cannot be bound again (EINVAL); its close
// callback runs once.
func TestLibuvTCPBindErrorInvalRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		s, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, s.Bind(loopback, 0))
		wantErrno(t, "second Bind", s.Bind(loopback, 0), syscall.EINVAL)
		closed := 0
		closeHandle(t, s, &closed)
		runLoop(t, l)
		if closed != 1 {
			t.Fatalf("close callbacks %d", closed)
		}
	})
}

// tcp_bind_error_addrinuse_listen: two handles bind the same port (Bind succeeds on both, as
// libuv sets SO_REUSEADDR); the first listens, the second's Listen fails with EADDRINUSE.
func TestLibuvTCPBindErrorAddrInUseListenRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		s1, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, s1.Bind(loopback, 0))
		addr, err := s1.LocalAddr()
		mustOK(t, err)
		s2, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, s2.Bind(addr, 0))
		mustOK(t, s1.Listen(128, func(error) { t.Error("a connection callback") }))
		wantErrno(t, "second Listen", s2.Listen(128, func(error) { t.Error("a connection callback") }), syscall.EADDRINUSE)
		closed := 0
		closeHandle(t, s1, &closed)
		closeHandle(t, s2, &closed)
		runLoop(t, l)
		if closed != 2 {
			t.Fatalf("close callbacks %d", closed)
		}
	})
}

// tcp_bind_error_addrinuse_connect: binding to the port of a listening socket succeeds, the
// error is delayed: LocalAddr reports EADDRINUSE, Connect succeeds and its callback gets
// EADDRINUSE.
func TestLibuvTCPBindErrorAddrInUseConnectRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		server, addr := listenTCP(t, l, func(*uvloop.TCP, error) { t.Error("a connection") })
		other, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, other.Bind(loopback, 0))
		otherAddr, err := other.LocalAddr()
		mustOK(t, err)
		mustOK(t, other.Listen(1, func(error) { t.Error("a connection") }))

		c, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, c.Bind(addr, 0))
		connects, closed := 0, 0
		mustOK(t, c.Connect(otherAddr, func(err error) {
			connects++
			wantErrno(t, "connect callback", err, syscall.EADDRINUSE)
			c.Close(func() { closed++ })
			server.Close(nil)
			other.Close(nil)
		}))
		_, err = c.LocalAddr()
		wantErrno(t, "LocalAddr", err, syscall.EADDRINUSE)
		runLoop(t, l)
		if connects != 1 || closed != 1 {
			t.Fatalf("connect callbacks %d, close callbacks %d", connects, closed)
		}
	})
}

// tcp_bind_error_addrnotavail_1 and _2: binding to 127.255.255.255 succeeds or fails with
// EADDRNOTAVAIL (Linux lets it succeed: all of 127/8 is local); binding to 4.4.4.4, not an
// address of the host, fails with EADDRNOTAVAIL. Each close callback runs once.
func TestLibuvTCPBindErrorAddrNotAvailRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		s, err := l.NewTCP()
		mustOK(t, err)
		if err := s.Bind(netip.MustParseAddrPort("127.255.255.255:0"), 0); err != nil {
			wantErrno(t, "Bind 127.255.255.255", err, syscall.EADDRNOTAVAIL)
		}
		s2, err := l.NewTCP()
		mustOK(t, err)
		wantErrno(t, "Bind 4.4.4.4", s2.Bind(netip.MustParseAddrPort("4.4.4.4:0"), 0), syscall.EADDRNOTAVAIL)
		closed := 0
		closeHandle(t, s, &closed)
		closeHandle(t, s2, &closed)
		runLoop(t, l)
		if closed != 2 {
			t.Fatalf("close callbacks %d", closed)
		}
	})
}

// tcp_bind_localhost_ok: binding to 127.0.0.1 succeeds.
func TestLibuvTCPBindLocalhostOKRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		s, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, s.Bind(loopback, 0))
		a, err := s.LocalAddr()
		mustOK(t, err)
		if a.Addr() != loopback.Addr() || a.Port() == 0 {
			t.Fatalf("bound to %v", a)
		}
		s.Close(nil)
	})
}

// tcp_listen_without_bind: Listen on a fresh handle succeeds (the kernel picks a port).
func TestLibuvTCPListenWithoutBindRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		s, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, s.Listen(128, func(error) { t.Error("a connection") }))
		s.Close(nil)
	})
}

// tcp_bind_writable_flags: a listening handle is neither readable nor writable; Write fails
// with EPIPE, Shutdown and ReadStart with ENOTCONN.
func TestLibuvTCPBindWritableFlagsRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		s, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, s.Bind(loopback, 0))
		mustOK(t, s.Listen(128, func(error) { t.Error("a connection") }))
		if s.IsReadable() || s.IsWritable() {
			t.Errorf("listener readable %v, writable %v", s.IsReadable(), s.IsWritable())
		}
		wantErrno(t, "Write", s.Write([]byte("PING"), func(error) { t.Error("a write callback") }), syscall.EPIPE)
		wantErrno(t, "Shutdown", s.Shutdown(func(error) { t.Error("a shutdown callback") }), syscall.ENOTCONN)
		wantErrno(t, "ReadStart", s.ReadStart(func([]byte, error) { t.Error("a read callback") }), syscall.ENOTCONN)
		closed := 0
		closeHandle(t, s, &closed)
		runLoop(t, l)
		if closed != 1 {
			t.Fatalf("close callbacks %d", closed)
		}
	})
}

// tcp_bind_or_listen_error_after_close: Bind and Listen on a closing handle fail. libuv says
// EINVAL; uvgo's misuse errors wrap ErrClosed instead (doc.go, DESIGN.md "Errors are values").
func TestLibuvTCPBindOrListenErrorAfterCloseRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		s, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, s.Close(nil))
		if err := s.Bind(loopback, 0); !errors.Is(err, uvloop.ErrClosed) {
			t.Errorf("Bind after Close: %v, want ErrClosed", err)
		}
		if err := s.Listen(5, func(error) { t.Error("a connection") }); !errors.Is(err, uvloop.ErrClosed) {
			t.Errorf("Listen after Close: %v, want ErrClosed", err)
		}
		runLoop(t, l)
	})
}

// refusedAddrRev10l returns the address of a TCP socket bound on 127.0.0.1 that does not
// listen: a connect to it is refused, and no other test can take its port meanwhile.
func refusedAddrRev10l(t *testing.T) netip.AddrPort {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	mustOK(t, err)
	unix.CloseOnExec(fd)
	t.Cleanup(func() { unix.Close(fd) })
	mustOK(t, unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}))
	sa, err := unix.Getsockname(fd)
	mustOK(t, err)
	a := sa.(*unix.SockaddrInet4)
	return netip.AddrPortFrom(netip.AddrFrom4(a.Addr), uint16(a.Port))
}

// commandServerRev10l listens on 127.0.0.1:0 and serves each connection as libuv's echo
// server does its commands: "QSH" resets the connection, "QS" shuts its side down (and the
// connection closes at EOF), anything else is echoed. unref'd, it does not keep the loop
// alive; the test closes it (closeLoop does).
func commandServerRev10l(t *testing.T, l *uvloop.Loop) (*uvloop.TCP, netip.AddrPort) {
	t.Helper()
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		c := acceptTCP(t, s)
		mustOK(t, c.ReadStart(func(data []byte, err error) {
			switch {
			case err != nil:
				c.Close(nil)
			case string(data) == "QSH":
				c.CloseReset(nil)
			case string(data) == "QS":
				mustOK(t, c.Shutdown(nil))
			default:
				mustOK(t, c.Write(append([]byte(nil), data...), nil))
			}
		}))
	})
	server.Unref()
	return server, addr
}

// tcp_write_after_connect and tcp_connect_error_after_write: a Write before Connect, on a
// handle with no socket, fails with EBADF; a Write queued behind a connect that is refused
// is cancelled: the connect callback gets ECONNREFUSED, then the write callback ECANCELED.
func TestLibuvTCPWriteAfterConnectRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		addr := refusedAddrRev10l(t)
		c, err := l.NewTCP()
		mustOK(t, err)
		wantErrno(t, "Write before Connect", c.Write([]byte("TEST"), func(error) { t.Error("a write callback") }), syscall.EBADF)
		var log []string
		closed := 0
		mustOK(t, c.Connect(addr, func(err error) {
			wantErrno(t, "connect callback", err, syscall.ECONNREFUSED)
			log = append(log, "connect")
		}))
		mustOK(t, c.Write([]byte("HELLO"), func(err error) {
			wantErrno(t, "write callback", err, syscall.ECANCELED)
			log = append(log, "write")
			c.Close(func() { closed++ })
		}))
		runLoop(t, l)
		if len(log) != 2 || log[0] != "connect" || log[1] != "write" || closed != 1 {
			t.Fatalf("callbacks %q, close callbacks %d", log, closed)
		}
	})
}

// tcp_try_write_error: once the server closed the accepted connection, the client's TryWrite
// goes on until it fails with EPIPE, ECONNABORTED or ECONNRESET, and queues nothing.
func TestLibuvTCPTryWriteErrorRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		var c *uvloop.TCP
		connects, conns, closed := 0, 0, 0
		_, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
			mustOK(t, err)
			conns++
			in := acceptTCP(t, s)
			in.Close(func() {
				closed++
				var err error
				for n := 1; n > 0; {
					n, err = c.TryWrite([]byte("meow"))
				}
				if !errors.Is(err, syscall.EPIPE) && !errors.Is(err, syscall.ECONNABORTED) && !errors.Is(err, syscall.ECONNRESET) {
					t.Errorf("TryWrite: %v, want EPIPE, ECONNABORTED or ECONNRESET", err)
				}
				if q := c.WriteQueueSize(); q != 0 {
					t.Errorf("WriteQueueSize %d", q)
				}
			})
			s.Close(func() { closed++ })
		})
		var err error
		c, err = l.NewTCP()
		mustOK(t, err)
		mustOK(t, c.Connect(addr, func(err error) { mustOK(t, err); connects++ }))
		runLoop(t, l)
		c.Close(func() { closed++ })
		runLoop(t, l)
		if connects != 1 || conns != 1 || closed != 3 {
			t.Fatalf("connect callbacks %d, connection %d, close %d", connects, conns, closed)
		}
	})
}

// shutdown_close_tcp and shutdown_close_pipe: a Shutdown immediately followed by Close still
// calls back, with success or ECANCELED; IsClosing turns true at Close.
func TestLibuvShutdownCloseRev10l(t *testing.T) {
	check := func(t *testing.T, l *uvloop.Loop, s uvloop.Stream, connect func(cb func(error)) error) {
		connects, shutdowns, closed := 0, 0, 0
		mustOK(t, connect(func(err error) {
			mustOK(t, err)
			mustOK(t, s.Shutdown(func(err error) {
				if err != nil {
					wantErrno(t, "shutdown callback", err, syscall.ECANCELED)
				}
				shutdowns++
			}))
			if s.IsClosing() {
				t.Error("IsClosing before Close")
			}
			mustOK(t, s.Close(func() { closed++ }))
			if !s.IsClosing() {
				t.Error("not IsClosing after Close")
			}
			connects++
		}))
		runLoop(t, l)
		if connects != 1 || shutdowns != 1 || closed != 1 {
			t.Fatalf("connect callbacks %d, shutdown %d, close %d", connects, shutdowns, closed)
		}
	}
	t.Run("tcp", func(t *testing.T) {
		eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
			_, addr := commandServerRev10l(t, l)
			c, err := l.NewTCP()
			mustOK(t, err)
			check(t, l, c, func(cb func(error)) error { return c.Connect(addr, cb) })
		})
	})
	t.Run("pipe", func(t *testing.T) {
		eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
			path := pipePath(t)
			server, err := l.NewPipe()
			mustOK(t, err)
			mustOK(t, server.Bind(path))
			mustOK(t, server.Listen(1, func(error) {}))
			server.Unref()
			c, err := l.NewPipe()
			mustOK(t, err)
			check(t, l, c, func(cb func(error)) error { return c.Connect(path, cb) })
		})
	})
}

// shutdown_twice: a second Shutdown fails and leaves no request behind: the first's callback
// runs once, with success, and the loop ends after the Close made there.
// not_writable_after_shutdown: after Shutdown the stream is no longer writable.
func TestLibuvShutdownTwiceRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		_, addr := commandServerRev10l(t, l)
		c, err := l.NewTCP()
		mustOK(t, err)
		shutdowns, closed := 0, 0
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			mustOK(t, c.Shutdown(func(err error) {
				mustOK(t, err)
				shutdowns++
				c.Close(func() { closed++ })
			}))
			if c.IsWritable() {
				t.Error("IsWritable after Shutdown")
			}
			if err := c.Shutdown(func(error) { t.Error("the second shutdown called back") }); err == nil {
				t.Error("a second Shutdown succeeded")
			}
		}))
		runLoop(t, l)
		if shutdowns != 1 || closed != 1 {
			t.Fatalf("shutdown callbacks %d, close %d", shutdowns, closed)
		}
	})
}

// not_readable_nor_writable_on_read_error and tcp_rst: the server answers "QSH" with a
// reset; the client's read callback gets ECONNRESET (not EOF) once, and from then on the
// stream is neither readable nor writable. TryWrite of the command writes it all at once.
func TestLibuvTCPReadErrorNotReadableRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		_, addr := commandServerRev10l(t, l)
		c, err := l.NewTCP()
		mustOK(t, err)
		connects, reads, writes, closed := 0, 0, 0, 0
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			connects++
			mustOK(t, c.ReadStart(func(data []byte, err error) {
				reads++
				wantErrno(t, "read callback", err, syscall.ECONNRESET)
				if c.IsReadable() || c.IsWritable() {
					t.Errorf("after the read error: readable %v, writable %v", c.IsReadable(), c.IsWritable())
				}
				c.Close(func() { closed++ })
			}))
			if connects == 1 {
				n, err := c.TryWrite([]byte("QSH"))
				if n != 3 || err != nil {
					t.Fatalf("TryWrite: %d, %v", n, err)
				}
				writes++
			}
		}))
		runLoop(t, l)
		if connects != 1 || reads != 1 || writes != 1 || closed != 1 {
			t.Fatalf("connect callbacks %d, read %d, write %d, close %d", connects, reads, writes, closed)
		}
	})
}

// readable_on_eof: the server answers "QS" by shutting its side down; the client reads EOF,
// stays readable and writable, reads again and gets EOF again; after Close it is neither.
func TestLibuvReadableOnEOFRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		_, addr := commandServerRev10l(t, l)
		c, err := l.NewTCP()
		mustOK(t, err)
		connects, eofs, writes, closed := 0, 0, 0, 0
		var onRead func([]byte, error)
		onRead = func(data []byte, err error) {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("read %q, %v; want EOF", data, err)
			}
			if !c.IsReadable() || !c.IsWritable() {
				t.Errorf("at EOF %d: readable %v, writable %v", eofs+1, c.IsReadable(), c.IsWritable())
			}
			if eofs++; eofs == 2 {
				c.Close(func() { closed++ })
				if c.IsReadable() || c.IsWritable() {
					t.Errorf("after Close: readable %v, writable %v", c.IsReadable(), c.IsWritable())
				}
				return
			}
			mustOK(t, c.ReadStart(onRead))
		}
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			connects++
			mustOK(t, c.ReadStart(onRead))
			mustOK(t, c.Write([]byte("QS"), func(err error) { mustOK(t, err); writes++ }))
		}))
		runLoop(t, l)
		if connects != 1 || eofs != 2 || writes != 1 || closed != 1 {
			t.Fatalf("connect callbacks %d, EOFs %d, write %d, close %d", connects, eofs, writes, closed)
		}
	})
}

// tcp_close: 32 writes queued, then Close: every write callback runs, each before the close
// callback.
func TestLibuvTCPCloseRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		_, addr := listenTCP(t, l, func(*uvloop.TCP, error) {})
		l.Walk(func(h uvloop.Handle) {
			if h.Kind() == uvloop.KindTCP {
				h.Unref()
			}
		})
		c, err := l.NewTCP()
		mustOK(t, err)
		writes, closed := 0, 0
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			for range 32 {
				mustOK(t, c.Write([]byte("PING"), func(error) {
					if closed != 0 {
						t.Error("a write callback after the close callback")
					}
					writes++
				}))
			}
			c.Close(func() { closed++ })
		}))
		if writes != 0 || closed != 0 {
			t.Fatal("callbacks ran inside Connect")
		}
		runLoop(t, l)
		if writes != 32 || closed != 1 {
			t.Fatalf("write callbacks %d of 32, close %d", writes, closed)
		}
	})
}

// tcp_unexpected_read: the peer writes to a client that does not read; the loop does not
// spin on the unread bytes: a check handle counts a handful of iterations until a timer
// closes everything.
func TestLibuvTCPUnexpectedReadRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		var client *uvloop.TCP
		ticks, writes := 0, 0
		check := l.NewCheck(func(*uvloop.Check) { ticks++ })
		mustOK(t, check.Start())
		_, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
			mustOK(t, err)
			peer := acceptTCP(t, s)
			mustOK(t, peer.ReadStart(func(data []byte, err error) { t.Errorf("peer read %q, %v", data, err) }))
			mustOK(t, peer.Write([]byte("PING"), func(err error) { mustOK(t, err); writes++ }))
		})
		tm := l.NewTimer(func(*uvloop.Timer) {
			l.Walk(func(h uvloop.Handle) {
				if !h.IsClosing() {
					h.Close(nil)
				}
			})
		})
		mustOK(t, tm.Start(200*time.Millisecond, 0))
		var err error
		client, err = l.NewTCP()
		mustOK(t, err)
		mustOK(t, client.Connect(addr, func(err error) { mustOK(t, err) }))
		runLoop(t, l)
		if writes != 1 || ticks > 20 {
			t.Fatalf("write callbacks %d, loop iterations %d (the loop spun)", writes, ticks)
		}
	})
}

// tcp_read_stop: ReadStop right after a Write: the echo never reaches the read callback;
// the write callback closes everything.
func TestLibuvTCPReadStopRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		_, addr := commandServerRev10l(t, l)
		c, err := l.NewTCP()
		mustOK(t, err)
		writes := 0
		tm := l.NewTimer(func(tm *uvloop.Timer) {
			mustOK(t, c.Write([]byte("PING"), func(error) {
				writes++
				tm.Close(nil)
				c.Close(nil)
			}))
			mustOK(t, c.ReadStop())
		})
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			mustOK(t, tm.Start(20*time.Millisecond, 0))
			mustOK(t, c.ReadStart(func(data []byte, err error) { t.Errorf("read %q, %v", data, err) }))
		}))
		runLoop(t, l)
		if writes != 1 {
			t.Fatalf("write callbacks %d", writes)
		}
	})
}

// tcp_write_to_half_open_connection: the client closes as soon as it connects; the server's
// peer writes all the same (the write succeeds) and reads ECONNRESET or EOF.
func TestLibuvTCPWriteToHalfOpenRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		writes, reads := 0, 0
		server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
			mustOK(t, err)
			peer := acceptTCP(t, s)
			mustOK(t, peer.ReadStart(func(data []byte, err error) {
				reads++
				if err != nil {
					if !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, io.EOF) {
						t.Errorf("peer read: %v, want ECONNRESET or EOF", err)
					}
					s.Close(nil)
					peer.Close(nil)
				}
			}))
			mustOK(t, peer.Write([]byte("hello\n"), func(err error) { mustOK(t, err); writes++ }))
		})
		_ = server
		c, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, c.Connect(addr, func(err error) { mustOK(t, err); c.Close(nil) }))
		runLoop(t, l)
		if writes == 0 || reads == 0 {
			t.Fatalf("write callbacks %d, read %d", writes, reads)
		}
	})
}

// newTCPSocketRev10l returns a fresh blocking IPv4 TCP socket that the test hands over with
// Open (or closes itself).
func newTCPSocketRev10l(t *testing.T) int {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	mustOK(t, err)
	unix.CloseOnExec(fd)
	return fd
}

// tcp_open and tcp_open_twice: a handle opened on a fresh socket connects, writes, shuts
// down and reads the echo to EOF; a second Open of the same handle fails with EBUSY, and
// another handle's Open of the fd the first one owns fails with EEXIST.
func TestLibuvTCPOpenRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		_, addr := commandServerRev10l(t, l)
		fd := newTCPSocketRev10l(t)
		c, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, c.Open(fd))
		fd2 := newTCPSocketRev10l(t)
		wantErrno(t, "second Open", c.Open(fd2), syscall.EBUSY)
		unix.Close(fd2)
		c2, err := l.NewTCP()
		mustOK(t, err)
		wantErrno(t, "Open of a watched fd", c2.Open(fd), syscall.EEXIST)
		c2.Close(nil)

		connects, writes, shutdowns, closed := 0, 0, 0, 0
		got := ""
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			connects++
			mustOK(t, c.Write([]byte("PING"), func(err error) { mustOK(t, err); writes++ }))
			mustOK(t, c.Shutdown(func(err error) { mustOK(t, err); shutdowns++ }))
			mustOK(t, c.ReadStart(func(data []byte, err error) {
				if errors.Is(err, io.EOF) {
					c.Close(func() { closed++ })
					return
				}
				mustOK(t, err)
				got += string(data)
			}))
		}))
		runLoop(t, l)
		if connects != 1 || writes != 1 || shutdowns != 1 || closed != 1 || got != "PING" {
			t.Fatalf("connect callbacks %d, write %d, shutdown %d, close %d, read %q", connects, writes, shutdowns, closed, got)
		}
	})
}

// tcp_open_bound: a handle opened on a bound socket listens.
func TestLibuvTCPOpenBoundRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		fd := newTCPSocketRev10l(t)
		if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
			unix.Close(fd)
			t.Fatal(err)
		}
		s, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, s.Open(fd))
		mustOK(t, s.Listen(128, func(error) { t.Error("a connection") }))
		a, err := s.LocalAddr()
		mustOK(t, err)
		if a.Port() == 0 {
			t.Errorf("LocalAddr %v", a)
		}
		s.Close(nil)
	})
}

// tcp_open_connected: a handle opened on a socket connected outside the loop writes, shuts
// down and reads the echo to EOF.
func TestLibuvTCPOpenConnectedRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		_, addr := commandServerRev10l(t, l)
		fd := newTCPSocketRev10l(t)
		a4 := addr.Addr().As4()
		// A blocking connect completes with the handshake, before the loop accepts it.
		if err := unix.Connect(fd, &unix.SockaddrInet4{Addr: a4, Port: int(addr.Port())}); err != nil {
			unix.Close(fd)
			t.Fatal(err)
		}
		c, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, c.Open(fd))
		writes, shutdowns, closed := 0, 0, 0
		got := ""
		mustOK(t, c.Write([]byte("PING"), func(err error) { mustOK(t, err); writes++ }))
		mustOK(t, c.Shutdown(func(err error) { mustOK(t, err); shutdowns++ }))
		mustOK(t, c.ReadStart(func(data []byte, err error) {
			if errors.Is(err, io.EOF) {
				c.Close(func() { closed++ })
				return
			}
			mustOK(t, err)
			got += string(data)
		}))
		runLoop(t, l)
		if writes != 1 || shutdowns != 1 || closed != 1 || got != "PING" {
			t.Fatalf("write callbacks %d, shutdown %d, close %d, read %q", writes, shutdowns, closed, got)
		}
	})
}

// tcp_write_ready: on an opened socket, each write's callback queues the next one-byte write
// until a timer asks for a shutdown; the shutdown waits for the write in flight, whose
// callback then queues nothing more; the peer sees only 'P's and EOF.
func TestLibuvTCPWriteReadyRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		_, addr := commandServerRev10l(t, l)
		fd := newTCPSocketRev10l(t)
		c, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, c.Open(fd))
		connects, writes, shutdowns, requested, closed := 0, 0, 0, 0, 0
		var onWrite func(error)
		onWrite = func(err error) {
			if err != nil {
				if shutdowns == 0 {
					t.Errorf("a write failed before the shutdown: %v", err)
				}
				return
			}
			if requested > 0 {
				return
			}
			mustOK(t, c.Write([]byte("P"), onWrite))
			writes++
		}
		tm := l.NewTimer(func(tm *uvloop.Timer) {
			mustOK(t, c.Shutdown(func(err error) { mustOK(t, err); shutdowns++ }))
			requested++
			tm.Close(nil)
		})
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			connects++
			mustOK(t, tm.Start(50*time.Millisecond, 0))
			mustOK(t, c.Write([]byte("P"), onWrite))
			mustOK(t, c.ReadStart(func(data []byte, err error) {
				if errors.Is(err, io.EOF) {
					c.Close(func() { closed++ })
					return
				}
				mustOK(t, err)
				for _, b := range data {
					if b != 'P' {
						t.Fatalf("read %q", data)
					}
				}
			}))
		}))
		runLoop(t, l)
		if connects != 1 || writes == 0 || shutdowns != 1 || requested != 1 || closed != 1 {
			t.Fatalf("connect callbacks %d, writes %d, shutdown %d (requested %d), close %d", connects, writes, shutdowns, requested, closed)
		}
	})
}

// shutdown_simultaneous: the server echoes "QQSS" and shuts its side down; the client, on
// reading the echo, shuts its own side down at the same time and then reads EOF. ReadStart
// while reading fails with EALREADY, and with no callback with ErrNilCallback (libuv:
// EINVAL). Nothing hangs: the loop ends.
func TestLibuvShutdownSimultaneousRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
			mustOK(t, err)
			c := acceptTCP(t, s)
			mustOK(t, c.ReadStart(func(data []byte, err error) {
				if err != nil {
					c.Close(nil)
					return
				}
				mustOK(t, c.Write(append([]byte(nil), data...), nil))
				mustOK(t, c.Shutdown(nil))
			}))
		})
		server.Unref()
		c, err := l.NewTCP()
		mustOK(t, err)
		connects, shutdowns, gotQ, eofs := 0, 0, 0, 0
		var onRead func([]byte, error)
		onRead = func(data []byte, err error) {
			if gotQ == 0 {
				mustOK(t, err)
				if string(data) != "QQSS" || eofs != 0 {
					t.Fatalf("read %q (EOFs %d)", data, eofs)
				}
				gotQ++
				mustOK(t, c.Shutdown(func(err error) {
					mustOK(t, err)
					if connects != 1 {
						t.Error("shutdown callback before the connect callback")
					}
					shutdowns++
				}))
				return
			}
			if !errors.Is(err, io.EOF) {
				t.Fatalf("read %q, %v; want EOF", data, err)
			}
			eofs++
		}
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			mustOK(t, c.ReadStart(onRead))
			wantErrno(t, "second ReadStart", c.ReadStart(onRead), syscall.EALREADY)
			if err := c.ReadStart(nil); !errors.Is(err, uvloop.ErrNilCallback) {
				t.Errorf("ReadStart(nil): %v, want ErrNilCallback", err)
			}
			if n, err := c.TryWrite([]byte("QQSS")); n != 4 || err != nil {
				t.Fatalf("TryWrite: %d, %v", n, err)
			}
			connects++
		}))
		runLoop(t, l)
		if connects != 1 || shutdowns != 1 || gotQ != 1 || eofs != 1 {
			t.Fatalf("connect callbacks %d, shutdown %d, QQSS %d, EOF %d", connects, shutdowns, gotQ, eofs)
		}
		c.Close(nil)
	})
}

// getsockname_tcp: the listener's LocalAddr is its address and RemoteAddr fails with
// ENOTCONN; a client's LocalAddr has its port as soon as Connect returns; in the connect and
// connection callbacks each side's LocalAddr and RemoteAddr mirror the other's.
func TestLibuvGetsocknameTCPRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		var serverSide [2]netip.AddrPort
		names, peers := 0, 0
		server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
			mustOK(t, err)
			in := acceptTCP(t, s)
			var err1, err2 error
			serverSide[0], err1 = in.LocalAddr()
			serverSide[1], err2 = in.RemoteAddr()
			mustOK(t, err1)
			mustOK(t, err2)
			names++
			peers++
			in.Close(nil)
			s.Close(nil)
		})
		a, err := server.LocalAddr()
		mustOK(t, err)
		if a != addr || a.Port() == 0 {
			t.Errorf("listener LocalAddr %v, want %v", a, addr)
		}
		names++
		_, err = server.RemoteAddr()
		wantErrno(t, "listener RemoteAddr", err, syscall.ENOTCONN)
		peers++
		c, err := l.NewTCP()
		mustOK(t, err)
		var clientSide [2]netip.AddrPort
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			var err1, err2 error
			clientSide[0], err1 = c.LocalAddr()
			clientSide[1], err2 = c.RemoteAddr()
			mustOK(t, err1)
			mustOK(t, err2)
			names++
			peers++
			c.Close(nil)
		}))
		early, err := c.LocalAddr()
		mustOK(t, err)
		if early.Port() == 0 || !early.Addr().Is4() {
			t.Errorf("LocalAddr while connecting: %v", early)
		}
		runLoop(t, l)
		if names != 3 || peers != 3 {
			t.Fatalf("names %d, peers %d", names, peers)
		}
		if clientSide[1] != addr || clientSide[0] != early || serverSide[0] != addr || serverSide[1] != clientSide[0] {
			t.Fatalf("client %v, server %v (listening on %v, client bound early to %v)", clientSide, serverSide, addr, early)
		}
	})
}

// multiple_listen: Listen twice on one handle succeeds; one connection, one connect; two
// close callbacks.
func TestLibuvMultipleListenRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		s, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, s.Bind(loopback, 0))
		conns, connects, closed := 0, 0, 0
		onConn := func(err error) {
			mustOK(t, err)
			s.Close(func() { closed++ })
			conns++
		}
		mustOK(t, s.Listen(128, onConn))
		mustOK(t, s.Listen(128, onConn))
		addr, err := s.LocalAddr()
		mustOK(t, err)
		c, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			c.Close(func() { closed++ })
			connects++
		}))
		runLoop(t, l)
		if conns != 1 || connects != 1 || closed != 2 {
			t.Fatalf("connections %d, connect callbacks %d, close %d", conns, connects, closed)
		}
	})
}

// connect_unspecified: a connect to 0.0.0.0 (the local host, on Linux) does not fail with
// EADDRNOTAVAIL; with nothing listening it is refused.
func TestLibuvConnectUnspecifiedRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		refused := refusedAddrRev10l(t)
		c, err := l.NewTCP()
		mustOK(t, err)
		connects := 0
		mustOK(t, c.Connect(netip.AddrPortFrom(netip.IPv4Unspecified(), refused.Port()), func(err error) {
			connects++
			if errors.Is(err, syscall.EADDRNOTAVAIL) {
				t.Errorf("connect callback: %v", err)
			}
			c.Close(nil)
		}))
		runLoop(t, l)
		if connects != 1 {
			t.Fatalf("connect callbacks %d", connects)
		}
	})
}

// tcp_close_accept: two clients each write a byte; the server accepts both, then reads; on
// the first byte it stops that reader, closes the other connection and itself, and connects
// a new handle (likely on the fd just freed) to the closed server, reading from it at once.
// The new handle must not see the stale read event of the closed one: its connect fails,
// and only then are the last two handles closed.
func TestLibuvTCPCloseAcceptRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		const n = 2
		var incoming []*uvloop.TCP
		writes, reads, closed := 0, 0, 0
		var server *uvloop.TCP
		var addr netip.AddrPort
		onClose := func() { closed++ }
		var onRead func(in *uvloop.TCP) func([]byte, error)
		onRead = func(in *uvloop.TCP) func([]byte, error) {
			return func(data []byte, err error) {
				mustOK(t, err)
				if len(data) != 1 {
					t.Fatalf("read %q", data)
				}
				reads++
				mustOK(t, in.ReadStop())
				for _, other := range incoming {
					if other != in {
						other.Close(onClose)
					}
				}
				server.Close(onClose)
				check, err := l.NewTCP()
				mustOK(t, err)
				mustOK(t, check.Connect(addr, func(err error) {
					if err == nil {
						t.Error("the connect to a closed server succeeded")
					}
					in.Close(onClose)
					check.Close(onClose)
				}))
				mustOK(t, check.ReadStart(func(data []byte, err error) {
					t.Errorf("the new handle read %q, %v", data, err)
				}))
			}
		}
		var err error
		server, err = l.NewTCP()
		mustOK(t, err)
		mustOK(t, server.Bind(loopback, 0))
		mustOK(t, server.Listen(n, func(err error) {
			mustOK(t, err)
			if len(incoming) == n {
				return
			}
			incoming = append(incoming, acceptTCP(t, server))
			if len(incoming) == n {
				for _, in := range incoming {
					mustOK(t, in.ReadStart(onRead(in)))
				}
			}
		}))
		addr, err = server.LocalAddr()
		mustOK(t, err)
		var clients []*uvloop.TCP
		for range n {
			c, err := l.NewTCP()
			mustOK(t, err)
			clients = append(clients, c)
			mustOK(t, c.Connect(addr, func(err error) {
				mustOK(t, err)
				mustOK(t, c.Write([]byte("x"), func(err error) { mustOK(t, err); writes++ }))
			}))
		}
		runLoop(t, l)
		if len(incoming) != n || closed != n+2 || writes != n || reads != 1 {
			t.Fatalf("connections %d, close callbacks %d, writes %d, reads %d", len(incoming), closed, writes, reads)
		}
		for _, c := range clients {
			c.Close(nil)
		}
	})
}

// tcp_write_in_a_row: a write too big for the socket buffers sticks in the queue; a one-byte
// write behind it adds one byte to WriteQueueSize; when each write's callback runs the queue
// is empty (the small one completes right after the big one).
func TestLibuvTCPWriteInARowRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		data := make([]byte, 10<<20)
		var c, in *uvloop.TCP
		connects, conns, writes, closed := 0, 0, 0, 0
		server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
			mustOK(t, err)
			conns++
			in = acceptTCP(t, s)
			mustOK(t, in.ReadStart(func([]byte, error) {}))
		})
		onWrite := func(err error) {
			mustOK(t, err)
			if q := c.WriteQueueSize(); q != 0 {
				t.Errorf("WriteQueueSize %d in write callback %d", q, writes+1)
			}
			if writes++; writes == 2 {
				c.Close(func() { closed++ })
				in.Close(func() { closed++ })
				server.Close(func() { closed++ })
			}
		}
		var err error
		c, err = l.NewTCP()
		mustOK(t, err)
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			connects++
			mustOK(t, c.Write(data, onWrite))
			q0 := c.WriteQueueSize()
			if q0 == 0 {
				t.Fatal("10 MiB went out at once")
			}
			mustOK(t, c.Write([]byte("A"), onWrite))
			if q1 := c.WriteQueueSize(); q1 != q0+1 {
				t.Errorf("WriteQueueSize %d after the small write, want %d", q1, q0+1)
			}
		}))
		runLoop(t, l)
		if connects != 1 || conns != 1 || writes != 2 || closed != 3 {
			t.Fatalf("connect callbacks %d, connections %d, writes %d, close %d", connects, conns, writes, closed)
		}
	})
}
