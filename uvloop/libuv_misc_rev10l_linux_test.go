package uvloop_test

import (
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test-tcp-oob.c, test-tcp-flags.c and test-handle-fileno.c, in our own
// words, each run in every mode. Linux only: they read socket options and send urgent data.

// tcp_oob: the client sends two bytes of urgent data (MSG_OOB, twice); the peer reads the
// in-band bytes and the loop goes on turning (urgent data does not wedge or spin it): an idle
// handle started from the read callback counts ten turns and closes everything.
func TestLibuvTCPOOBRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		client, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, client.SetNoDelay(true))
		var peer *uvloop.TCP
		ticks, reads := 0, 0
		var server *uvloop.TCP
		idle := l.NewIdle(func(h *uvloop.Idle) {
			if ticks++; ticks < 10 {
				return
			}
			server.Close(nil)
			client.Close(nil)
			peer.Close(nil)
			h.Close(nil)
		})
		server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
			mustOK(t, err)
			peer = acceptTCP(t, s)
			mustOK(t, peer.ReadStart(func(data []byte, err error) {
				mustOK(t, err)
				reads++
				if peer.Fd() < 0 {
					t.Error("no fd in the read callback")
				}
				mustOK(t, idle.Start())
			}))
			for range 2 {
				if err := unix.Sendto(client.Fd(), []byte("hello"), unix.MSG_OOB, nil); err != nil {
					t.Fatalf("send MSG_OOB: %v", err)
				}
			}
		})
		mustOK(t, client.Connect(addr, func(err error) { mustOK(t, err) }))
		runLoop(t, l)
		if ticks != 10 || reads == 0 {
			t.Fatalf("idle turns %d, reads %d", ticks, reads)
		}
	})
}

// tcp_flags: on a socket, SetNoDelay(true) sets TCP_NODELAY; SetKeepAlive(true, 60s) sets
// SO_KEEPALIVE and TCP_KEEPIDLE 60; SetKeepAlive(false, 0) clears SO_KEEPALIVE. libuv 1.52
// refuses keep-alive on with a zero delay (EINVAL); uvgo documents it as 1s, and so it is.
func TestLibuvTCPFlagsRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		h, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, h.Bind(loopback, 0))
		opt := func(level, name int) int {
			v, err := unix.GetsockoptInt(h.Fd(), level, name)
			mustOK(t, err)
			return v
		}
		mustOK(t, h.SetNoDelay(true))
		if opt(unix.IPPROTO_TCP, unix.TCP_NODELAY) == 0 {
			t.Error("TCP_NODELAY not set")
		}
		mustOK(t, h.SetKeepAlive(true, 60*time.Second))
		if opt(unix.SOL_SOCKET, unix.SO_KEEPALIVE) == 0 || opt(unix.IPPROTO_TCP, unix.TCP_KEEPIDLE) != 60 {
			t.Errorf("keep-alive %d, idle %d; want on, 60", opt(unix.SOL_SOCKET, unix.SO_KEEPALIVE), opt(unix.IPPROTO_TCP, unix.TCP_KEEPIDLE))
		}
		mustOK(t, h.SetKeepAlive(false, 0))
		if opt(unix.SOL_SOCKET, unix.SO_KEEPALIVE) != 0 {
			t.Error("SO_KEEPALIVE still set")
		}
		mustOK(t, h.SetKeepAlive(true, 0))
		if opt(unix.SOL_SOCKET, unix.SO_KEEPALIVE) == 0 || opt(unix.IPPROTO_TCP, unix.TCP_KEEPIDLE) != 1 {
			t.Errorf("keep-alive with no delay: %d, idle %d; want on, 1", opt(unix.SOL_SOCKET, unix.SO_KEEPALIVE), opt(unix.IPPROTO_TCP, unix.TCP_KEEPIDLE))
		}
		closeRunRev10l(t, l, h)
	})
}

// handle_fileno: a TCP, UDP or pipe handle has no fd (-1) until it has a socket, has one
// once bound, and has none again from Close on; a TTY on a read-only fd has its fd and is
// readable, not writable (Write fails with EPIPE), one on a write-only fd is writable only.
// (libuv bases both on the access mode alone; uvgo's readable argument narrows a read-write
// fd's handle to writing, as NewTTY documents.)
func TestLibuvHandleFilenoRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		tcp, err := l.NewTCP()
		mustOK(t, err)
		udp, err := l.NewUDP()
		mustOK(t, err)
		pipe, err := l.NewPipe()
		mustOK(t, err)
		for _, c := range []struct {
			name string
			h    uvloop.Handle
			fd   func() int
			bind func() error
		}{
			{"tcp", tcp, tcp.Fd, func() error { return tcp.Bind(loopback, 0) }},
			{"udp", udp, udp.Fd, func() error { return udp.Bind(loopback4, 0) }},
			{"pipe", pipe, pipe.Fd, func() error { return pipe.Bind(pipePath(t)) }},
		} {
			if fd := c.fd(); fd != -1 {
				t.Errorf("%s: Fd %d before a socket, want -1", c.name, fd)
			}
			mustOK(t, c.bind())
			if fd := c.fd(); fd < 0 {
				t.Errorf("%s: Fd %d once bound", c.name, fd)
			}
			c.h.Close(nil)
			if fd := c.fd(); fd != -1 {
				t.Errorf("%s: Fd %d after Close, want -1", c.name, fd)
			}
		}
		// libuv opens /dev/tty read-only; here the slave of a pty, opened again read-only
		// (and write-only: the access mode bounds what the handle may do).
		_, slave := openPty(t)
		name, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(slave))
		mustOK(t, err)
		for _, c := range []struct {
			mode                int
			readable            bool
			wantRead, wantWrite bool
		}{
			{unix.O_RDONLY, true, true, false},
			{unix.O_WRONLY, false, false, true},
			{unix.O_WRONLY, true, false, true},
			{unix.O_RDWR, true, true, true},
		} {
			fd, err := unix.Open(name, c.mode|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
			mustOK(t, err)
			tty, err := l.NewTTY(fd, c.readable)
			mustOK(t, err)
			if tty.Fd() < 0 || tty.IsReadable() != c.wantRead || tty.IsWritable() != c.wantWrite {
				t.Errorf("tty on an fd of mode %d, readable %v: Fd %d, readable %v, writable %v; want %v, %v",
					c.mode, c.readable, tty.Fd(), tty.IsReadable(), tty.IsWritable(), c.wantRead, c.wantWrite)
			}
			if !c.wantWrite {
				wantErrno(t, "Write to a read-only tty", tty.Write([]byte("x"), func(error) { t.Error("a write callback") }), syscall.EPIPE)
			}
			tty.Close(nil)
			unix.Close(fd)
		}
		runLoop(t, l)
	})
}
