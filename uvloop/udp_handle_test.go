package uvloop_test

import (
	"errors"
	"net"
	"net/netip"
	"os"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Tests of the UDP handle beyond the libuv ports (libuv_udp_test.go): IPv6, the socket
// options, multicast, refused datagrams, receive flow control, Close at awkward moments,
// misuse, fd hygiene and the allocation-free hot paths.

// udpRecvLog collects what a receive callback got; the payloads are copied.
type udpRecvLog struct {
	data []string
	from []netip.AddrPort
	errs []error
}

func (r *udpRecvLog) cb(_ *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
	if err != nil {
		r.errs = append(r.errs, err)
		return
	}
	r.data = append(r.data, string(data))
	r.from = append(r.from, from)
}

// runUntil runs l once at a time until done reports true, failing after a few seconds. If
// one step (a RunNoWait and the short sleep after it) takes over two seconds, it logs every
// goroutine's stack once: a timeout then says where the time went.
func runUntil(t testing.TB, l *uvloop.Loop, what string, done func() bool) {
	t.Helper()
	start := time.Now()
	deadline := start.Add(5 * time.Second)
	steps, longest := 0, time.Duration(0)
	var stacks atomic.Pointer[string]
	for !done() {
		if time.Now().After(deadline) {
			if s := stacks.Load(); s != nil {
				t.Logf("a step stalled; the goroutines then:\n%s", *s)
			}
			t.Fatalf("timed out waiting for %s (%d steps in %v, the longest %v)",
				what, steps, time.Since(start), longest)
		}
		stepStart := time.Now()
		watchdog := time.AfterFunc(2*time.Second, func() {
			buf := make([]byte, 1<<20)
			s := string(buf[:runtime.Stack(buf, true)])
			stacks.CompareAndSwap(nil, &s)
		})
		mustRunMode(t, l, uvloop.RunNoWait)
		if !done() {
			time.Sleep(100 * time.Microsecond)
		}
		watchdog.Stop()
		steps++
		longest = max(longest, time.Since(stepStart))
	}
}

// udpClosedPort returns a loopback address on which nothing listens (a port the system gave
// a socket that is closed again).
func udpClosedPort(t testing.TB) netip.AddrPort {
	t.Helper()
	c, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(loopback4))
	mustOK(t, err)
	addr := c.LocalAddr().(*net.UDPAddr).AddrPort()
	mustOK(t, c.Close())
	return netip.AddrPortFrom(addr.Addr().Unmap(), addr.Port())
}

func mustNewUDP(t testing.TB, l *uvloop.Loop) *uvloop.UDP {
	t.Helper()
	u, err := l.NewUDP()
	mustOK(t, err)
	return u
}

var loopback6 = netip.AddrPortFrom(netip.IPv6Loopback(), 0)

// bindUDP6 is bindUDP on [::1]:0; it skips the test if the machine has no IPv6 loopback.
func bindUDP6(t testing.TB, l *uvloop.Loop, flags uvloop.UDPFlags) (*uvloop.UDP, netip.AddrPort) {
	t.Helper()
	u, err := l.NewUDP()
	mustOK(t, err)
	if err := u.Bind(loopback6, flags); err != nil {
		u.Close(nil)
		closeLoop(t, l)
		if errors.Is(err, syscall.EADDRNOTAVAIL) || errors.Is(err, syscall.EAFNOSUPPORT) {
			t.Skipf("no IPv6 loopback on this machine: bind [::1]:0: %v", err)
		}
		t.Fatalf("bind [::1]:0: %v", err)
	}
	got, err := u.LocalAddr()
	mustOK(t, err)
	return u, got
}

// TestUDPIPv6: a ping-pong over [::1], with the sender's address as the system reports it;
// an IPv6-only socket refuses IPv4 destinations; a dual-stack one receives IPv4 datagrams
// from IPv4-mapped addresses.
func TestUDPIPv6(t *testing.T) {
	l := newLoop(t)
	server, svAddr := bindUDP6(t, l, uvloop.UDPIPv6Only)
	watchdog(t, l, 5*time.Second)
	if svAddr.Addr() != netip.IPv6Loopback() {
		t.Errorf("LocalAddr %v, want [::1]:port", svAddr)
	}
	client, clAddr := bindUDP6(t, l, 0)
	wantErrno(t, "Bind twice", client.Bind(loopback6, 0), syscall.EINVAL)
	wantErrno(t, "Bind IPv4 on IPv6", client.Bind(loopback4, 0), syscall.EINVAL)
	wantErrno(t, "IPv6-only on IPv4", mustNewUDP(t, l).Bind(loopback4, uvloop.UDPIPv6Only), syscall.EINVAL)
	var sv, cl udpRecvLog
	mustOK(t, server.RecvStart(func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
		sv.cb(u, data, from, err)
		mustOK(t, u.Send([]byte("PONG"), from, nil))
	}))
	mustOK(t, client.RecvStart(cl.cb))
	mustOK(t, client.Send([]byte("PING"), svAddr, nil))
	runUntil(t, l, "the PONG", func() bool { return len(cl.data) > 0 })
	if len(sv.data) != 1 || sv.data[0] != "PING" || sv.from[0] != clAddr {
		t.Errorf("server got %q from %v, want PING from %v", sv.data, sv.from, clAddr)
	}
	if cl.data[0] != "PONG" || cl.from[0] != svAddr {
		t.Errorf("client got %q from %v, want PONG from %v", cl.data, cl.from, svAddr)
	}

	// An IPv6-only socket takes IPv4 destinations as IPv4-mapped ones, which it cannot reach.
	var sendErr error
	mustOK(t, server.Send([]byte("x"), netip.MustParseAddrPort("127.0.0.1:9"), func(err error) { sendErr = err }))
	runUntil(t, l, "the IPv4 send", func() bool { return server.SendQueueCount() == 0 })
	if sendErr == nil {
		t.Error("an IPv6-only socket sent to an IPv4 address")
	}

	if runtime.GOOS == "linux" {
		dual, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, dual.Bind(netip.AddrPortFrom(netip.IPv6Unspecified(), 0), 0))
		dualAddr, err := dual.LocalAddr()
		mustOK(t, err)
		var got udpRecvLog
		mustOK(t, dual.RecvStart(got.cb))
		v4, v4Addr := bindUDP(t, l, loopback4)
		mustOK(t, v4.TrySend([]byte("v4"), netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), dualAddr.Port())))
		runUntil(t, l, "the IPv4 datagram on the dual-stack socket", func() bool { return len(got.data) > 0 })
		want := netip.AddrPortFrom(netip.AddrFrom16(v4Addr.Addr().As16()), v4Addr.Port())
		if got.data[0] != "v4" || got.from[0] != want {
			t.Errorf("dual-stack socket got %q from %v, want v4 from %v", got.data, got.from, want)
		}
	}
	closeLoop(t, l)
}

// TestUDPOptions: libuv's udp_options and udp_no_autobind. Every option works on a bound
// socket (twice in a row, on and off), out-of-range values fail with EINVAL, and every option
// fails with EBADF before the socket exists.
func TestUDPOptions(t *testing.T) {
	l := newLoop(t)
	u, _ := bindUDP(t, l, loopback4)
	lo := netip.MustParseAddr("127.0.0.1")
	for _, on := range []bool{true, true, false, false} {
		mustOK(t, u.SetBroadcast(on))
		mustOK(t, u.SetMulticastLoop(on))
	}
	for ttl := 1; ttl <= 255; ttl++ {
		mustOK(t, u.SetTTL(ttl))
	}
	for ttl := 0; ttl <= 255; ttl++ {
		mustOK(t, u.SetMulticastTTL(ttl))
	}
	mustOK(t, u.SetMulticastInterface(lo))
	mustOK(t, u.SetMulticastInterface(netip.Addr{}))

	unbound, err := l.NewUDP()
	mustOK(t, err)
	tests := []struct {
		name  string
		op    func() error
		errno syscall.Errno
	}{
		{name: "TTL -1", op: func() error { return u.SetTTL(-1) }, errno: syscall.EINVAL},
		{name: "TTL 0", op: func() error { return u.SetTTL(0) }, errno: syscall.EINVAL},
		{name: "TTL 256", op: func() error { return u.SetTTL(256) }, errno: syscall.EINVAL},
		{name: "multicast TTL 256", op: func() error { return u.SetMulticastTTL(256) }, errno: syscall.EINVAL},
		{name: "IPv6 multicast interface on IPv4", op: func() error { return u.SetMulticastInterface(netip.IPv6Loopback()) }, errno: syscall.EINVAL},
		{name: "unbound multicast TTL", op: func() error { return unbound.SetMulticastTTL(32) }, errno: syscall.EBADF},
		{name: "unbound broadcast", op: func() error { return unbound.SetBroadcast(true) }, errno: syscall.EBADF},
		{name: "unbound TTL", op: func() error { return unbound.SetTTL(1) }, errno: syscall.EBADF},
		{name: "unbound multicast loop", op: func() error { return unbound.SetMulticastLoop(true) }, errno: syscall.EBADF},
		{name: "unbound multicast interface", op: func() error { return unbound.SetMulticastInterface(netip.IPv4Unspecified()) }, errno: syscall.EBADF},
		{name: "unbound LocalAddr", op: func() error { _, err := unbound.LocalAddr(); return err }, errno: syscall.EBADF},
	}
	for _, tt := range tests {
		wantErrno(t, tt.name, tt.op(), tt.errno)
	}
	if unbound.Fd() != -1 {
		t.Error("an option made the unbound handle create a socket")
	}
	closeLoop(t, l)
}

// TestUDPMulticast joins a group on the loopback interface, receives a datagram sent to it
// with the multicast options set, and leaves the group.
func TestUDPMulticast(t *testing.T) {
	l := newLoop(t)
	watchdog(t, l, 5*time.Second)
	group := netip.MustParseAddr("239.255.77.77")
	lo := netip.MustParseAddr("127.0.0.1")

	receiver, err := l.NewUDP()
	mustOK(t, err)
	mustOK(t, receiver.Bind(netip.AddrPortFrom(netip.IPv4Unspecified(), 0), uvloop.UDPReuseAddr))
	rAddr, err := receiver.LocalAddr()
	mustOK(t, err)
	if err := receiver.JoinGroup(group, lo); err != nil {
		closeLoop(t, l)
		t.Skipf("the kernel refuses to join %v on the loopback interface: %v", group, err)
	}
	var got udpRecvLog
	mustOK(t, receiver.RecvStart(got.cb))

	sender, _ := bindUDP(t, l, loopback4)
	mustOK(t, sender.SetMulticastInterface(lo))
	mustOK(t, sender.SetMulticastLoop(true))
	mustOK(t, sender.SetMulticastTTL(1))
	to := netip.AddrPortFrom(group, rAddr.Port())
	if err := sender.TrySend([]byte("group"), to); err != nil {
		closeLoop(t, l)
		t.Skipf("the kernel refuses to send to %v by the loopback interface: %v", group, err)
	}
	arrived := false
	tm := l.NewTimer(func(*uvloop.Timer) {})
	mustOK(t, tm.Start(time.Second, 0))
	runUntil(t, l, "the multicast datagram or the timer", func() bool {
		arrived = len(got.data) > 0
		return arrived || !tm.IsActive()
	})
	if !arrived {
		closeLoop(t, l)
		t.Skip("joined the group on the loopback interface, but the kernel does not loop multicast back there")
	}
	if got.data[0] != "group" {
		t.Errorf("got %q, want group", got.data)
	}

	mustOK(t, receiver.LeaveGroup(group, lo))
	if err := receiver.LeaveGroup(group, lo); err == nil {
		t.Error("leaving a group twice succeeded")
	}
	wantErrno(t, "join a unicast address", receiver.JoinGroup(lo, netip.Addr{}), syscall.EINVAL)
	wantErrno(t, "join an IPv6 group on IPv4", receiver.JoinGroup(netip.MustParseAddr("ff02::1"), netip.Addr{}), syscall.EAFNOSUPPORT)

	// The implicit bind of JoinGroup: 0.0.0.0:0 with the address reusable.
	implicit, err := l.NewUDP()
	mustOK(t, err)
	mustOK(t, implicit.JoinGroup(group, lo))
	if a, err := implicit.LocalAddr(); err != nil || a.Addr() != netip.IPv4Unspecified() {
		t.Errorf("after an implicit bind: %v, %v", a, err)
	}
	closeLoop(t, l)
}

// TestUDPBroadcast: without SO_BROADCAST Linux refuses the limited broadcast address with
// EACCES; with it the send goes (or fails for want of a route, never with EACCES).
func TestUDPBroadcast(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the errno of a refused broadcast is Linux's")
	}
	l := newLoop(t)
	u, addr := bindUDP(t, l, loopback4)
	bcast := netip.AddrPortFrom(netip.MustParseAddr("255.255.255.255"), addr.Port())
	mustOK(t, u.SetBroadcast(false))
	wantErrno(t, "broadcast without SO_BROADCAST", u.TrySend([]byte("b"), bcast), syscall.EACCES)
	mustOK(t, u.SetBroadcast(true))
	if err := u.TrySend([]byte("b"), bcast); errors.Is(err, syscall.EACCES) {
		t.Errorf("broadcast with SO_BROADCAST: %v", err)
	}
	closeLoop(t, l)
}

// TestUDPConnectionRefused: a connected socket sending to a port nobody listens on hears of
// the ICMP port unreachable as ECONNREFUSED, in the receive callback while it receives and
// otherwise in the callback of a later send (or from TrySend).
func TestUDPConnectionRefused(t *testing.T) {
	tests := []struct {
		name    string
		receive bool
		try     bool
	}{
		{name: "receive callback", receive: true},
		{name: "send callback"},
		{name: "TrySend", try: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLoop(t)
			watchdog(t, l, 5*time.Second)
			u, err := l.NewUDP()
			mustOK(t, err)
			mustOK(t, u.Connect(udpClosedPort(t)))
			var recvErr, sendErr error
			if tt.receive {
				mustOK(t, u.RecvStart(func(_ *uvloop.UDP, data []byte, _ netip.AddrPort, err error) {
					if err == nil {
						t.Errorf("received %q from a closed port", data)
					}
					recvErr = err
				}))
			}
			msg := []byte("anyone?")
			sends := 0
			var onSent func(error)
			onSent = func(err error) {
				if err != nil {
					sendErr = err
					return
				}
				if sends++; sends < 100 && !tt.receive {
					mustOK(t, u.Send(msg, netip.AddrPort{}, onSent))
				}
			}
			if tt.try {
				deadline := time.Now().Add(3 * time.Second)
				for sendErr == nil && time.Now().Before(deadline) {
					sendErr = u.TrySend(msg, netip.AddrPort{})
					time.Sleep(time.Millisecond)
				}
			} else {
				mustOK(t, u.Send(msg, netip.AddrPort{}, onSent))
				runUntil(t, l, "the refusal", func() bool { return recvErr != nil || sendErr != nil || sends == 100 })
			}
			got := sendErr
			if tt.receive {
				got = recvErr
			}
			wantErrno(t, tt.name, got, syscall.ECONNREFUSED)
			closeLoop(t, l)
		})
	}
}

// TestUDPRecvStopStart: RecvStop in the receive callback leaves the rest in the socket's
// buffer and makes the handle inactive; RecvStart picks them up in order.
func TestUDPRecvStopStart(t *testing.T) {
	l := newLoop(t)
	watchdog(t, l, 5*time.Second)
	server, svAddr := bindUDP(t, l, loopback4)
	client, _ := bindUDP(t, l, loopback4)
	var got udpRecvLog
	mustOK(t, server.RecvStart(func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
		got.cb(u, data, from, err)
		mustOK(t, u.RecvStop())
		mustOK(t, u.RecvStop()) // idempotent
	}))
	wantErrno(t, "RecvStart twice", server.RecvStart(got.cb), syscall.EALREADY)
	if err := server.RecvStart(nil); !errors.Is(err, uvloop.ErrNilCallback) {
		t.Errorf("RecvStart(nil): %v, want ErrNilCallback", err)
	}
	for _, m := range []string{"a", "b", "c"} {
		mustOK(t, client.TrySend([]byte(m), svAddr))
	}
	runUntil(t, l, "the first datagram", func() bool { return len(got.data) > 0 })
	for range 5 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	if len(got.data) != 1 || server.IsActive() {
		t.Fatalf("after RecvStop: got %q, active %v", got.data, server.IsActive())
	}
	mustOK(t, server.RecvStart(got.cb))
	if !server.IsActive() {
		t.Error("receiving handle is not active")
	}
	runUntil(t, l, "the rest", func() bool { return len(got.data) == 3 })
	if got.data[0] != "a" || got.data[1] != "b" || got.data[2] != "c" {
		t.Errorf("got %q, want a b c", got.data)
	}
	closeLoop(t, l)
}

// TestUDPCloseInRecvCallback: Close from the receive callback delivers nothing more, even of
// a batch already in the socket's buffer, and runs the close callback once.
func TestUDPCloseInRecvCallback(t *testing.T) {
	l := newLoop(t)
	watchdog(t, l, 5*time.Second)
	server, svAddr := bindUDP(t, l, loopback4)
	client, _ := bindUDP(t, l, loopback4)
	recvs, closed := 0, 0
	mustOK(t, server.RecvStart(func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
		mustOK(t, err)
		recvs++
		closeHandle(t, u, &closed)
		if u.Fd() != -1 {
			t.Error("the socket survived Close")
		}
	}))
	for range 4 {
		mustOK(t, client.TrySend([]byte("x"), svAddr))
	}
	closeHandle(t, client, &closed)
	mustRunMode(t, l, uvloop.RunDefault)
	if recvs != 1 || closed != 2 {
		t.Errorf("received %d, closed %d; want 1 2", recvs, closed)
	}
	closeLoop(t, l)
}

// TestUDPCloseCancelsSends: sends queued behind a running send callback are cancelled by a
// Close from that callback: ECANCELED, in order, after the written ones and before the close
// callback; nothing stays in flight.
func TestUDPCloseCancelsSends(t *testing.T) {
	l := newLoop(t)
	watchdog(t, l, 5*time.Second)
	_, svAddr := bindUDP(t, l, loopback4)
	u, err := l.NewUDP()
	mustOK(t, err)
	var log []string
	note := func(name string) func(error) {
		return func(err error) {
			switch {
			case err == nil:
				log = append(log, name+":ok")
			case errors.Is(err, syscall.ECANCELED):
				log = append(log, name+":canceled")
			default:
				log = append(log, name+":"+err.Error())
			}
		}
	}
	first := note("a")
	mustOK(t, u.Send([]byte("a"), svAddr, func(err error) {
		first(err)
		mustOK(t, u.Send([]byte("b"), svAddr, note("b")))
		mustOK(t, u.Send([]byte("cc"), svAddr, note("c")))
		// e is written, its callback still to run; b and c wait for writability.
		if u.SendQueueCount() != 3 || u.SendQueueSize() != 3 {
			t.Errorf("%d sends in flight, %d bytes unwritten; want 3 and 3", u.SendQueueCount(), u.SendQueueSize())
		}
		mustOK(t, u.Close(func() { log = append(log, "close") }))
		if err := u.Send([]byte("d"), svAddr, note("d")); !errors.Is(err, uvloop.ErrClosed) {
			t.Errorf("Send after Close: %v, want ErrClosed", err)
		}
	}))
	mustOK(t, u.Send([]byte("e"), svAddr, note("e"))) // written at once, reports after a
	mustRunMode(t, l, uvloop.RunDefault)
	want := "a:ok e:ok b:canceled c:canceled close"
	if got := join(log); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if u.SendQueueCount() != 0 || u.SendQueueSize() != 0 {
		t.Errorf("after close: %d sends, %d bytes", u.SendQueueCount(), u.SendQueueSize())
	}
	closeLoop(t, l)
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}

// TestUDPBadInput: misuse fails with a clear error, leaves the handle working (it still
// sends a datagram that arrives) and the loop closes cleanly.
func TestUDPBadInput(t *testing.T) {
	v6 := netip.MustParseAddrPort("[::1]:9")
	tests := []struct {
		name    string
		connect bool // connect the handle to the server first
		op      func(u *uvloop.UDP, server netip.AddrPort, cb func(error)) error
		want    error // what op returns
		sendErr error // what the callback of op's Send gets, if op sends
	}{
		{name: "Send without an address, unconnected",
			op: func(u *uvloop.UDP, _ netip.AddrPort, _ func(error)) error {
				return u.Send([]byte("x"), netip.AddrPort{}, nil)
			},
			want: syscall.EDESTADDRREQ},
		{name: "TrySend without an address, unconnected",
			op: func(u *uvloop.UDP, _ netip.AddrPort, _ func(error)) error {
				return u.TrySend([]byte("x"), netip.AddrPort{})
			},
			want: syscall.EDESTADDRREQ},
		{name: "Send with an address, connected", connect: true,
			op:   func(u *uvloop.UDP, s netip.AddrPort, _ func(error)) error { return u.Send([]byte("x"), s, nil) },
			want: syscall.EISCONN},
		{name: "Send to IPv6 from IPv4",
			op:   func(u *uvloop.UDP, _ netip.AddrPort, _ func(error)) error { return u.Send([]byte("x"), v6, nil) },
			want: syscall.EAFNOSUPPORT},
		{name: "TrySend to IPv6 from IPv4",
			op:   func(u *uvloop.UDP, _ netip.AddrPort, _ func(error)) error { return u.TrySend([]byte("x"), v6) },
			want: syscall.EAFNOSUPPORT},
		{name: "Connect IPv4 to IPv6",
			op:   func(u *uvloop.UDP, _ netip.AddrPort, _ func(error)) error { return u.Connect(v6) },
			want: syscall.EAFNOSUPPORT},
		{name: "Connect twice", connect: true,
			op:   func(u *uvloop.UDP, s netip.AddrPort, _ func(error)) error { return u.Connect(s) },
			want: syscall.EISCONN},
		{name: "Bind twice",
			op:   func(u *uvloop.UDP, _ netip.AddrPort, _ func(error)) error { return u.Bind(loopback4, 0) },
			want: syscall.EINVAL},
		{name: "Bind IPv6 on IPv4",
			op:   func(u *uvloop.UDP, _ netip.AddrPort, _ func(error)) error { return u.Bind(loopback6, 0) },
			want: syscall.EINVAL},
		{name: "Bind with an unknown flag",
			op:   func(u *uvloop.UDP, _ netip.AddrPort, _ func(error)) error { return u.Bind(loopback4, 1<<7) },
			want: syscall.EINVAL},
		{name: "Bind an invalid address",
			op:   func(u *uvloop.UDP, _ netip.AddrPort, _ func(error)) error { return u.Bind(netip.AddrPort{}, 0) },
			want: syscall.EINVAL},
		{name: "Disconnect unconnected",
			op:   func(u *uvloop.UDP, _ netip.AddrPort, _ func(error)) error { return u.Disconnect() },
			want: syscall.ENOTCONN},
		{name: "RemoteAddr unconnected",
			op:   func(u *uvloop.UDP, _ netip.AddrPort, _ func(error)) error { _, err := u.RemoteAddr(); return err },
			want: syscall.ENOTCONN},
		{name: "Send of 64 KiB",
			op: func(u *uvloop.UDP, s netip.AddrPort, cb func(error)) error {
				return u.Send(make([]byte, 64<<10), s, cb)
			},
			sendErr: syscall.EMSGSIZE},
		{name: "TrySend of 64 KiB",
			op:   func(u *uvloop.UDP, s netip.AddrPort, _ func(error)) error { return u.TrySend(make([]byte, 64<<10), s) },
			want: syscall.EMSGSIZE},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLoop(t)
			watchdog(t, l, 5*time.Second)
			server, svAddr := bindUDP(t, l, loopback4)
			var got udpRecvLog
			mustOK(t, server.RecvStart(got.cb))
			u, _ := bindUDP(t, l, loopback4)
			if tt.connect {
				mustOK(t, u.Connect(svAddr))
			}
			var sendErr error
			sendDone := false
			err := tt.op(u, svAddr, func(e error) { sendErr, sendDone = e, true })
			if tt.sendErr != nil {
				runUntil(t, l, "the send callback", func() bool { return sendDone })
				wantErrno(t, "send callback", sendErr, tt.sendErr.(syscall.Errno))
			}
			if tt.want == nil {
				mustOK(t, err)
			} else {
				wantErrno(t, tt.name, err, tt.want.(syscall.Errno))
			}
			to := svAddr
			if tt.connect {
				to = netip.AddrPort{}
			}
			mustOK(t, u.Send([]byte("still here"), to, nil))
			runUntil(t, l, "the datagram after the misuse", func() bool { return len(got.data) > 0 })
			if got.data[0] != "still here" {
				t.Errorf("server got %q", got.data)
			}
			closeLoop(t, l)
		})
	}
}

// TestUDPAfterClose: every operation of a closed handle fails with ErrClosed, from the moment
// Close is called.
func TestUDPAfterClose(t *testing.T) {
	l := newLoop(t)
	u, addr := bindUDP(t, l, loopback4)
	lo := netip.MustParseAddr("127.0.0.1")
	mustOK(t, u.Close(nil))
	tests := []struct {
		name string
		op   func() error
	}{
		{name: "Bind", op: func() error { return u.Bind(loopback4, 0) }},
		{name: "Connect", op: func() error { return u.Connect(addr) }},
		{name: "Disconnect", op: func() error { return u.Disconnect() }},
		{name: "Send", op: func() error { return u.Send([]byte("x"), addr, nil) }},
		{name: "TrySend", op: func() error { return u.TrySend([]byte("x"), addr) }},
		{name: "RecvStart", op: func() error { return u.RecvStart(func(*uvloop.UDP, []byte, netip.AddrPort, error) {}) }},
		{name: "SetBroadcast", op: func() error { return u.SetBroadcast(true) }},
		{name: "SetTTL", op: func() error { return u.SetTTL(64) }},
		{name: "SetMulticastTTL", op: func() error { return u.SetMulticastTTL(1) }},
		{name: "SetMulticastLoop", op: func() error { return u.SetMulticastLoop(true) }},
		{name: "SetMulticastInterface", op: func() error { return u.SetMulticastInterface(lo) }},
		{name: "JoinGroup", op: func() error { return u.JoinGroup(netip.MustParseAddr("239.1.2.3"), lo) }},
		{name: "LeaveGroup", op: func() error { return u.LeaveGroup(netip.MustParseAddr("239.1.2.3"), lo) }},
		{name: "LocalAddr", op: func() error { _, err := u.LocalAddr(); return err }},
		{name: "RemoteAddr", op: func() error { _, err := u.RemoteAddr(); return err }},
		{name: "Close", op: func() error { return u.Close(nil) }},
	}
	check := func(when string) {
		for _, tt := range tests {
			if err := tt.op(); !errors.Is(err, uvloop.ErrClosed) {
				t.Errorf("%s %s: %v, want ErrClosed", tt.name, when, err)
			}
		}
		mustOK(t, u.RecvStop()) // stopping what is stopped is no error
	}
	check("while closing")
	if u.Fd() != -1 {
		t.Errorf("Fd %d after Close", u.Fd())
	}
	mustRunMode(t, l, uvloop.RunDefault)
	check("after the close callback")
	closeLoop(t, l)
	if _, err := l.NewUDP(); !errors.Is(err, uvloop.ErrClosed) {
		t.Errorf("NewUDP on a closed loop: %v", err)
	}
}

// udpOpenFds counts this process's open file descriptors.
func udpOpenFds(t testing.TB) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count open files: %v", err)
	}
	return len(ents)
}

// TestUDPNoFdLeak: sockets made explicitly, implicitly, by a failed Bind, connected,
// receiving, closed from a callback or with sends cancelled are all closed with their handles.
func TestUDPNoFdLeak(t *testing.T) {
	round := func() {
		l := newLoop(t)
		watchdog(t, l, 5*time.Second)
		server, svAddr := bindUDP(t, l, loopback4)
		recvs := 0
		mustOK(t, server.RecvStart(func(u *uvloop.UDP, _ []byte, _ netip.AddrPort, _ error) {
			if recvs++; recvs == 3 {
				u.Close(nil)
			}
		}))
		implicit, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, implicit.Send([]byte("1"), svAddr, func(error) {
			implicit.Send([]byte("queued"), svAddr, nil)
			implicit.Close(nil)
		}))
		failed, err := l.NewUDP()
		mustOK(t, err)
		if err := failed.Bind(netip.MustParseAddrPort("192.0.2.1:0"), 0); err == nil {
			t.Log("bound to a TEST-NET address: this machine has it")
		}
		connected, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, connected.Connect(svAddr))
		mustOK(t, connected.TrySend([]byte("2"), netip.AddrPort{}))
		mustOK(t, connected.TrySend([]byte("3"), netip.AddrPort{}))
		never, err := l.NewUDP() // never gets a socket
		mustOK(t, err)
		_ = never
		mustRunMode(t, l, uvloop.RunOnce)
		closeLoop(t, l)
	}
	round() // let the runtime open whatever it opens once
	before := udpOpenFds(t)
	for range 3 {
		round()
	}
	if after := udpOpenFds(t); after != before {
		t.Errorf("%d open files before, %d after", before, after)
	}
}

// TestUDPAllocs: a steady-state receive of one datagram, and a Send of an existing buffer
// whose completion callback runs, allocate nothing (Linux: the BSDs' recvfrom allocates the
// sender's address).
func TestUDPAllocs(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the allocation-free receive path is Linux's")
	}
	l := newLoop(t)
	server, svAddr := bindUDP(t, l, loopback4)
	client, _ := bindUDP(t, l, loopback4)
	msg := make([]byte, 64)
	recvs, sent := 0, 0
	onRecv := func(_ *uvloop.UDP, data []byte, _ netip.AddrPort, err error) {
		if err != nil || len(data) != len(msg) {
			t.Errorf("received %d bytes, %v", len(data), err)
		}
		recvs++
	}
	onSent := func(err error) {
		if err != nil {
			t.Error(err)
		}
		sent++
	}
	mustOK(t, server.RecvStart(onRecv))
	tests := []struct {
		name string
		iter func()
	}{
		{name: "receive", iter: func() {
			want := recvs + 1
			if err := client.TrySend(msg, svAddr); err != nil {
				t.Fatal(err)
			}
			for recvs < want {
				noWait(t, l)
			}
		}},
		{name: "send", iter: func() {
			want := sent + 1
			if err := client.Send(msg, svAddr, onSent); err != nil {
				t.Fatal(err)
			}
			for sent < want || recvs < want {
				noWait(t, l)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 100 {
				tt.iter()
			}
			sent, recvs = 0, 0
			if n := testing.AllocsPerRun(1000, tt.iter); n != 0 {
				t.Errorf("%v allocations per %s, want 0", n, tt.name)
			}
		})
	}
	closeLoop(t, l)
}
