package uvloop_test

import (
	"bytes"
	"errors"
	"net/netip"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test/test-udp-send-and-recv.c, test-udp-connect.c and test-udp-try-send.c.
// libuv binds 0.0.0.0 to a fixed test port; these bind 127.0.0.1:0 and use the port the system
// picked.

var loopback4 = netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), 0)

// bindUDP returns a UDP handle bound to addr and the address it got.
func bindUDP(t testing.TB, l *uvloop.Loop, addr netip.AddrPort) (*uvloop.UDP, netip.AddrPort) {
	t.Helper()
	u, err := l.NewUDP()
	mustOK(t, err)
	mustOK(t, u.Bind(addr, 0))
	got, err := u.LocalAddr()
	mustOK(t, err)
	if got.Port() == 0 {
		t.Fatalf("bound to %v: no port", got)
	}
	return u, got
}

// watchdog fails the test and closes every handle if the loop still runs after d. The timer
// is unref'd: it does not keep the loop alive.
func watchdog(t testing.TB, l *uvloop.Loop, d time.Duration) {
	t.Helper()
	tm := l.NewTimer(func(*uvloop.Timer) {
		t.Errorf("timed out after %v", d)
		l.Walk(func(h uvloop.Handle) {
			if !h.IsClosing() {
				h.Close(nil)
			}
		})
	})
	tm.Unref()
	mustOK(t, tm.Start(d, 0))
}

// wantErrno fails the test unless err wraps errno.
func wantErrno(t testing.TB, what string, err error, errno syscall.Errno) {
	t.Helper()
	if !errors.Is(err, errno) {
		t.Errorf("%s: got %v, want %v", what, err, errno)
	}
}

// udp_send_and_recv: the client sends PING and, once the send has completed, starts
// receiving; the server answers PONG to the sender's address and closes in its send callback;
// the client closes when the PONG arrives. No callback runs from inside Send.
func TestLibuvUDPSendAndRecv(t *testing.T) {
	l := newLoop(t)
	watchdog(t, l, 5*time.Second)
	var clSend, clRecv, svSend, svRecv, closed int

	server, svAddr := bindUDP(t, l, loopback4)
	mustOK(t, server.RecvStart(func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
		mustOK(t, err)
		if !from.IsValid() || string(data) != "PING" {
			t.Fatalf("server got %q from %v", data, from)
		}
		mustOK(t, u.RecvStop())
		mustOK(t, u.Send([]byte("PONG"), from, func(err error) {
			mustOK(t, err)
			closeHandle(t, u, &closed)
			svSend++
		}))
		svRecv++
	}))

	client, err := l.NewUDP()
	mustOK(t, err)
	mustOK(t, client.Send([]byte("PING"), svAddr, func(err error) {
		mustOK(t, err)
		mustOK(t, client.RecvStart(func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
			mustOK(t, err)
			if from != svAddr || string(data) != "PONG" {
				t.Fatalf("client got %q from %v, want PONG from %v", data, from, svAddr)
			}
			clRecv++
			closeHandle(t, u, &closed)
		}))
		clSend++
	}))
	if closed+clSend+clRecv+svSend+svRecv != 0 {
		t.Fatal("a callback ran before Run")
	}
	mustRunMode(t, l, uvloop.RunDefault)
	if clSend != 1 || clRecv != 1 || svSend != 1 || svRecv != 1 || closed != 2 {
		t.Errorf("client send %d recv %d, server send %d recv %d, closed %d; want 1 1 1 1 2",
			clSend, clRecv, svSend, svRecv, closed)
	}
	closeLoop(t, l)
}

// udp_connect: a connected handle refuses a second Connect (EISCONN) and any send with an
// address (EISCONN); a disconnected one refuses a second Disconnect and RemoteAddr
// (ENOTCONN) and any send without an address (EDESTADDRREQ). Four EXITs reach the server:
// two TrySends and two Sends, the second made from the first's callback after a Disconnect.
func TestLibuvUDPConnect(t *testing.T) {
	l := newLoop(t)
	watchdog(t, l, 5*time.Second)
	var sends, recvs, closed int
	exit := []byte("EXIT")

	server, svAddr := bindUDP(t, l, loopback4)
	client, err := l.NewUDP()
	mustOK(t, err)
	mustOK(t, server.RecvStart(func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
		mustOK(t, err)
		if !from.IsValid() || !bytes.Equal(data, exit) {
			t.Fatalf("server got %q from %v", data, from)
		}
		if recvs++; recvs == 4 {
			closeHandle(t, server, &closed)
			closeHandle(t, client, &closed)
		}
	}))

	ext := netip.MustParseAddrPort("8.8.8.8:9")
	mustOK(t, client.Connect(svAddr))
	wantErrno(t, "second Connect", client.Connect(ext), syscall.EISCONN)
	peer, err := client.RemoteAddr()
	mustOK(t, err)
	if peer != svAddr {
		t.Errorf("RemoteAddr %v, want %v", peer, svAddr)
	}
	wantErrno(t, "connected TrySend with an address", client.TrySend(exit, svAddr), syscall.EISCONN)
	mustOK(t, client.TrySend(exit, netip.AddrPort{}))
	wantErrno(t, "connected TrySend elsewhere", client.TrySend(exit, ext), syscall.EISCONN)

	mustOK(t, client.Disconnect())
	wantErrno(t, "second Disconnect", client.Disconnect(), syscall.ENOTCONN)
	_, err = client.RemoteAddr()
	wantErrno(t, "RemoteAddr after Disconnect", err, syscall.ENOTCONN)
	mustOK(t, client.TrySend(exit, svAddr))
	wantErrno(t, "unconnected TrySend without an address", client.TrySend(exit, netip.AddrPort{}), syscall.EDESTADDRREQ)

	mustOK(t, client.Connect(svAddr))
	var sendCb func(error)
	sendCb = func(err error) {
		mustOK(t, err)
		if sends++; sends == 1 {
			mustOK(t, client.Disconnect())
			wantErrno(t, "Send without an address", client.Send(exit, netip.AddrPort{}, sendCb), syscall.EDESTADDRREQ)
			mustOK(t, client.Send(exit, svAddr, sendCb))
		}
	}
	wantErrno(t, "connected Send with an address", client.Send(exit, svAddr, sendCb), syscall.EISCONN)
	mustOK(t, client.Send(exit, netip.AddrPort{}, sendCb))

	mustRunMode(t, l, uvloop.RunDefault)
	if closed != 2 || recvs != 4 || sends != 2 {
		t.Errorf("closed %d, received %d, send callbacks %d; want 2 4 2", closed, recvs, sends)
	}
	if client.SendQueueSize() != 0 || server.SendQueueSize() != 0 {
		t.Errorf("send queues hold %d and %d bytes", client.SendQueueSize(), server.SendQueueSize())
	}
	closeLoop(t, l)
}

// udp_try_send: a 64 KiB datagram fails at once with EMSGSIZE; a small one goes, and the
// server closes both handles when it arrives.
func TestLibuvUDPTrySend(t *testing.T) {
	l := newLoop(t)
	watchdog(t, l, 5*time.Second)
	var recvs, closed int
	server, svAddr := bindUDP(t, l, loopback4)
	client, err := l.NewUDP()
	mustOK(t, err)
	mustOK(t, server.RecvStart(func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
		mustOK(t, err)
		if !from.IsValid() || string(data) != "EXIT" {
			t.Fatalf("server got %q from %v", data, from)
		}
		closeHandle(t, server, &closed)
		closeHandle(t, client, &closed)
		recvs++
	}))
	wantErrno(t, "TrySend of 64 KiB", client.TrySend(make([]byte, 64<<10), svAddr), syscall.EMSGSIZE)
	mustOK(t, client.TrySend([]byte("EXIT"), svAddr))
	mustRunMode(t, l, uvloop.RunDefault)
	if closed != 2 || recvs != 1 {
		t.Errorf("closed %d, received %d; want 2 1", closed, recvs)
	}
	if client.SendQueueSize() != 0 || server.SendQueueSize() != 0 {
		t.Errorf("send queues hold %d and %d bytes", client.SendQueueSize(), server.SendQueueSize())
	}
	closeLoop(t, l)
}
