package uvloop_test

import (
	"errors"
	"io"
	"net"
	"net/netip"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's IPv6 TCP tests (test-tcp-bind6-error.c, tcp6 ping-pong, pipe ping-pong
// vec) and its connect and read timeouts (test-tcp-connect-timeout.c,
// test-tcp-close-after-read-timeout.c), in our own words, each run in every mode.

// loopback6Rev10l is [::1]:0.
var loopback6Rev10l = netip.MustParseAddrPort("[::1]:0")

// needIPv6Rev10l skips the test when the host cannot bind ::1 (libuv's can_ipv6).
func needIPv6Rev10l(t *testing.T, l *uvloop.Loop) {
	t.Helper()
	s, err := l.NewTCP()
	mustOK(t, err)
	defer s.Close(nil)
	if err := s.Bind(loopback6Rev10l, 0); err != nil {
		t.Skipf("no IPv6 here: %v", err)
	}
}

// tcp_bind6_error_addrinuse, tcp_bind6_error_addrnotavail, tcp_bind6_error_inval,
// tcp_bind6_localhost_ok: as their IPv4 twins, on [::] and [::1].
func TestLibuvTCPBind6ErrorsRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		needIPv6Rev10l(t, l)
		closed := 0
		s1, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, s1.Bind(netip.MustParseAddrPort("[::]:0"), 0))
		addr, err := s1.LocalAddr()
		mustOK(t, err)
		s2, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, s2.Bind(addr, 0))
		mustOK(t, s1.Listen(128, func(error) { t.Error("a connection") }))
		wantErrno(t, "second Listen", s2.Listen(128, func(error) { t.Error("a connection") }), syscall.EADDRINUSE)
		closeHandle(t, s1, &closed)
		closeHandle(t, s2, &closed)

		na, err := l.NewTCP()
		mustOK(t, err)
		wantErrno(t, "Bind 4:4:4:4:4:4:4:4", na.Bind(netip.MustParseAddrPort("[4:4:4:4:4:4:4:4]:0"), 0), syscall.EADDRNOTAVAIL)
		closeHandle(t, na, &closed)

		in, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, in.Bind(netip.MustParseAddrPort("[::]:0"), 0))
		wantErrno(t, "second Bind", in.Bind(netip.MustParseAddrPort("[::]:0"), 0), syscall.EINVAL)
		closeHandle(t, in, &closed)

		ok, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, ok.Bind(loopback6Rev10l, 0))
		if a, err := ok.LocalAddr(); err != nil || a.Addr() != loopback6Rev10l.Addr() || a.Port() == 0 {
			t.Errorf("bound to %v, %v", a, err)
		}
		closeHandle(t, ok, &closed)
		runLoop(t, l)
		if closed != 5 {
			t.Fatalf("close callbacks %d", closed)
		}
	})
}

// tcp6_ping_pong, tcp6_ping_pong_vec: the ping-pong over [::1]; pipe_ping_pong_vec: over a
// Unix socket, with each ping written as two buffers.
func TestLibuvPingPong6AndPipeVecRev10l(t *testing.T) {
	for _, vec := range []bool{false, true} {
		name := "write"
		if vec {
			name = "writev"
		}
		t.Run("tcp6-"+name, func(t *testing.T) {
			eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
				needIPv6Rev10l(t, l)
				closed := 0
				server, err := l.NewTCP()
				mustOK(t, err)
				mustOK(t, server.Bind(loopback6Rev10l, 0))
				mustOK(t, server.Listen(128, func(err error) {
					mustOK(t, err)
					echo(t, acceptTCP(t, server), 1<<20, func() { closed++ })
				}))
				addr, err := server.LocalAddr()
				mustOK(t, err)
				client, err := l.NewTCP()
				mustOK(t, err)
				var pongs *int
				mustOK(t, client.Connect(addr, func(err error) {
					mustOK(t, err)
					pongs = pingPong(t, client, vec, func() {
						closed++
						server.Close(func() { closed++ })
					})
				}))
				runLoop(t, l)
				if pongs == nil || *pongs != numPings || closed != 3 {
					t.Fatalf("pongs %v, close callbacks %d", pongs, closed)
				}
			})
		})
	}
	t.Run("pipe-writev", func(t *testing.T) {
		eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
			path := pipePath(t)
			closed := 0
			server, err := l.NewPipe()
			mustOK(t, err)
			mustOK(t, server.Bind(path))
			mustOK(t, server.Listen(128, func(err error) {
				mustOK(t, err)
				c, err := l.NewPipe()
				mustOK(t, err)
				mustOK(t, server.Accept(c))
				echo(t, c, 1<<20, func() { closed++ })
			}))
			client, err := l.NewPipe()
			mustOK(t, err)
			var pongs *int
			mustOK(t, client.Connect(path, func(err error) {
				mustOK(t, err)
				pongs = pingPong(t, client, true, func() {
					closed++
					server.Close(func() { closed++ })
				})
			}))
			runLoop(t, l)
			if pongs == nil || *pongs != numPings || closed != 3 {
				t.Fatalf("pongs %v, close callbacks %d", pongs, closed)
			}
		})
	})
}

// tcp_connect_timeout: a connect that gets no answer (the SYN goes to a full accept queue) is
// cancelled by a timer's Close: its callback gets ECANCELED; two close callbacks.
// tcp_local_connect_timeout, tcp6_local_connect_timeout: a connect to a local port nobody
// listens on fails before the timer, and not with ECANCELED.
func TestLibuvTCPConnectTimeoutRev10l(t *testing.T) {
	t.Run("unanswered", func(t *testing.T) {
		eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
			addr := fullListener(t)
			c, err := l.NewTCP()
			mustOK(t, err)
			connects, closed := 0, 0
			tm := l.NewTimer(func(tm *uvloop.Timer) {
				c.Close(func() { closed++ })
				tm.Close(func() { closed++ })
			})
			mustOK(t, tm.Start(50*time.Millisecond, 0))
			mustOK(t, c.Connect(addr, func(err error) {
				wantErrno(t, "connect callback", err, syscall.ECANCELED)
				connects++
			}))
			runLoop(t, l)
			if connects != 1 || closed != 2 {
				t.Fatalf("connect callbacks %d, close %d", connects, closed)
			}
		})
	})
	for _, v6 := range []bool{false, true} {
		name := "local4"
		if v6 {
			name = "local6"
		}
		t.Run(name, func(t *testing.T) {
			eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
				var addr netip.AddrPort
				if v6 {
					needIPv6Rev10l(t, l)
					// A bound, not listening socket on [::1] refuses connections.
					s, err := l.NewTCP()
					mustOK(t, err)
					mustOK(t, s.Bind(loopback6Rev10l, 0))
					addr, err = s.LocalAddr()
					mustOK(t, err)
					defer s.Close(nil)
				} else {
					addr = refusedAddrRev10l(t)
				}
				c, err := l.NewTCP()
				mustOK(t, err)
				connects, timers := 0, 0
				tm := l.NewTimer(func(tm *uvloop.Timer) {
					timers++
					c.Close(nil)
					tm.Close(nil)
				})
				mustOK(t, tm.Start(time.Second, 0))
				mustOK(t, c.Connect(addr, func(err error) {
					if err == nil || errors.Is(err, syscall.ECANCELED) {
						t.Errorf("connect callback: %v", err)
					}
					connects++
					c.Close(nil)
					tm.Close(nil)
				}))
				runLoop(t, l)
				if connects != 1 || timers != 0 {
					t.Fatalf("connect callbacks %d, timer %d", connects, timers)
				}
			})
		})
	}
}

// tcp_close_after_read_timeout: a client that reads and gets nothing is stopped and closed
// by a timer; the server's side reads EOF then, once; three close callbacks.
func TestLibuvTCPCloseAfterReadTimeoutRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		reads, closed := 0, 0
		onClose := func() { closed++ }
		server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
			mustOK(t, err)
			conn := acceptTCP(t, s)
			mustOK(t, conn.ReadStart(func(data []byte, err error) {
				if !errors.Is(err, io.EOF) {
					t.Errorf("server read %q, %v; want EOF", data, err)
				}
				reads++
				conn.Close(onClose)
			}))
		})
		server.Unref()
		c, err := l.NewTCP()
		mustOK(t, err)
		tm := l.NewTimer(func(tm *uvloop.Timer) {
			if reads != 0 {
				t.Error("a read before the timeout")
			}
			mustOK(t, c.ReadStop())
			c.Close(onClose)
			tm.Close(onClose)
		})
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			mustOK(t, c.ReadStart(func(data []byte, err error) { t.Errorf("client read %q, %v", data, err) }))
			mustOK(t, tm.Start(50*time.Millisecond, 0))
		}))
		runLoop(t, l)
		if reads != 1 || closed != 3 {
			t.Fatalf("reads %d, close callbacks %d", reads, closed)
		}
	})
}

// tcp_connect6_link_local: on a host with an interface that routes link-local traffic, a
// Connect to fe80::bad:babe without a zone does not fail at once (libuv picks the scope of
// the first interface with a link-local address); closing the handle right away cancels it,
// and its callback runs once.
func TestLibuvTCPConnect6LinkLocalRev10l(t *testing.T) {
	ifs, err := net.Interfaces()
	mustOK(t, err)
	found := false
	for _, ifc := range ifs {
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() == nil && ipn.IP.IsLinkLocalUnicast() {
				found = true
			}
		}
	}
	if !found {
		t.Skip("IPv6 link-local traffic not supported")
	}
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		needIPv6Rev10l(t, l)
		c, err := l.NewTCP()
		mustOK(t, err)
		connects := 0
		mustOK(t, c.Connect(netip.MustParseAddrPort("[fe80::bad:babe]:1337"), func(error) { connects++ }))
		c.Close(nil)
		runLoop(t, l)
		if connects != 1 {
			t.Fatalf("connect callbacks %d", connects)
		}
	})
}
