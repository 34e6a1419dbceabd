package uvloop_test

import (
	"errors"
	"net/netip"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test-udp-open.c (UDP.Open, added for them), in our own words, each run in
// every mode.

// newUDPSocketRev10l returns a fresh IPv4 datagram socket for Open.
func newUDPSocketRev10l(t *testing.T) int {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	mustOK(t, err)
	return fd
}

// udp_open and udp_open_twice: a handle opened on a fresh socket binds, receives and sends to
// itself; the send calls back with success and closes the handle, the queue is then empty. A
// second Open of the handle fails with EBUSY; another handle's Open of its fd with EEXIST.
func TestLibuvUDPOpenRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		fd := newUDPSocketRev10l(t)
		c, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, c.Open(fd))
		fd2 := newUDPSocketRev10l(t)
		wantErrno(t, "second Open", c.Open(fd2), syscall.EBUSY)
		unix.Close(fd2)
		c2, err := l.NewUDP()
		mustOK(t, err)
		if err := c2.Open(fd); !errors.Is(err, syscall.EEXIST) || !errors.Is(err, uvloop.ErrFdInUse) {
			t.Errorf("Open of a watched fd: %v, want EEXIST and ErrFdInUse", err)
		}
		c2.Close(nil)
		mustOK(t, c.Bind(loopback4, 0))
		addr, err := c.LocalAddr()
		mustOK(t, err)
		sends, recvs, closed := 0, 0, 0
		mustOK(t, c.RecvStart(func(_ *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
			mustOK(t, err)
			if string(data) != "PING" || from != addr {
				t.Errorf("received %q from %v", data, from)
			}
			recvs++
		}))
		mustOK(t, c.Send([]byte("PING"), addr, func(err error) {
			mustOK(t, err)
			sends++
			c.Close(func() { closed++ })
		}))
		runLoop(t, l)
		if sends != 1 || closed != 1 || c.SendQueueSize() != 0 {
			t.Fatalf("send callbacks %d, close %d, queued %d (receives %d)", sends, closed, c.SendQueueSize(), recvs)
		}
	})
}

// udp_open_bound: a handle opened on a socket bound outside the loop receives (RecvStart
// binds nothing more) and closes cleanly.
func TestLibuvUDPOpenBoundRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		fd := newUDPSocketRev10l(t)
		if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
			unix.Close(fd)
			t.Fatal(err)
		}
		want, err := unix.Getsockname(fd)
		mustOK(t, err)
		c, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, c.Open(fd))
		mustOK(t, c.RecvStart(func(*uvloop.UDP, []byte, netip.AddrPort, error) { t.Error("a receive") }))
		got, err := c.LocalAddr()
		mustOK(t, err)
		if got.Port() != uint16(want.(*unix.SockaddrInet4).Port) {
			t.Errorf("LocalAddr %v, bound to port %d", got, want.(*unix.SockaddrInet4).Port)
		}
		closeRunRev10l(t, l, c)
	})
}

// udp_open_connect: a handle opened on a socket connected outside the loop sends without an
// address; the server receives the datagram; the send calls back once, both handles close and
// the send queue is empty.
func TestLibuvUDPOpenConnectRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		server, addr := bindUDP(t, l, loopback4)
		fd := newUDPSocketRev10l(t)
		a4 := addr.Addr().As4()
		if err := unix.Connect(fd, &unix.SockaddrInet4{Addr: a4, Port: int(addr.Port())}); err != nil {
			unix.Close(fd)
			t.Fatal(err)
		}
		c, err := l.NewUDP()
		mustOK(t, err)
		mustOK(t, c.Open(fd))
		wantErrno(t, "Send with an address on a connected socket", c.Send([]byte("PING"), addr, nil), syscall.EISCONN)
		sends, recvs, closed := 0, 0, 0
		mustOK(t, server.RecvStart(func(u *uvloop.UDP, data []byte, _ netip.AddrPort, err error) {
			mustOK(t, err)
			if string(data) != "PING" {
				t.Errorf("received %q", data)
			}
			recvs++
			u.Close(func() { closed++ })
		}))
		mustOK(t, c.Send([]byte("PING"), netip.AddrPort{}, func(err error) {
			mustOK(t, err)
			sends++
			c.Close(func() { closed++ })
		}))
		runLoop(t, l)
		if sends != 1 || recvs != 1 || closed != 2 || c.SendQueueSize() != 0 {
			t.Fatalf("send callbacks %d, receives %d, close %d, queued %d", sends, recvs, closed, c.SendQueueSize())
		}
	})
}
