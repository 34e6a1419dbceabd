package uvloop_test

// Review rev7-tcpedge: TCP's edges (accepts, connects, shutdowns, closes at awkward
// moments), each scenario run on epoll and io_uring, on a plain loop and on one of its own
// thread.

import (
	"fmt"
	"net"
	"net/netip"
	"sync"
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
		// The loop has not run: its accept reaches the kernel after the limit is lowered (the
		// kernel reads RLIMIT_NOFILE when it takes the request, not at each accept).
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

// rev7PeerEnd reads from c until it ends (5 s at most) and names how: "EOF", the errno, or
// the bytes read first.
func rev7PeerEnd(c net.Conn) string {
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	var b [64]byte
	n, err := c.Read(b[:])
	if n > 0 {
		return fmt.Sprintf("read %q", b[:n])
	}
	return ringWriteErr(err)
}

// Two listeners with a connection each in the same batch; the first one's callback takes
// its connection and closes the second listener: the second's callback never runs, and its
// client sees a reset, as when epoll's listen queue is dropped (through the ring its
// connection was accepted already, later in the batch).
func TestRev7TwoListenersCloseOtherInBatch(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		checkFds(t)
		var g ringWriteLog
		var b *uvloop.TCP
		a, addrA := listenTCP(t, l, func(server *uvloop.TCP, err error) {
			g.add("A conn %s", ringWriteErr(err))
			acceptTCP(t, server).Close(nil)
			b.Close(func() { g.add("B closed") })
		})
		b, addrB := listenTCP(t, l, func(server *uvloop.TCP, err error) {
			g.add("B conn %s", ringWriteErr(err))
		})
		ca, err := net.Dial("tcp", addrA.String())
		mustOK(t, err)
		defer ca.Close()
		cb, err := net.Dial("tcp", addrB.String())
		mustOK(t, err)
		defer cb.Close()
		for acceptQueue(t, addrA.Port()) < 1 || acceptQueue(t, addrB.Port()) < 1 {
			time.Sleep(time.Millisecond)
		}
		runUntil(t, l, "B closed", func() bool { return len(g) >= 2 })
		runNoWaitN(t, l, 3)
		g.add("client A %s", rev7PeerEnd(ca))
		g.add("client B %s", rev7PeerEnd(cb))
		a.Close(nil)
		return g
	})
}

// The owner closes a parked listener between runs (its callback took no connection, more
// arrived): no fd leaks, the announced connection ends as a closed one (EOF) and those
// behind it with a reset, on both backends and on a loop of its own thread (through the ring
// they are open fds in the listener's backlog, closed by the owner's goroutine).
func TestRev7CloseParkedListenerBetweenRuns(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		checkFds(t)
		var g ringWriteLog
		calls := 0
		srv, addr := listenTCP(t, l, func(server *uvloop.TCP, err error) {
			g.add("conn %s", ringWriteErr(err))
			calls++
		})
		cs := dialN(t, addr, 3)
		for acceptQueue(t, addr.Port()) < 3 {
			time.Sleep(time.Millisecond)
		}
		runUntil(t, l, "the first connection", func() bool { return calls > 0 })
		runNoWaitN(t, l, 3)
		closed := false
		srv.Close(func() { g.add("closed"); closed = true })
		runUntil(t, l, "close", func() bool { return closed })
		for i, c := range cs {
			g.add("client%d %s", i, rev7PeerEnd(c))
			c.Close()
		}
		return g
	})
}

// A burst of connections larger than the listen backlog: the kernel drops the handshakes
// that find the queue full and the clients retry; every connection is announced once, none
// fails, on both backends (through the ring, the multishot accept takes them as they come).
func TestRev7AcceptBurstOverBacklog(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		checkFds(t)
		var g ringWriteLog
		const n = 12
		seen := map[uint16]int{}
		errs := 0
		srv, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, srv.Bind(loopback, 0))
		mustOK(t, srv.Listen(1, func(err error) {
			if err != nil {
				errs++
				return
			}
			c := acceptTCP(t, srv)
			peer, err := c.RemoteAddr()
			mustOK(t, err)
			seen[peer.Port()]++
			c.Close(nil)
		}))
		addr, err := srv.LocalAddr()
		mustOK(t, err)
		var mu sync.Mutex
		var clients []net.Conn
		dials := 0
		for range n {
			go func() {
				c, err := net.DialTimeout("tcp", addr.String(), 4*time.Second)
				mu.Lock()
				defer mu.Unlock()
				dials++
				if err == nil {
					// A handshake whose last ACK found the queue full completes when the
					// client sends (its retransmits come sooner than the server's).
					c.Write([]byte("x"))
					clients = append(clients, c)
				}
			}()
		}
		done := func() bool {
			mu.Lock()
			defer mu.Unlock()
			return dials == n && len(seen) >= len(clients)
		}
		runUntil(t, l, "every connection", done)
		defer func() {
			for _, c := range clients {
				c.Close()
			}
		}()
		twice := 0
		for _, k := range seen {
			if k > 1 {
				twice++
			}
		}
		g.add("dialed %d announced %d twice %d errors %d", len(clients), len(seen), twice, errs)
		ringWriteClose(t, l, srv, nil, false)
		return g
	})
}

// Out of fds with the reserve lost (another thread took it): the connection callback hears
// EMFILE, as in libuv, and when its callback frees fds the waiting connection is announced
// next, on both backends (through the ring, the multishot accept that ended on EMFILE is
// armed again).
func TestRev7AcceptEmfileNoReserve(t *testing.T) {
	rev4InChild(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		var g ringWriteLog
		var dups []int
		defer func() {
			for _, fd := range dups {
				unix.Close(fd)
			}
		}()
		server, addr := listenTCP(t, l, func(server *uvloop.TCP, err error) {
			g.add("conn %s", ringWriteErr(err))
			if err != nil {
				for _, fd := range dups {
					unix.Close(fd)
				}
				dups = nil
				return
			}
			c, err := l.NewTCP()
			mustOK(t, err)
			mustOK(t, server.Accept(c))
			c.Close(nil)
		})
		if ln, err := net.Listen("tcp", "127.0.0.1:0"); err == nil {
			ln.Close()
		}
		client, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		mustOK(t, err)
		defer unix.Close(client)
		l.DropReserveFd()
		dups = useUpFds(t)
		// No connection waits: the loop sleeps until its timer, the callback not called.
		fired := false
		tm := l.NewTimer(func(*uvloop.Timer) { fired = true })
		mustOK(t, tm.Start(20*time.Millisecond, 0))
		before := l.Metrics().LoopCount
		for !fired {
			mustRunMode(t, l, uvloop.RunOnce)
		}
		if n := l.Metrics().LoopCount - before; n > 5 {
			g.add("%d iterations with no connection waiting", n)
		}
		mustOK(t, unix.Connect(client, &unix.SockaddrInet4{Port: int(addr.Port()), Addr: addr.Addr().As4()}))
		runUntil(t, l, "the connection", func() bool { return len(g) > 0 && g[len(g)-1] == "conn nil" })
		if want := []string{"conn 24(too many open files)", "conn nil"}; fmt.Sprint(g) != fmt.Sprint(want) {
			t.Errorf("got %q, want %q", g, want)
		}
		server.Close(nil)
		closeLoop(t, l)
	})
}

// Listen twice on one handle (libuv allows it: the new callback and backlog apply), then
// Close: the listener is counted once among what the io_uring backend accepts for, so none
// is left once it is closed (the count kept the loop waiting in the kernel without an fd).
// The second callback gets the connections.
func TestRev7ListenTwice(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		checkFds(t)
		var g ringWriteLog
		srv, addr := listenTCP(t, l, func(*uvloop.TCP, error) { g.add("first callback") })
		mustOK(t, srv.Listen(64, func(err error) {
			g.add("second callback %s", ringWriteErr(err))
			acceptTCP(t, srv).Close(nil)
		}))
		c, err := net.Dial("tcp", addr.String())
		mustOK(t, err)
		defer c.Close()
		runUntil(t, l, "the connection", func() bool { return len(g) > 0 })
		ringWriteClose(t, l, srv, &g, false)
		recvs, sends := l.KernelWaitCounts()
		g.add("recvs %d sends %d", recvs, sends)
		return g
	})
}

// Two listeners on one port (TCPReusePort): the kernel spreads the connections between
// them, and each is announced once, by one of them, on both backends.
func TestRev7ReusePortListeners(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		checkFds(t)
		var g ringWriteLog
		seen := map[uint16]int{}
		listen := func(addr netip.AddrPort) *uvloop.TCP {
			s, err := l.NewTCP()
			mustOK(t, err)
			mustOK(t, s.Bind(addr, uvloop.TCPReusePort))
			mustOK(t, s.Listen(64, func(err error) {
				mustOK(t, err)
				c := acceptTCP(t, s)
				peer, err := c.RemoteAddr()
				mustOK(t, err)
				seen[peer.Port()]++
				c.Close(nil)
			}))
			return s
		}
		a := listen(loopback)
		addr, err := a.LocalAddr()
		mustOK(t, err)
		b := listen(addr)
		const n = 16
		cs := dialN(t, addr, n)
		defer func() {
			for _, c := range cs {
				c.Close()
			}
		}()
		runUntil(t, l, "every connection", func() bool { return len(seen) == n })
		runNoWaitN(t, l, 3)
		twice := 0
		for _, k := range seen {
			if k > 1 {
				twice++
			}
		}
		g.add("announced %d twice %d", len(seen), twice)
		ringWriteClose(t, l, b, nil, false)
		ringWriteClose(t, l, a, nil, false)
		return g
	})
}
