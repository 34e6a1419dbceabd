package uvloop_test

import (
	"net/netip"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's UDP multicast tests (test-udp-multicast-*.c) and udp_options6, in our own
// words, each run in every mode. Where the host has no route for a group, the test skips, as
// libuv's do.

// udp_multicast_ttl: a socket bound to 0.0.0.0 sets its multicast TTL to 32 and sends to
// 239.255.0.1: the send calls back with success, and closes the handle.
// udp_multicast_interface: the same after SetMulticastInterface(0.0.0.0), and both send
// queues are empty afterwards.
func TestLibuvUDPMulticastTTLInterfaceRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		group := netip.MustParseAddrPort("239.255.0.1:9")
		for _, setup := range []func(u *uvloop.UDP) error{
			func(u *uvloop.UDP) error { return u.SetMulticastTTL(32) },
			func(u *uvloop.UDP) error { return u.SetMulticastInterface(netip.IPv4Unspecified()) },
		} {
			u, err := l.NewUDP()
			mustOK(t, err)
			mustOK(t, u.Bind(netip.MustParseAddrPort("0.0.0.0:0"), 0))
			mustOK(t, setup(u))
			sends, closed := 0, 0
			if err := u.Send([]byte("PING"), group, func(err error) {
				if err != nil {
					wantErrno(t, "send callback", err, syscall.ENETUNREACH)
					t.Skipf("no multicast route: %v", err)
				}
				sends++
				u.Close(func() { closed++ })
			}); err != nil {
				t.Skipf("no multicast here: %v", err)
			}
			runLoop(t, l)
			if sends != 1 || closed != 1 || u.SendQueueSize() != 0 {
				t.Fatalf("send callbacks %d, close %d, queued %d", sends, closed, u.SendQueueSize())
			}
		}
	})
}

// udp_multicast_interface6: an IPv6 socket bound to [::] selects ::1's interface, then the
// system's again (the zero Addr), and sends to [::1]: the send calls back with success.
func TestLibuvUDPMulticastInterface6Rev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		needUDP6Rev10l(t, l)
		u, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, u.Bind(netip.MustParseAddrPort("[::]:0"), 0))
		mustOK(t, u.SetMulticastInterface(netip.MustParseAddr("::1%lo")))
		mustOK(t, u.SetMulticastInterface(netip.Addr{}))
		sends, closed := 0, 0
		mustOK(t, u.Send([]byte("PING"), netip.MustParseAddrPort("[::1]:9"), func(err error) {
			mustOK(t, err)
			sends++
			u.Close(func() { closed++ })
		}))
		runLoop(t, l)
		if sends != 1 || closed != 1 {
			t.Fatalf("send callbacks %d, close %d", sends, closed)
		}
	})
}

// udp_multicast_join and udp_multicast_join6: a server bound to the any address joins a group
// (239.255.0.1; ff02::1) and receives the client's PING sent to it;
// on the first it leaves and joins again (libuv joins for the sender's source only; uvgo has
// no source-specific membership) and the client sends again; on the second it closes. Two
// receives, two sends, two close callbacks.
func TestLibuvUDPMulticastJoinRev10l(t *testing.T) {
	for _, v6 := range []bool{false, true} {
		name := "ipv4"
		if v6 {
			name = "ipv6"
		}
		t.Run(name, func(t *testing.T) {
			eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
				any, group, iface := netip.MustParseAddrPort("0.0.0.0:0"), netip.MustParseAddr("239.255.0.1"), netip.Addr{}
				if v6 {
					needUDP6Rev10l(t, l)
					any, group = netip.MustParseAddrPort("[::]:0"), netip.MustParseAddr("ff02::1")
				}
				server, err := l.NewUDP()
				mustOK(t, err)
				mustOK(t, server.Bind(any, 0))
				saddr, err := server.LocalAddr()
				mustOK(t, err)
				if err := server.JoinGroup(group, iface); err != nil {
					server.Close(nil)
					t.Skipf("no multicast here: %v", err)
				}
				to := netip.AddrPortFrom(group.WithZone(iface.Zone()), saddr.Port())
				client, err := l.NewUDP()
				mustOK(t, err)
				if v6 {
					mustOK(t, client.Bind(netip.MustParseAddrPort("[::]:0"), 0))
				}
				recvs, sends, closed := 0, 0, 0
				send := func() {
					mustOK(t, client.Send([]byte("PING"), to, func(err error) {
						if err != nil && recvs == 0 {
							wantErrno(t, "send callback", err, syscall.ENETUNREACH)
							client.Close(nil)
							server.Close(nil)
							return
						}
						mustOK(t, err)
						if sends++; sends == 2 {
							client.Close(func() { closed++ })
						}
					}))
				}
				mustOK(t, server.RecvStart(func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
					mustOK(t, err)
					if string(data) != "PING" || !from.IsValid() {
						t.Fatalf("received %q from %v", data, from)
					}
					if recvs++; recvs == 2 {
						u.Close(func() { closed++ })
						return
					}
					mustOK(t, u.LeaveGroup(group, iface))
					mustOK(t, u.JoinGroup(group, iface))
					send()
				}))
				guard := l.NewTimer(func(*uvloop.Timer) {
					if recvs == 0 {
						client.Close(nil)
						server.Close(nil)
					}
				})
				guard.Unref()
				mustOK(t, guard.Start(2*time.Second, 0))
				send()
				runLoop(t, l)
				if recvs == 0 {
					t.Skip("the group's datagrams do not come back to this host")
				}
				guard.Close(nil)
				if recvs != 2 || sends != 2 || closed != 2 {
					t.Fatalf("receives %d, sends %d, close callbacks %d", recvs, sends, closed)
				}
			})
		})
	}
}

// udp_options6: on an unref'd handle bound to [::]: broadcast on and off, TTL 1..255 (and
// EINVAL for -1, 0, 256), multicast loop on and off, multicast TTL 0..255 (EINVAL for 256);
// the loop is not kept alive.
func TestLibuvUDPOptions6Rev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		needUDP6Rev10l(t, l)
		u, err := l.NewUDP()
		mustOK(t, err)
		u.Unref()
		mustOK(t, u.Bind(netip.MustParseAddrPort("[::]:0"), 0))
		for _, on := range []bool{true, true, false, false} {
			mustOK(t, u.SetBroadcast(on))
			mustOK(t, u.SetMulticastLoop(on))
		}
		for ttl := 1; ttl <= 255; ttl++ {
			mustOK(t, u.SetTTL(ttl))
		}
		for _, ttl := range []int{-1, 0, 256} {
			wantErrno(t, "SetTTL", u.SetTTL(ttl), syscall.EINVAL)
		}
		for ttl := 0; ttl <= 255; ttl++ {
			mustOK(t, u.SetMulticastTTL(ttl))
		}
		wantErrno(t, "SetMulticastTTL(256)", u.SetMulticastTTL(256), syscall.EINVAL)
		runLoop(t, l)
		u.Close(nil)
	})
}
