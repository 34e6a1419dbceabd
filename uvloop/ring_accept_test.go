package uvloop_test

import (
	"errors"
	"net"
	"net/netip"
	"runtime"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/ostest"
	"github.com/uvgo/uvgo/poller"
	"github.com/uvgo/uvgo/uvloop"
)

// eachBackend runs test once per backend this system may have (epoll and io_uring on
// Linux, the default elsewhere), as a subtest named after it, skipped with the reason when
// the backend does not open here.
func eachBackend(t *testing.T, test func(t *testing.T, b uvloop.Backend)) {
	backends := []uvloop.Backend{uvloop.BackendAuto}
	if runtime.GOOS == "linux" {
		backends = []uvloop.Backend{uvloop.BackendEpoll, uvloop.BackendIOURing}
	}
	for _, b := range backends {
		t.Run(b.String(), func(t *testing.T) {
			if err := poller.Available(b); err != nil {
				t.Skipf("backend %v does not open here: %v", b, err)
			}
			test(t, b)
		})
	}
}

// wantRingAccepts checks that a listener of backend b accepts through the ring exactly when
// the poller can (io_uring on Linux 5.19 or later).
func wantRingAccepts(t *testing.T, b uvloop.Backend, server *uvloop.TCP) {
	t.Helper()
	can := false
	if p, err := poller.Open(b); err == nil {
		can = p.CanAccept()
		p.Close()
	}
	if got := server.AcceptsThroughRing(); got != can {
		t.Fatalf("backend %v: the listener accepts through the ring: %v, want %v", b, got, can)
	}
}

// dialN connects n clients to addr and returns them in the order they connected, closed at
// the end of the test.
func dialN(t *testing.T, addr netip.AddrPort, n int) []net.Conn {
	t.Helper()
	var cs []net.Conn
	for range n {
		c, err := net.Dial("tcp", addr.String())
		mustOK(t, err)
		t.Cleanup(func() { c.Close() })
		cs = append(cs, c)
	}
	return cs
}

// closingServer listens on 127.0.0.1:0 with a callback that accepts each connection, closes
// it and counts it in *accepted.
func closingServer(tb testing.TB, l *uvloop.Loop, accepted *int) (*uvloop.TCP, netip.AddrPort) {
	return listenTCP(tb, l, func(server *uvloop.TCP, err error) {
		mustOK(tb, err)
		acceptTCP(tb, server).Close(nil)
		*accepted++
	})
}

// ports returns the clients' local ports, which the server sees as their remote ones.
func ports(cs []net.Conn) []uint16 {
	var ps []uint16
	for _, c := range cs {
		ps = append(ps, uint16(c.LocalAddr().(*net.TCPAddr).Port))
	}
	return ps
}

// A listener announces its connections once each, in the order they arrived, as
// non-blocking, close-on-exec sockets, on both backends.
func TestTCPAcceptOrder(t *testing.T) {
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		checkFds(t)
		l := newLoopWith(t, uvloop.WithBackend(b))
		var got []uint16
		server, addr := listenTCP(t, l, func(server *uvloop.TCP, err error) {
			mustOK(t, err)
			c := acceptTCP(t, server)
			fl, err := unix.FcntlInt(uintptr(c.Fd()), unix.F_GETFL, 0)
			mustOK(t, err)
			fdfl, err := unix.FcntlInt(uintptr(c.Fd()), unix.F_GETFD, 0)
			mustOK(t, err)
			if fl&unix.O_NONBLOCK == 0 || fdfl&unix.FD_CLOEXEC == 0 {
				t.Errorf("accepted fd: flags %#x, fd flags %#x; want O_NONBLOCK and FD_CLOEXEC", fl, fdfl)
			}
			peer, err := c.RemoteAddr()
			mustOK(t, err)
			got = append(got, peer.Port())
			c.Close(nil)
		})
		wantRingAccepts(t, b, server)
		want := ports(dialN(t, addr, 5))
		for len(got) < len(want) {
			mustRunMode(t, l, uvloop.RunOnce)
		}
		want = append(want, ports(dialN(t, addr, 3))...) // while the accept is armed
		for len(got) < len(want) {
			mustRunMode(t, l, uvloop.RunOnce)
		}
		if !slices.Equal(got, want) {
			t.Errorf("announced %v, want %v (the order of arrival)", got, want)
		}
		server.Close(nil)
		runLoop(t, l)
		mustOK(t, l.Close())
	})
}

// A callback that does not Accept parks the listener: it announces nothing more until Accept
// takes the connection (here from a timer), then the others in the order they arrived; a
// listener closed while connections wait closes them all.
func TestTCPAcceptParked(t *testing.T) {
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		checkFds(t)
		l := newLoopWith(t, uvloop.WithBackend(b))
		var got []uint16
		calls := 0
		take := func(server *uvloop.TCP) {
			c := acceptTCP(t, server)
			peer, err := c.RemoteAddr()
			mustOK(t, err)
			got = append(got, peer.Port())
			c.Close(nil)
		}
		server, addr := listenTCP(t, l, func(server *uvloop.TCP, err error) {
			mustOK(t, err)
			calls++
			if calls > 1 {
				take(server)
			}
		})
		want := ports(dialN(t, addr, 4))
		for calls == 0 {
			mustRunMode(t, l, uvloop.RunOnce)
		}
		runNoWaitN(t, l, 3)
		if calls != 1 {
			t.Fatalf("the parked listener announced %d connections, want 1", calls)
		}
		l.SetTimeout(func() { take(server) }, 0)
		for len(got) < len(want) {
			mustRunMode(t, l, uvloop.RunOnce)
		}
		if !slices.Equal(got, want) {
			t.Errorf("accepted %v, want %v (the order of arrival)", got, want)
		}

		// Parked again, with more waiting; then closed.
		calls = -10
		cs := dialN(t, addr, 3)
		for calls == -10 {
			mustRunMode(t, l, uvloop.RunOnce)
		}
		runNoWaitN(t, l, 3)
		server.Close(nil)
		runLoop(t, l)
		for _, c := range cs {
			var buf [1]byte
			if n, err := c.Read(buf[:]); err == nil {
				t.Errorf("a client of the closed listener read %d bytes, want the connection ended", n)
			}
		}
		mustOK(t, l.Close())
	})
}

// Accepting allocates no more on the ring than on readiness: the handle the callback makes
// and its callbacks' closures, nothing per accept in the loop.
func TestAllocAccept(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("compares Linux's backends")
	}
	allocs := map[uvloop.Backend]float64{}
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		l := newLoopWith(t, uvloop.WithBackend(b))
		accepted := 0
		server, addr := closingServer(t, l, &accepted)
		sa := &unix.SockaddrInet4{Port: int(addr.Port()), Addr: addr.Addr().As4()}
		iteration := func() {
			c, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
			mustOK(t, err)
			unix.CloseOnExec(c)
			mustOK(t, unix.Connect(c, sa))
			for n := accepted; accepted == n; {
				noWait(t, l)
			}
			noWait(t, l) // the close phase
			unix.Close(c)
		}
		iteration()
		allocs[b] = testing.AllocsPerRun(200, iteration)
		t.Logf("%v: %v allocations per accepted connection", b, allocs[b])
		server.Close(nil)
		closeLoop(t, l)
	})
	e, eok := allocs[uvloop.BackendEpoll]
	u, uok := allocs[uvloop.BackendIOURing]
	if eok && uok && u > e {
		t.Errorf("io_uring allocates %v times per accept, epoll %v", u, e)
	}
}

// A Pipe listener accepts on both backends, on readiness: not through the ring, whose
// accepts ahead could not be reset (TestPU7PipeListenerCloseWithQueue).
func TestPipeAcceptBothBackends(t *testing.T) {
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		checkFds(t)
		l := newLoopWith(t, uvloop.WithBackend(b))
		path := pipePath(t)
		server, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, server.Bind(path))
		var got []byte
		mustOK(t, server.Listen(8, func(err error) {
			mustOK(t, err)
			c, err := l.NewPipe()
			mustOK(t, err)
			mustOK(t, server.Accept(c))
			mustOK(t, c.ReadStart(func(data []byte, err error) {
				if err != nil {
					c.Close(nil)
					return
				}
				got = append(got, data...)
			}))
		}))
		if server.AcceptsThroughRing() {
			t.Fatal("the Pipe listener accepts through the ring")
		}
		for _, s := range []string{"a", "b", "c"} {
			c, err := net.Dial("unix", path)
			mustOK(t, err)
			_, err = c.Write([]byte(s))
			mustOK(t, err)
			c.Close()
			for len(got) < len(s) || got[len(got)-1] != s[0] {
				mustRunMode(t, l, uvloop.RunOnce)
			}
		}
		if string(got) != "abc" {
			t.Errorf("read %q, want abc", got)
		}
		server.Close(nil)
		runLoop(t, l)
		mustOK(t, l.Close())
	})
}

// BenchmarkTCPAccept: clients connect (blocking connects on loopback) in bursts of 32; the
// loop announces each connection, whose callback accepts and closes it; then the clients
// close (with a reset, so that runs do not use up the ports in TIME_WAIT). One op is one
// connection, on each backend side by side. Besides the wall time it reports cpu-ns/op, the
// CPU time (user and system) of the one thread that runs the clients and the loop: on a
// shared machine it varies much less. For system calls per connection see
// bench/accept-syscalls.sh.
func BenchmarkTCPAccept(b *testing.B) {
	for _, be := range []uvloop.Backend{uvloop.BackendEpoll, uvloop.BackendIOURing} {
		b.Run(be.String(), func(b *testing.B) {
			if err := poller.Available(be); err != nil {
				b.Skipf("backend %v does not open here: %v", be, err)
			}
			l := newLoopWith(b, uvloop.WithBackend(be), uvloop.WithLockOSThread())
			accepted := 0
			server, addr := closingServer(b, l, &accepted)
			sa := &unix.SockaddrInet4{Port: int(addr.Port()), Addr: addr.Addr().As4()}
			linger := &unix.Linger{Onoff: 1}
			var clients [32]int
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := threadCPU(b)
			for done := 0; done < b.N; {
				burst := clients[:min(len(clients), b.N-done)]
				for i := range burst {
					c, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
					mustOK(b, err)
					unix.CloseOnExec(c)
					mustOK(b, unix.Connect(c, sa))
					burst[i] = c
				}
				for want := accepted + len(burst); accepted < want; {
					mustRunMode(b, l, uvloop.RunOnce)
				}
				for _, c := range burst {
					unix.SetsockoptLinger(c, unix.SOL_SOCKET, unix.SO_LINGER, linger)
					unix.Close(c)
				}
				done += len(burst)
			}
			b.ReportMetric(float64(threadCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
			b.StopTimer()
			server.Close(nil)
			runLoop(b, l)
			mustOK(b, l.Close())
		})
	}
}

// threadCPU is the CPU time (user and system) of the calling thread.
func threadCPU(tb testing.TB) time.Duration {
	d, err := ostest.ThreadCPU()
	if err != nil {
		tb.Skip(err)
	}
	return d
}

// A connection callback that panics while parked listeners' backlogs are announced leaves
// the other listeners' connections to come in the next poll phase, not stranded (Run goes on
// after the panic, as the loop's policy says).
func TestTCPAcceptPanicKeepsOtherBacklogs(t *testing.T) {
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		checkFds(t)
		l := newLoopWith(t, uvloop.WithBackend(b))
		parked := true
		var servers [2]*uvloop.TCP
		var addrs [2]netip.AddrPort
		got := [2]int{}
		parks := 0
		panicked := false
		for i := range servers {
			servers[i], addrs[i] = listenTCP(t, l, func(server *uvloop.TCP, err error) {
				mustOK(t, err)
				if parked {
					parks++
					return // parks: the connection waits for Accept
				}
				acceptTCP(t, server).Close(nil)
				got[i]++
				if i == 0 && !panicked {
					panicked = true
					panic("boom")
				}
			})
		}
		for i := range servers {
			dialN(t, addrs[i], 3)
		}
		for deadline := time.Now().Add(10 * time.Second); parks < 2; {
			if time.Now().After(deadline) {
				t.Fatalf("%d listeners parked, want 2", parks)
			}
			time.Sleep(time.Millisecond)
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		runNoWaitN(t, l, 5) // parked: nothing more is announced
		parked = false
		l.SetTimeout(func() {
			for i := range servers {
				acceptTCP(t, servers[i]).Close(nil)
				got[i]++
			}
		}, 0)
		for deadline := time.Now().Add(10 * time.Second); got != [2]int{3, 3}; {
			if time.Now().After(deadline) {
				t.Fatalf("accepted %v, want [3 3]", got)
			}
			time.Sleep(time.Millisecond)
			if _, err := l.Run(uvloop.RunNoWait); err != nil {
				var pe *uvloop.PanicError
				if !errors.As(err, &pe) {
					t.Fatal(err)
				}
			}
		}
		for i := range servers {
			servers[i].Close(nil)
		}
		runLoop(t, l)
		mustOK(t, l.Close())
	})
}

// A read callback that panics does not lose what the kernel read for the other streams in
// the same batch (readiness would come again; a completion does not): their bytes come in
// a later poll phase.
func TestRingReadPanicKeepsOtherStreamsBytes(t *testing.T) {
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		checkFds(t)
		l := newLoopWith(t, uvloop.WithBackend(b))
		got := map[int]string{}
		panicked := false
		n := 0
		var conns []*uvloop.TCP
		server, addr := listenTCP(t, l, func(server *uvloop.TCP, err error) {
			mustOK(t, err)
			c := acceptTCP(t, server)
			i := n
			n++
			conns = append(conns, c)
			mustOK(t, c.ReadStart(func(data []byte, err error) {
				if err != nil {
					return
				}
				got[i] += string(data)
				if !panicked {
					panicked = true
					panic("boom")
				}
			}))
		})
		clients := dialN(t, addr, 3)
		for deadline := time.Now().Add(10 * time.Second); n < 3; {
			if time.Now().After(deadline) {
				t.Fatalf("%d connections accepted, want 3", n)
			}
			time.Sleep(time.Millisecond)
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		for i, c := range clients {
			_, err := c.Write([]byte{'a' + byte(i)})
			mustOK(t, err)
		}
		time.Sleep(20 * time.Millisecond) // all three reads in one batch
		for deadline := time.Now().Add(10 * time.Second); len(got) < 3 || len(got[0])+len(got[1])+len(got[2]) < 3; {
			if time.Now().After(deadline) {
				t.Fatalf("got %v, want a byte from each of the 3 clients", got)
			}
			time.Sleep(time.Millisecond)
			if _, err := l.Run(uvloop.RunNoWait); err != nil {
				var pe *uvloop.PanicError
				if !errors.As(err, &pe) {
					t.Fatal(err)
				}
			}
		}
		for _, c := range conns {
			c.Close(nil)
		}
		server.Close(nil)
		runLoop(t, l)
		mustOK(t, l.Close())
	})
}
