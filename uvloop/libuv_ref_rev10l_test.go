package uvloop_test

import (
	"net/netip"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of more of libuv's test-ref.c, in our own words, each run in every mode: an unref'd
// handle does not keep the loop alive, but a request in flight on it (connect, write,
// shutdown, send) does.

// closeRunRev10l closes h, runs the loop until nothing is left and checks that the close
// callback ran once (libuv's do_close).
func closeRunRev10l(t *testing.T, l *uvloop.Loop, h uvloop.Handle) {
	t.Helper()
	closed := 0
	closeHandle(t, h, &closed)
	runLoop(t, l)
	if closed != 1 {
		t.Fatalf("close callbacks %d", closed)
	}
}

// tcp_ref, udp_ref, pipe_ref: a fresh unref'd handle leaves the loop free to end.
// tcp_ref2, pipe_ref2, udp_ref2: so does an unref'd listener (a pipe listener that was
// never bound fails to listen) or receiver. tcp_ref2b: an unref'd listener closed before
// Run still calls back.
func TestLibuvRefIdleHandlesRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		fail := func(error) { t.Error("a connection callback") }
		tcp, err := l.NewTCP()
		mustOK(t, err)
		tcp.Unref()
		runLoop(t, l)
		closeRunRev10l(t, l, tcp)

		udp, err := l.NewUDP()
		mustOK(t, err)
		udp.Unref()
		runLoop(t, l)
		closeRunRev10l(t, l, udp)

		pipe, err := l.NewPipe()
		mustOK(t, err)
		pipe.Unref()
		runLoop(t, l)
		closeRunRev10l(t, l, pipe)

		lst, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, lst.Listen(128, fail))
		lst.Unref()
		runLoop(t, l)
		closeRunRev10l(t, l, lst)

		plst, err := l.NewPipe()
		mustOK(t, err)
		if err := plst.Listen(128, fail); err == nil {
			t.Error("Listen on an unbound pipe succeeded")
		}
		plst.Unref()
		runLoop(t, l)
		closeRunRev10l(t, l, plst)

		recv, _ := bindUDP(t, l, loopback4)
		mustOK(t, recv.RecvStart(func(*uvloop.UDP, []byte, netip.AddrPort, error) { t.Error("a receive") }))
		recv.Unref()
		runLoop(t, l)
		closeRunRev10l(t, l, recv)

		b, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, b.Listen(128, fail))
		b.Unref()
		closed := 0
		closeHandle(t, b, &closed)
		runLoop(t, l)
		if closed != 1 {
			t.Fatalf("tcp_ref2b: close callbacks %d", closed)
		}
	})
}

// pipeEchoServerRev10l is commandServerRev10l's echo for pipes: unref'd, it echoes and
// closes each connection at its end.
func pipeEchoServerRev10l(t *testing.T, l *uvloop.Loop) string {
	t.Helper()
	path := pipePath(t)
	server, err := l.NewPipe()
	mustOK(t, err)
	mustOK(t, server.Bind(path))
	mustOK(t, server.Listen(128, func(err error) {
		mustOK(t, err)
		c, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, server.Accept(c))
		echo(t, c, 1<<20, nil)
	}))
	server.Unref()
	return path
}

// tcp_ref3, tcp_ref4, pipe_ref3, pipe_ref4: an unref'd handle whose connect is in flight
// keeps the loop alive through the connect, the write its callback queues and the shutdown
// queued after that; each callback runs once before Run returns.
func TestLibuvRefRequestsRev10l(t *testing.T) {
	for _, write := range []bool{false, true} {
		name := "shutdown"
		if write {
			name = "write"
		}
		t.Run(name, func(t *testing.T) {
			check := func(t *testing.T, l *uvloop.Loop, s uvloop.Stream, connect func(func(error)) error) {
				connects, writes, shutdowns := 0, 0, 0
				shut := func() {
					mustOK(t, s.Shutdown(func(err error) { mustOK(t, err); shutdowns++ }))
				}
				mustOK(t, connect(func(err error) {
					mustOK(t, err)
					connects++
					if !write {
						shut()
						return
					}
					mustOK(t, s.Write(make([]byte, 1024), func(err error) {
						mustOK(t, err)
						writes++
						shut()
					}))
				}))
				s.Unref()
				runLoop(t, l)
				if connects != 1 || shutdowns != 1 || (write && writes != 1) {
					t.Fatalf("connect callbacks %d, write %d, shutdown %d", connects, writes, shutdowns)
				}
				closeRunRev10l(t, l, s)
			}
			t.Run("tcp", func(t *testing.T) {
				eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
					_, addr := commandServerRev10l(t, l)
					c, err := l.NewTCP()
					mustOK(t, err)
					check(t, l, c, func(cb func(error)) error { return c.Connect(addr, cb) })
				})
			})
			t.Run("pipe", func(t *testing.T) {
				eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
					path := pipeEchoServerRev10l(t, l)
					c, err := l.NewPipe()
					mustOK(t, err)
					check(t, l, c, func(cb func(error)) error { return c.Connect(path, cb) })
				})
			})
		})
	}
}

// udp_ref3: an unref'd UDP handle with a send in flight keeps the loop alive until the send
// calls back.
func TestLibuvUDPRef3Rev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		u, err := l.NewUDP()
		mustOK(t, err)
		sends := 0
		mustOK(t, u.Send([]byte("PING"), netip.MustParseAddrPort("127.0.0.1:9"), func(err error) {
			mustOK(t, err)
			sends++
		}))
		u.Unref()
		runLoop(t, l)
		if sends != 1 {
			t.Fatalf("send callbacks %d", sends)
		}
		closeRunRev10l(t, l, u)
	})
}
