package uvloop_test

import (
	"errors"
	"net/netip"
	"syscall"
	"testing"
	"time"

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
