package uvloop_test

// Review rev7-tcpedge: TCP's edges (accepts, connects, shutdowns, closes at awkward
// moments), each scenario run on epoll and io_uring, on a plain loop and on one of its own
// thread.

import (
	"net"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// A listener with no connection waiting, while the process has no fd left: the loop sleeps
// until its timer, as on readiness (the listener is not readable). Through the ring, the
// multishot accept needs a free fd before it looks at the queue, so it failed with EMFILE at
// once each time it was armed: the trick found nothing to shed, and the loop span, arming it
// again at every wait. When fds come back, the next connection is announced.
func TestRev7AcceptEmfileIdle(t *testing.T) {
	rev4InChild(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		conns := 0
		server, addr := listenTCP(t, l, func(server *uvloop.TCP, err error) {
			mustOK(t, err)
			conns++
			c, err := l.NewTCP()
			mustOK(t, err)
			mustOK(t, server.Accept(c))
			c.Close(nil)
		})
		if ln, err := net.Listen("tcp", "127.0.0.1:0"); err == nil {
			ln.Close() // the runtime's poller opens its fds now
		}
		mustRunMode(t, l, uvloop.RunNoWait)
		client, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		mustOK(t, err)
		defer unix.Close(client)
		dups := useUpFds(t)
		// A connection while no fd is free: shed.
		mustOK(t, unix.Connect(client, &unix.SockaddrInet4{Port: int(addr.Port()), Addr: addr.Addr().As4()}))
		var b [1]byte
		for {
			mustRunMode(t, l, uvloop.RunNoWait)
			n, _, err := unix.Recvfrom(client, b[:], unix.MSG_DONTWAIT)
			if err != unix.EAGAIN {
				if n != 0 || err != nil {
					t.Errorf("the shed connection read %d, %v; want its end", n, err)
				}
				break
			}
		}
		fired := false
		tm := l.NewTimer(func(*uvloop.Timer) { fired = true })
		mustOK(t, tm.Start(50*time.Millisecond, 0))
		before := l.Metrics().LoopCount
		for !fired {
			mustRunMode(t, l, uvloop.RunOnce)
		}
		if n := l.Metrics().LoopCount - before; n > 10 {
			t.Errorf("%d iterations out of fds with no connection waiting (want the loop asleep)", n)
		}
		for _, fd := range dups {
			unix.Close(fd)
		}
		c, err := net.Dial("tcp", addr.String())
		mustOK(t, err)
		defer c.Close()
		runUntil(t, l, "the connection", func() bool { return conns == 1 })
		server.Close(nil)
		closeLoop(t, l)
	})
}
