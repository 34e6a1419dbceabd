package uvloop_test

import (
	"errors"
	"io"
	"net"
	"net/netip"
	"os"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// TCP features beyond the libuv ports: IPv6, options, addresses, adopted fds, SO_REUSEPORT,
// misuse, and the loop's liveness while requests are in flight.

func TestTCPIPv6(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	s, err := l.NewTCP()
	mustOK(t, err)
	if err := s.Bind(netip.MustParseAddrPort("[::1]:0"), uvloop.TCPIPv6Only); err != nil {
		s.Close(nil)
		closeLoop(t, l)
		t.Skipf("no IPv6 loopback: %v", err)
	}
	mustOK(t, s.Listen(16, func(err error) {
		mustOK(t, err)
		c := acceptTCP(t, s)
		ra, err := c.RemoteAddr()
		mustOK(t, err)
		if !ra.Addr().Is6() || ra.Addr() != netip.MustParseAddr("::1") {
			t.Errorf("RemoteAddr = %v", ra)
		}
		echo(t, c, 1<<20, nil)
		s.Close(nil)
	}))
	addr, err := s.LocalAddr()
	mustOK(t, err)
	if addr.Addr() != netip.MustParseAddr("::1") || addr.Port() == 0 {
		t.Fatalf("LocalAddr = %v", addr)
	}
	c, err := l.NewTCP()
	mustOK(t, err)
	got := ""
	mustOK(t, c.ConnectString(addr.String(), func(err error) {
		mustOK(t, err)
		mustOK(t, c.Write([]byte("hello v6"), nil))
		mustOK(t, c.ReadStart(func(data []byte, err error) {
			mustOK(t, err)
			got += string(data)
			if got == "hello v6" {
				c.Close(nil)
			}
		}))
	}))
	runLoop(t, l)
	if got != "hello v6" {
		t.Fatalf("got %q", got)
	}
	closeLoop(t, l)
}

// Options set before the socket exists apply when it is created; addresses are reported.
func TestTCPOptionsAndAddrs(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	var accepted *uvloop.TCP
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		accepted = acceptTCP(t, s)
		s.Close(nil)
	})
	_ = server
	c, err := l.NewTCP()
	mustOK(t, err)
	if c.Fd() != -1 {
		t.Fatal("a new TCP handle has a socket")
	}
	if _, err := c.LocalAddr(); err == nil {
		t.Fatal("LocalAddr of a handle without a socket succeeded")
	}
	mustOK(t, c.SetNoDelay(true))
	mustOK(t, c.SetKeepAlive(true, 30*time.Second))
	mustOK(t, c.Connect(addr, func(err error) {
		mustOK(t, err)
		for _, o := range []struct {
			level, opt, want int
		}{
			{unix.IPPROTO_TCP, unix.TCP_NODELAY, 1},
			{unix.SOL_SOCKET, unix.SO_KEEPALIVE, 1},
		} {
			if v, err := unix.GetsockoptInt(c.Fd(), o.level, o.opt); err != nil || (v != 0) != (o.want != 0) {
				t.Errorf("option %d/%d = %d, %v", o.level, o.opt, v, err)
			}
		}
		la, err := c.LocalAddr()
		mustOK(t, err)
		ra, err := c.RemoteAddr()
		mustOK(t, err)
		if ra != addr || !la.Addr().IsLoopback() || la.Port() == 0 {
			t.Errorf("LocalAddr %v, RemoteAddr %v (want %v)", la, ra, addr)
		}
		mustOK(t, c.SetNoDelay(false))
		mustOK(t, c.SetKeepAlive(false, 0))
		if v, _ := unix.GetsockoptInt(c.Fd(), unix.SOL_SOCKET, unix.SO_KEEPALIVE); v != 0 {
			t.Error("keep-alive still on")
		}
		c.Close(nil)
	}))
	runLoop(t, l)
	if accepted == nil {
		t.Fatal("no connection accepted")
	}
	accepted.Close(nil)
	closeLoop(t, l)
}

// Open adopts the socket of a net.Listener (dup'ed from its File) and of a connected
// net.Conn; the loop serves the one and talks over the other.
func TestTCPOpenAdoptsFd(t *testing.T) {
	checkFds(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	mustOK(t, err)
	f, err := ln.(*net.TCPListener).File()
	mustOK(t, err)
	fd, err := unix.Dup(int(f.Fd()))
	mustOK(t, err)
	unix.CloseOnExec(fd)
	f.Close()
	addr := netip.MustParseAddrPort(ln.Addr().String())
	ln.Close() // the dup keeps the socket listening

	l := newLoop(t)
	server, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, server.Open(fd))
	mustOK(t, server.Listen(16, func(err error) {
		mustOK(t, err)
		echo(t, acceptTCP(t, server), 1<<20, nil)
		server.Close(nil)
	}))

	// A goroutine dials with package net, hands the connection over, and waits.
	type dialed struct {
		fd  int
		err error
	}
	ch := make(chan dialed, 1)
	go func() {
		c, err := net.Dial("tcp", addr.String())
		if err != nil {
			ch <- dialed{-1, err}
			return
		}
		cf, err := c.(*net.TCPConn).File()
		c.Close()
		if err != nil {
			ch <- dialed{-1, err}
			return
		}
		fd, err := unix.Dup(int(cf.Fd()))
		cf.Close()
		ch <- dialed{fd, err}
	}()
	// Run the loop until the dial is accepted, then adopt the client side.
	var d dialed
	for d.fd == 0 {
		mustRunMode(t, l, uvloop.RunNoWait)
		select {
		case d = <-ch:
		default:
			time.Sleep(time.Millisecond)
		}
	}
	mustOK(t, d.err)
	unix.CloseOnExec(d.fd)
	client, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, client.Open(d.fd))
	got := ""
	mustOK(t, client.Write([]byte("adopted"), nil))
	mustOK(t, client.ReadStart(func(data []byte, err error) {
		mustOK(t, err)
		got += string(data)
		if got == "adopted" {
			client.Close(nil)
		}
	}))
	runLoop(t, l)
	if got != "adopted" {
		t.Fatalf("got %q", got)
	}
	closeLoop(t, l)
}

// Two loops' listeners share one port with TCPReusePort.
func TestTCPReusePort(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	a, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, a.Bind(loopback, uvloop.TCPReusePort))
	mustOK(t, a.Listen(16, func(error) {}))
	addr, err := a.LocalAddr()
	mustOK(t, err)
	b, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, b.Bind(addr, uvloop.TCPReusePort))
	mustOK(t, b.Listen(16, func(error) {}))
	c, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, c.Bind(addr, 0)) // EADDRINUSE is delayed, as in libuv
	if err := c.Listen(16, func(error) {}); !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("Listen without SO_REUSEPORT on a used port: %v, want EADDRINUSE", err)
	}
	closeLoop(t, l)
}

// Misuse returns errors and leaves the handle usable.
func TestStreamMisuse(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		echo(t, acceptTCP(t, s), 1<<20, nil)
		s.Close(nil)
	})
	idle, err := l.NewTCP()
	mustOK(t, err)
	if err := server.Accept(idle); !errors.Is(err, syscall.EAGAIN) {
		t.Fatalf("Accept with nothing waiting: %v, want EAGAIN", err)
	}
	if err := idle.Write([]byte("x"), nil); !errors.Is(err, syscall.EBADF) {
		t.Fatalf("Write without a socket: %v, want EBADF", err)
	}
	if err := idle.Shutdown(nil); !errors.Is(err, syscall.ENOTCONN) {
		t.Fatalf("Shutdown without a socket: %v, want ENOTCONN", err)
	}
	if err := idle.ReadStart(func([]byte, error) {}); err == nil {
		t.Fatal("ReadStart without a socket succeeded")
	}
	if err := idle.Listen(1, nil); !errors.Is(err, uvloop.ErrNilCallback) {
		t.Fatalf("Listen(nil): %v", err)
	}
	c, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, c.Connect(addr, func(err error) {
		mustOK(t, err)
		if err := c.Connect(addr, nil); !errors.Is(err, syscall.EISCONN) {
			t.Errorf("Connect of a connected handle: %v, want EISCONN", err)
		}
		mustOK(t, c.Shutdown(nil))
		if err := c.Shutdown(nil); !errors.Is(err, syscall.ENOTCONN) {
			t.Errorf("second Shutdown: %v, want ENOTCONN", err)
		}
		if err := c.Write([]byte("x"), nil); !errors.Is(err, syscall.EPIPE) {
			t.Errorf("Write after Shutdown: %v, want EPIPE", err)
		}
		if !c.IsReadable() || c.IsWritable() {
			t.Errorf("after Shutdown: readable %v, writable %v", c.IsReadable(), c.IsWritable())
		}
		mustOK(t, c.ReadStart(func(data []byte, err error) {
			if errors.Is(err, io.EOF) {
				c.Close(nil)
				if err := c.Close(nil); !errors.Is(err, uvloop.ErrClosed) {
					t.Errorf("second Close: %v", err)
				}
			}
		}))
	}))
	if err := c.Connect(addr, nil); !errors.Is(err, syscall.EALREADY) {
		t.Fatalf("second Connect: %v, want EALREADY", err)
	}
	if c.Kind() != uvloop.KindTCP || c.Kind().String() != "tcp" {
		t.Fatalf("Kind = %v", c.Kind())
	}
	idle.Close(nil)
	runLoop(t, l)
	closeLoop(t, l)
}

// Writes in flight and a connect keep the loop alive and Loop.Close busy; an idle
// connected stream does not keep the loop alive, a reading one does.
func TestStreamLiveness(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	var conn *uvloop.TCP
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		conn = acceptTCP(t, s)
	})
	c, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, c.Connect(addr, func(err error) { mustOK(t, err) }))
	server.Unref()
	if !l.Alive() {
		t.Fatal("a connect in flight does not keep the loop alive")
	}
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Close with handles open: %v", err)
	}
	for conn == nil {
		mustRunMode(t, l, uvloop.RunOnce)
	}
	runLoop(t, l) // nothing is reading: the loop ends
	if c.IsActive() {
		t.Fatal("an idle connection is active")
	}
	mustOK(t, conn.ReadStart(func([]byte, error) {}))
	if !conn.IsActive() || !l.Alive() {
		t.Fatal("a reading stream does not keep the loop alive")
	}
	mustOK(t, conn.ReadStop())
	if conn.IsActive() || l.Alive() {
		t.Fatal("a stopped stream keeps the loop alive")
	}
	written := false
	mustOK(t, c.Write([]byte("x"), func(err error) { written = true }))
	if !l.Alive() {
		t.Fatal("a write in flight does not keep the loop alive")
	}
	runLoop(t, l)
	if !written {
		t.Fatal("the write callback did not run")
	}
	_ = os.Getpid
	closeLoop(t, l)
}
