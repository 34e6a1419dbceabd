package uvloop_test

import (
	"net/netip"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's IPv6 UDP tests (test-udp-ipv6.c, test-udp-connect6.c), its ICMP error
// tests without UV_UDP_LINUX_RECVERR (test-udp-recv-cb-close-pollerr.c) and
// test-udp-send-hang-loop.c, in our own words, each run in every mode.

// needUDP6Rev10l skips the test when the host cannot bind a UDP socket on ::1.
func needUDP6Rev10l(t *testing.T, l *uvloop.Loop) {
	t.Helper()
	u, err := l.NewUDP()
	mustOK(t, err)
	defer u.Close(nil)
	if err := u.Bind(loopback6Rev10l, 0); err != nil {
		t.Skipf("no IPv6 here: %v", err)
	}
}

// udp_dual_stack and udp_ipv6_only: a server bound to [::] receives an IPv4 client's
// datagram, from the client's address mapped into IPv6 (::ffff:127.0.0.1) as libuv reports
// it; bound with UDPIPv6Only it receives nothing. The send succeeds either way; a timer
// closes everything.
func TestLibuvUDPDualStackRev10l(t *testing.T) {
	for _, only := range []bool{false, true} {
		name := "dual_stack"
		var flags uvloop.UDPFlags
		if only {
			name, flags = "ipv6_only", uvloop.UDPIPv6Only
		}
		t.Run(name, func(t *testing.T) {
			eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
				needUDP6Rev10l(t, l)
				server, err := l.NewUDP()
				mustOK(t, err)
				mustOK(t, server.Bind(netip.MustParseAddrPort("[::]:0"), flags))
				saddr, err := server.LocalAddr()
				mustOK(t, err)
				client, caddr := bindUDP(t, l, loopback4)
				recvs, sends, closed := 0, 0, 0
				data := []byte("PING-PONG")
				mustOK(t, server.RecvStart(func(_ *uvloop.UDP, got []byte, from netip.AddrPort, err error) {
					mustOK(t, err)
					if from.Port() != caddr.Port() {
						return // not our client
					}
					want := netip.AddrPortFrom(netip.MustParseAddr("::ffff:127.0.0.1"), caddr.Port())
					if only || from != want || string(got) != string(data) {
						t.Errorf("received %q from %v (IPv6 only %v; want from %v)", got, from, only, want)
					}
					recvs++
				}))
				mustOK(t, client.Send(data, netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), saddr.Port()), func(err error) {
					mustOK(t, err)
					sends++
				}))
				tm := l.NewTimer(func(tm *uvloop.Timer) {
					server.Close(func() { closed++ })
					client.Close(func() { closed++ })
					tm.Close(func() { closed++ })
				})
				mustOK(t, tm.Start(100*time.Millisecond, 0))
				runLoop(t, l)
				wantRecvs := 1
				if only {
					wantRecvs = 0
				}
				if recvs != wantRecvs || sends != 1 || closed != 3 {
					t.Fatalf("receives %d (want %d), send callbacks %d, close %d", recvs, wantRecvs, sends, closed)
				}
			})
		})
	}
}

// udp_connect6: TestLibuvUDPConnect's sequence on [::1]: Connect to [::] and Disconnect,
// Connect to [::1], EISCONN for a second Connect and for addressed sends while connected,
// EDESTADDRREQ for an unaddressed one after Disconnect, ENOTCONN for a second Disconnect
// and for RemoteAddr; four datagrams arrive and two sends call back.
func TestLibuvUDPConnect6Rev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		needUDP6Rev10l(t, l)
		exit := []byte("EXIT")
		server, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, server.Bind(netip.MustParseAddrPort("[::]:0"), 0))
		any6, err := server.LocalAddr()
		mustOK(t, err)
		lo := netip.AddrPortFrom(netip.IPv6Loopback(), any6.Port())
		ext := netip.MustParseAddrPort("[2001:4860:4860::8888]:9")
		client, err := l.NewUDP()
		mustOK(t, err)
		recvs, sends, closed := 0, 0, 0
		mustOK(t, server.RecvStart(func(_ *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
			mustOK(t, err)
			if string(data) != "EXIT" || !from.IsValid() {
				t.Fatalf("server got %q from %v", data, from)
			}
			if recvs++; recvs == 4 {
				server.Close(func() { closed++ })
				client.Close(func() { closed++ })
			}
		}))
		mustOK(t, client.Connect(netip.AddrPortFrom(netip.IPv6Unspecified(), any6.Port())))
		mustOK(t, client.Disconnect())
		mustOK(t, client.Connect(lo))
		wantErrno(t, "second Connect", client.Connect(ext), syscall.EISCONN)
		if peer, err := client.RemoteAddr(); err != nil || peer != lo {
			t.Errorf("RemoteAddr %v, %v; want %v", peer, err, lo)
		}
		wantErrno(t, "connected TrySend with an address", client.TrySend(exit, lo), syscall.EISCONN)
		mustOK(t, client.TrySend(exit, netip.AddrPort{}))
		wantErrno(t, "connected TrySend elsewhere", client.TrySend(exit, ext), syscall.EISCONN)
		mustOK(t, client.Disconnect())
		wantErrno(t, "second Disconnect", client.Disconnect(), syscall.ENOTCONN)
		_, err = client.RemoteAddr()
		wantErrno(t, "RemoteAddr after Disconnect", err, syscall.ENOTCONN)
		mustOK(t, client.TrySend(exit, lo))
		wantErrno(t, "unconnected TrySend without an address", client.TrySend(exit, netip.AddrPort{}), syscall.EDESTADDRREQ)
		mustOK(t, client.Connect(lo))
		var sendCb func(error)
		sendCb = func(err error) {
			mustOK(t, err)
			if sends++; sends == 1 {
				mustOK(t, client.Disconnect())
				mustOK(t, client.Send(exit, lo, sendCb))
			}
		}
		wantErrno(t, "connected Send with an address", client.Send(exit, lo, sendCb), syscall.EISCONN)
		mustOK(t, client.Send(exit, netip.AddrPort{}, sendCb))
		runLoop(t, l)
		if closed != 2 || recvs != 4 || sends != 2 || client.SendQueueSize() != 0 || server.SendQueueSize() != 0 {
			t.Fatalf("close callbacks %d, receives %d, send callbacks %d, queues %d %d", closed, recvs, sends, client.SendQueueSize(), server.SendQueueSize())
		}
	})
}

// udp_recv_cb_close_pollerr: a connected socket sends to a port nobody listens on; the ICMP
// port unreachable comes back as one receive callback with ECONNREFUSED, which closes the
// handle; nothing more runs. udp_send_pollerr_no_recv: the same without receiving: the send
// calls back once and closes, and the pending error does not keep the loop busy.
func TestLibuvUDPPollerrRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		gone, goneAddr := bindUDP(t, l, loopback4)
		gone.Close(nil)
		runLoop(t, l)

		c, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, c.Bind(netip.MustParseAddrPort("0.0.0.0:0"), 0))
		mustOK(t, c.Connect(goneAddr))
		recvs := 0
		mustOK(t, c.RecvStart(func(u *uvloop.UDP, data []byte, _ netip.AddrPort, err error) {
			recvs++
			wantErrno(t, "receive callback", err, syscall.ECONNREFUSED)
			u.Close(nil)
		}))
		mustOK(t, c.TrySend([]byte("PING"), netip.AddrPort{}))
		runLoop(t, l)
		if recvs != 1 {
			t.Fatalf("receive callbacks %d", recvs)
		}

		c2, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, c2.Bind(netip.MustParseAddrPort("0.0.0.0:0"), 0))
		mustOK(t, c2.Connect(goneAddr))
		sends := 0
		mustOK(t, c2.Send([]byte("PING"), netip.AddrPort{}, func(error) {
			sends++
			c2.Close(nil)
		}))
		runLoop(t, l)
		if sends != 1 {
			t.Fatalf("send callbacks %d", sends)
		}

		// An open, idle handle with the error pending: the loop sleeps until a timer.
		c3, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, c3.Bind(netip.MustParseAddrPort("0.0.0.0:0"), 0))
		mustOK(t, c3.Connect(goneAddr))
		mustOK(t, c3.Send([]byte("PING"), netip.AddrPort{}, func(error) {}))
		mustOK(t, c3.Send([]byte("PING"), netip.AddrPort{}, func(error) {}))
		ticks := 0
		check := l.NewCheck(func(*uvloop.Check) { ticks++ })
		mustOK(t, check.Start())
		afterRev10l(t, l, 100*time.Millisecond, func() {
			c3.Close(nil)
			check.Close(nil)
		})
		runLoop(t, l)
		if ticks > 20 {
			t.Fatalf("%d loop iterations while the handle was idle (the loop spun)", ticks)
		}
	})
}

// udp_send_hang_loop: an idle callback sends a datagram to an unreachable address
// (192.0.2.3, TEST-NET) and stops; the send's callback (success or ENETUNREACH) starts the
// idle handle again; a thousand rounds go by without the loop hanging.
func TestLibuvUDPSendHangLoopRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		to := netip.MustParseAddrPort("192.0.2.3:9")
		data := make([]byte, 1024)
		client, err := l.NewUDP()
		mustOK(t, err)
		rounds, inFlight := 0, false
		var idle *uvloop.Idle
		idle = l.NewIdle(func(h *uvloop.Idle) {
			if inFlight {
				t.Fatal("the idle callback ran with a send in flight")
			}
			mustOK(t, h.Stop())
			if rounds++; rounds > 1000 {
				client.Close(nil)
				h.Close(nil)
				return
			}
			inFlight = true
			mustOK(t, client.Send(data, to, func(err error) {
				if err != nil {
					wantErrno(t, "send callback", err, syscall.ENETUNREACH)
				}
				inFlight = false
				mustOK(t, idle.Start())
			}))
		})
		mustOK(t, idle.Start())
		runLoop(t, l)
		if rounds <= 1000 {
			t.Fatalf("rounds %d", rounds)
		}
	})
}
