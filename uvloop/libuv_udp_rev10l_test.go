package uvloop_test

import (
	"net/netip"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of more of libuv's UDP tests (test-udp-*.c, test-getsockname.c), in our own words,
// each run in every mode. Each names the libuv test it ports.

// udp_bind and udp_bind_reuseaddr: a second handle cannot bind the address of the first
// (EADDRINUSE) unless both bind with UDPReuseAddr.
func TestLibuvUDPBindRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		h1, addr := bindUDP(t, l, netip.MustParseAddrPort("0.0.0.0:0"))
		h2, err := l.NewUDP()
		mustOK(t, err)
		wantErrno(t, "second Bind", h2.Bind(addr, 0), syscall.EADDRINUSE)

		r1, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, r1.Bind(netip.MustParseAddrPort("0.0.0.0:0"), uvloop.UDPReuseAddr))
		raddr, err := r1.LocalAddr()
		mustOK(t, err)
		r2, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, r2.Bind(raddr, uvloop.UDPReuseAddr))
		closed := 0
		for _, h := range []*uvloop.UDP{h1, h2, r1, r2} {
			closeHandle(t, h, &closed)
		}
		runLoop(t, l)
		if closed != 4 {
			t.Fatalf("close callbacks %d", closed)
		}
	})
}

// udp_send_immediate: an unbound client queues two sends before the loop runs; both call
// back with success and the server receives both, then closes both handles.
func TestLibuvUDPSendImmediateRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		server, addr := bindUDP(t, l, netip.MustParseAddrPort("0.0.0.0:0"))
		to := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), addr.Port())
		client, err := l.NewUDP()
		mustOK(t, err)
		sends, recvs, closed := 0, 0, 0
		mustOK(t, server.RecvStart(func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
			mustOK(t, err)
			if !from.IsValid() || (string(data) != "PING" && string(data) != "PANG") {
				t.Fatalf("received %q from %v", data, from)
			}
			if recvs++; recvs == 2 {
				server.Close(func() { closed++ })
				client.Close(func() { closed++ })
			}
		}))
		for _, msg := range []string{"PING", "PANG"} {
			mustOK(t, client.Send([]byte(msg), to, func(err error) { mustOK(t, err); sends++ }))
		}
		runLoop(t, l)
		if sends != 2 || recvs != 2 || closed != 2 {
			t.Fatalf("send callbacks %d, receives %d, close %d", sends, recvs, closed)
		}
	})
}

// udp_send_unreachable: an unconnected socket sends two datagrams to a port nobody listens
// on; both sends succeed and the receiver gets no error (an unconnected socket is not told
// of the ICMP port unreachable) until a timer closes everything.
func TestLibuvUDPSendUnreachableRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		// A port nobody listens on: one the kernel just gave a handle that is closed at once.
		gone, goneAddr := bindUDP(t, l, loopback4)
		gone.Close(nil)
		client, _ := bindUDP(t, l, loopback4)
		sends, recvs, timers, closed := 0, 0, 0, 0
		mustOK(t, client.RecvStart(func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
			recvs++
			t.Errorf("received %q from %v, %v", data, from, err)
		}))
		for _, msg := range []string{"PING", "PANG"} {
			mustOK(t, client.Send([]byte(msg), goneAddr, func(err error) { mustOK(t, err); sends++ }))
		}
		tm := l.NewTimer(func(tm *uvloop.Timer) {
			timers++
			client.Close(func() { closed++ })
			tm.Close(func() { closed++ })
		})
		mustOK(t, tm.Start(100*time.Millisecond, 0))
		runLoop(t, l)
		if sends != 2 || recvs != 0 || timers != 1 || closed != 2 {
			t.Fatalf("send callbacks %d, receives %d, timer %d, close %d", sends, recvs, timers, closed)
		}
	})
}

// udp_recv_in_a_row: five datagrams (the last one empty) sent with TrySend before the loop
// runs are all received in the first poll phase, before the first check callback.
func TestLibuvUDPRecvInARowRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		const n = 5
		server, addr := bindUDP(t, l, loopback4)
		client, err := l.NewUDP()
		mustOK(t, err)
		recvs, checks := 0, 0
		mustOK(t, server.RecvStart(func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
			mustOK(t, err)
			if want := 10; recvs == n-1 {
				want = 0
				if len(data) != want {
					t.Errorf("datagram %d: %d bytes, want %d", recvs+1, len(data), want)
				}
			} else if len(data) != want {
				t.Errorf("datagram %d: %d bytes, want %d", recvs+1, len(data), want)
			}
			recvs++
		}))
		for range n - 1 {
			mustOK(t, client.TrySend(make([]byte, 10), addr))
		}
		mustOK(t, client.TrySend(nil, addr))
		check := l.NewCheck(func(c *uvloop.Check) {
			checks++
			if recvs != n {
				t.Errorf("%d of %d datagrams received before the first check", recvs, n)
			}
			mustOK(t, c.Stop())
			client.Close(nil)
			c.Close(nil)
			server.Close(nil)
		})
		mustOK(t, check.Start())
		runLoop(t, l)
		if checks != 1 {
			t.Fatalf("check callbacks %d", checks)
		}
	})
}

// udp_dgram_too_big: a 64 KiB datagram is too big: Send queues it and its callback gets
// EMSGSIZE, and closes the handle.
func TestLibuvUDPDgramTooBigRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		u, err := l.NewUDP()
		mustOK(t, err)
		dgram := make([]byte, 65536)
		for i := range dgram {
			dgram[i] = 42
		}
		sends, closed := 0, 0
		mustOK(t, u.Send(dgram, netip.MustParseAddrPort("127.0.0.1:9"), func(err error) {
			wantErrno(t, "send callback", err, syscall.EMSGSIZE)
			sends++
			u.Close(func() { closed++ })
		}))
		if sends != 0 || closed != 0 {
			t.Fatal("callbacks ran inside Send")
		}
		runLoop(t, l)
		if sends != 1 || closed != 1 {
			t.Fatalf("send callbacks %d, close %d", sends, closed)
		}
	})
}

// getsockname_udp: a listener bound to 0.0.0.0 reports 0.0.0.0 and its port; a client
// that was never bound is bound to 0.0.0.0 by its first Send, as its LocalAddr shows when
// the server receives the datagram.
func TestLibuvGetsocknameUDPRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		server, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, server.Bind(netip.MustParseAddrPort("0.0.0.0:0"), 0))
		addr, err := server.LocalAddr()
		mustOK(t, err)
		if addr.Addr() != netip.IPv4Unspecified() || addr.Port() == 0 {
			t.Errorf("listener LocalAddr %v", addr)
		}
		names := 1
		client, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, server.RecvStart(func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
			mustOK(t, err)
			a, err := client.LocalAddr()
			mustOK(t, err)
			if a.Addr() != netip.IPv4Unspecified() || a.Port() == 0 || a.Port() != from.Port() {
				t.Errorf("client LocalAddr %v (the datagram came from %v)", a, from)
			}
			names++
			client.Close(nil)
			server.Close(nil)
		}))
		mustOK(t, client.Send([]byte("PING"), netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), addr.Port()), nil))
		runLoop(t, l)
		if names != 2 {
			t.Fatalf("names %d", names)
		}
	})
}
