package uvloop_test

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"net"
	"net/netip"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Differential tests of Pipe (Unix domain stream sockets) and UDP handles, from the review
// rev7-pipeudp: each scenario runs on epoll and on io_uring, on a plain loop and on a loop of
// its own thread, and the io_uring log must be epoll's.

// pu7Diff runs scenario as ringWriteDiff does, on plain loops, on loops WithLockOSThread (a
// ThreadBound ring) and on loops WithOwnThread (a pinned ring).
func pu7Diff(t *testing.T, scenario func(t *testing.T, l *uvloop.Loop) []string) {
	t.Setenv(uvloop.OwnThreadEnv, "0")
	t.Run("plain", func(t *testing.T) { ringWriteDiff(t, scenario) })
	t.Run("locked", func(t *testing.T) {
		ringWriteDiffWith(t, []uvloop.Option{uvloop.WithLockOSThread()}, scenario)
	})
	t.Run("own", func(t *testing.T) {
		ringWriteDiffWith(t, []uvloop.Option{uvloop.WithOwnThread()}, scenario)
	})
}

// pu7Pair returns a Pipe that Open adopted (one end of a socketpair) and the other end, a
// blocking fd of the test's, closed when the test ends unless the scenario closed it (-1).
func pu7Pair(t *testing.T, l *uvloop.Loop) (*uvloop.Pipe, *int) {
	t.Helper()
	checkFds(t)
	a, peer := rawSocketpair(t)
	mustOK(t, unix.SetNonblock(peer, false))
	p, err := l.NewPipe()
	mustOK(t, err)
	mustOK(t, p.Open(a))
	t.Cleanup(func() {
		if peer >= 0 {
			unix.Close(peer)
		}
	})
	return p, &peer
}

// pu7PeerRead reads what the peer fd holds now, without blocking: the bytes, or "EOF",
// "EAGAIN" or the errno.
func pu7PeerRead(fd int) string {
	buf := make([]byte, 256)
	n, _, err := unix.Recvfrom(fd, buf, unix.MSG_DONTWAIT)
	switch {
	case err != nil:
		return ringWriteErr(err)
	case n == 0:
		return "EOF"
	}
	return string(buf[:n])
}

// pu7Drained is what pu7Drain read: how many bytes, and their CRC-32.
type pu7Drained struct {
	n   int
	sum uint32
}

// pu7Drain reads fd on a goroutine until the end of the stream, an error or limit bytes
// (limit 0: no limit), and sends what it read.
func pu7Drain(fd, limit int) <-chan pu7Drained {
	ch := make(chan pu7Drained, 1)
	go func() {
		h := crc32.NewIEEE()
		buf := make([]byte, 64<<10)
		n := 0
		for limit <= 0 || n < limit {
			k, err := unix.Read(fd, buf)
			if k <= 0 || err != nil {
				break
			}
			h.Write(buf[:k])
			n += k
		}
		ch <- pu7Drained{n, h.Sum32()}
	}()
	return ch
}

// pu7Reader returns a read callback that logs the bytes and the errors in g.
func pu7Reader(g *ringWriteLog, name string) func([]byte, error) {
	return func(data []byte, err error) {
		if err != nil {
			g.add("%s %s", name, ringWriteErr(err))
			return
		}
		g.add("%s %q", name, data)
	}
}

// TestPU7PipeEOFThenWriteBack: the peer writes and shuts its side down; the loop reads the
// bytes and the end, then answers and shuts down in turn; the peer reads the answer and the
// end.
func TestPU7PipeEOFThenWriteBack(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		p, peer := pu7Pair(t, l)
		var g ringWriteLog
		_, err := unix.Write(*peer, []byte("hello"))
		mustOK(t, err)
		mustOK(t, unix.Shutdown(*peer, unix.SHUT_WR))
		done := false
		mustOK(t, p.ReadStart(func(data []byte, err error) {
			pu7Reader(&g, "read")(data, err)
			if err == nil {
				return
			}
			mustOK(t, p.Write([]byte("bye"), g.cb("write")))
			mustOK(t, p.Shutdown(func(err error) {
				g.add("shutdown %s", ringWriteErr(err))
				done = true
			}))
		}))
		runUntil(t, l, "the shutdown", func() bool { return done })
		g.add("peer %s", pu7PeerRead(*peer))
		g.add("peer %s", pu7PeerRead(*peer))
		closed := false
		p.Close(func() { closed = true })
		runUntil(t, l, "the close", func() bool { return closed })
		return g
	})
}

// TestPU7PipeReadStopStart: ReadStop in the read callback, while the peer writes more; a
// later ReadStart gets the rest, once, in order.
func TestPU7PipeReadStopStart(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		p, peer := pu7Pair(t, l)
		var g ringWriteLog
		_, err := unix.Write(*peer, []byte("a"))
		mustOK(t, err)
		var got []byte
		reads := 0
		mustOK(t, p.ReadStart(func(data []byte, err error) {
			mustOK(t, err)
			reads++
			got = append(got, data...)
			mustOK(t, p.ReadStop())
		}))
		runUntil(t, l, "the first read", func() bool { return reads == 1 })
		for _, m := range []string{"b", "c", "d"} {
			_, err := unix.Write(*peer, []byte(m))
			mustOK(t, err)
		}
		for range 3 {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		g.add("stopped: %q after %d reads, active %v", got, reads, p.IsActive())
		mustOK(t, unix.Shutdown(*peer, unix.SHUT_WR))
		ended := false
		mustOK(t, p.ReadStart(func(data []byte, err error) {
			if err != nil {
				g.add("read %s", ringWriteErr(err))
				ended = true
				return
			}
			got = append(got, data...)
		}))
		runUntil(t, l, "the end", func() bool { return ended })
		g.add("got %q", got)
		ringWriteClosePipe(t, l, p, &g)
		return g
	})
}

// ringWriteClosePipe closes p and runs l until its close callback has run, logging "close".
func ringWriteClosePipe(t *testing.T, l *uvloop.Loop, p *uvloop.Pipe, g *ringWriteLog) {
	t.Helper()
	closed := false
	p.Close(func() {
		g.add("close")
		closed = true
	})
	runUntil(t, l, "the close", func() bool { return closed })
}

// TestPU7PipeCloseWithUnread: closing a pipe that has unread bytes resets the peer (a Unix
// socket's close with bytes in its queue): the peer's read fails with ECONNRESET, at once.
func TestPU7PipeCloseWithUnread(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		p, peer := pu7Pair(t, l)
		var g ringWriteLog
		_, err := unix.Write(*peer, []byte("unread"))
		mustOK(t, err)
		mustOK(t, p.Write([]byte("x"), g.cb("write")))
		runUntil(t, l, "the write", func() bool { return len(g) == 1 })
		p.Close(func() { g.add("close") })
		g.add("peer %s", pu7PeerRead(*peer))
		g.add("peer %s", pu7PeerRead(*peer))
		runUntil(t, l, "the close", func() bool { return len(g) == 4 })
		return g
	})
}

// TestPU7PipeCloseReleasesPeer: a pipe that reads (a poll request in the kernel on io_uring)
// and is closed from a callback: the peer reads the end of the stream as soon as Close
// returns, as after close(2), not once the loop next waits.
func TestPU7PipeCloseReleasesPeer(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		p, peer := pu7Pair(t, l)
		var g ringWriteLog
		mustOK(t, p.ReadStart(pu7Reader(&g, "read")))
		tm := l.NewTimer(func(*uvloop.Timer) {
			p.Close(func() { g.add("close") })
			g.add("peer %s", pu7PeerRead(*peer))
		})
		mustOK(t, tm.Start(0, 0))
		runUntil(t, l, "the close", func() bool { return len(g) == 2 })
		tm.Close(nil)
		// The same between runs, from the loop's owner.
		p2, peer2 := pu7Pair(t, l)
		mustOK(t, p2.ReadStart(pu7Reader(&g, "read")))
		mustRunMode(t, l, uvloop.RunNoWait)
		p2.Close(func() { g.add("close") })
		g.add("peer %s", pu7PeerRead(*peer2))
		runUntil(t, l, "the close", func() bool { return len(g) == 4 })
		return g
	})
}

// TestPU7PipePeerVanishesWithWritesQueued: the loop writes more than the socket holds, then
// the peer closes without reading: the read callback hears of it first, then the writes fail,
// in order; a TryWrite meanwhile is refused with EAGAIN.
func TestPU7PipePeerVanishesWithWritesQueued(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		p, peer := pu7Pair(t, l)
		var g ringWriteLog
		big := make([]byte, 4<<20)
		mustOK(t, p.Write(big, g.cb("big")))
		mustOK(t, p.Write([]byte("tail"), g.cb("tail")))
		g.add("queued %v", p.WriteQueueSize() > 0)
		_, err := p.TryWrite([]byte("try"))
		g.add("trywrite %s", ringWriteErr(err))
		mustRunMode(t, l, uvloop.RunNoWait)
		mustOK(t, unix.Close(*peer))
		*peer = -1
		mustOK(t, p.ReadStart(pu7Reader(&g, "read")))
		runUntil(t, l, "the writes' failure", func() bool { return len(g) == 5 })
		ringWriteClosePipe(t, l, p, &g)
		return g
	})
}

// TestPU7PipeCloseCancelsWrites: Close with writes queued (the socket full): their callbacks
// get ECANCELED, in order, before the close callback.
func TestPU7PipeCloseCancelsWrites(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		p, _ := pu7Pair(t, l)
		var g ringWriteLog
		mustOK(t, p.Write(make([]byte, 4<<20), g.cb("big")))
		mustOK(t, p.Writev([][]byte{[]byte("v1"), []byte("v2")}, g.cb("writev")))
		mustOK(t, p.Write([]byte("w"), g.cb("w")))
		mustOK(t, p.Shutdown(func(err error) { g.add("shutdown %s", ringWriteErr(err)) }))
		mustRunMode(t, l, uvloop.RunNoWait)
		g.add("queued %v", p.WriteQueueSize() > 0)
		ringWriteClosePipe(t, l, p, &g)
		return g
	})
}

// TestPU7PipeWritevLarge: a writev of more buffers than IOV_MAX, larger than the socket
// holds, arrives whole and in order at a peer that reads it all.
func TestPU7PipeWritevLarge(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		p, peer := pu7Pair(t, l)
		var g ringWriteLog
		var bufs [][]byte
		want := crc32.NewIEEE()
		for i := range 2500 { // more buffers than one writev takes (IOV_MAX)
			b := bytes.Repeat([]byte{byte(i)}, 1000+i%300)
			bufs = append(bufs, b)
			want.Write(b)
		}
		ch := pu7Drain(*peer, 0)
		done := false
		mustOK(t, p.Writev(bufs, func(err error) {
			g.add("writev %s", ringWriteErr(err))
			done = true
		}))
		runUntil(t, l, "the writev", func() bool { return done })
		mustOK(t, p.Shutdown(g.cb("shutdown")))
		runUntil(t, l, "the shutdown", func() bool { return len(g) == 2 })
		r := <-ch
		g.add("peer read %d bytes, sum ok %v", r.n, r.sum == want.Sum32())
		ringWriteClosePipe(t, l, p, &g)
		return g
	})
}

// pu7Listen makes a Pipe listener on a fresh path with backlog and onConn, and checks the
// test's fds.
func pu7Listen(t *testing.T, l *uvloop.Loop, backlog int, onConn func(srv *uvloop.Pipe, err error)) (*uvloop.Pipe, string) {
	t.Helper()
	checkFds(t)
	path := pipePath(t)
	srv, err := l.NewPipe()
	mustOK(t, err)
	mustOK(t, srv.Bind(path))
	mustOK(t, srv.Listen(backlog, func(err error) { onConn(srv, err) }))
	return srv, path
}

// pu7Counter is a connection callback that counts the announcements and takes none.
func pu7Counter(t *testing.T, conns *int) func(*uvloop.Pipe, error) {
	return func(_ *uvloop.Pipe, err error) {
		mustOK(t, err)
		*conns++
	}
}

// TestPU7PipeListenConnect: a Pipe listener and a Pipe client on a path: ping, pong, the
// client's shutdown, the server's end of stream, then the server's close, which the client
// reads as the end; the client then connects to a path where nothing listens.
func TestPU7PipeListenConnect(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		var conn *uvloop.Pipe
		srv, path := pu7Listen(t, l, 8, func(srv *uvloop.Pipe, err error) {
			mustOK(t, err)
			conn, err = l.NewPipe()
			mustOK(t, err)
			mustOK(t, srv.Accept(conn))
			mustOK(t, conn.ReadStart(func(data []byte, err error) {
				pu7Reader(&g, "server read")(data, err)
				if err == nil {
					mustOK(t, conn.Write([]byte("pong"), g.cb("server write")))
					return
				}
				conn.Close(func() { g.add("server close") })
			}))
		})
		c, err := l.NewPipe()
		mustOK(t, err)
		ended := false
		mustOK(t, c.Connect(path, func(err error) {
			g.add("connect %s", ringWriteErr(err))
			mustOK(t, c.Write([]byte("ping"), g.cb("client write")))
			mustOK(t, c.ReadStart(func(data []byte, err error) {
				pu7Reader(&g, "client read")(data, err)
				if err == nil {
					mustOK(t, c.Shutdown(g.cb("client shutdown")))
				} else {
					ended = true
				}
			}))
		}))
		runUntil(t, l, "the end", func() bool { return ended })
		ringWriteClosePipe(t, l, c, &g)
		srv.Close(nil)
		c2, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, c2.Connect(path, func(err error) { g.add("connect again %s", ringWriteErr(err)) }))
		runUntil(t, l, "the second connect", func() bool { return len(g) == 11 })
		ringWriteClosePipe(t, l, c2, &g)
		return g
	})
}

// TestPU7PipeSpawnEcho: a child (cat) reads its stdin pipe and writes its stdout pipe while
// the loop writes the one and reads the other; the loop shuts stdin down, reads the end of
// stdout, and the child exits 0.
func TestPU7PipeSpawnEcho(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		checkFds(t)
		var g ringWriteLog
		in, err := l.NewPipe()
		mustOK(t, err)
		out, err := l.NewPipe()
		mustOK(t, err)
		exited, ended := false, false
		proc, err := l.Spawn(&uvloop.ProcessOptions{
			File: "cat",
			Args: []string{"cat"},
			Stdio: []uvloop.StdioContainer{
				{Flags: uvloop.StdioCreatePipe, Stream: in, Readable: true},
				{Flags: uvloop.StdioCreatePipe, Stream: out, Writable: true},
				{Flags: uvloop.StdioIgnore},
			},
			OnExit: func(p *uvloop.Process, status int64, signal syscall.Signal) {
				exited = true
				if status != 0 || signal != 0 {
					t.Errorf("cat: status %d, signal %d", status, signal)
				}
			},
		})
		mustOK(t, err)
		data := make([]byte, 1<<20)
		for i := range data {
			data[i] = byte(i * 7)
		}
		n := 0
		h := crc32.NewIEEE()
		mustOK(t, out.ReadStart(func(b []byte, err error) {
			if err != nil {
				g.add("stdout %s", ringWriteErr(err))
				ended = true
				return
			}
			n += len(b)
			h.Write(b)
		}))
		mustOK(t, in.Write(data, g.cb("stdin write")))
		mustOK(t, in.Shutdown(g.cb("stdin shutdown")))
		runUntil(t, l, "the child", func() bool { return exited && ended })
		g.add("stdout %d bytes, same %v", n, h.Sum32() == crc32.ChecksumIEEE(data))
		proc.Close(nil)
		in.Close(nil)
		ringWriteClosePipe(t, l, out, &g)
		return g
	})
}

// pu7UDPReader returns a receive callback that logs the payloads (their length when long)
// and the errors in g.
func pu7UDPReader(g *ringWriteLog, name string) func(*uvloop.UDP, []byte, netip.AddrPort, error) {
	return func(_ *uvloop.UDP, data []byte, _ netip.AddrPort, err error) {
		switch {
		case err != nil:
			g.add("%s %s", name, ringWriteErr(err))
		case len(data) > 16:
			g.add("%s %d bytes", name, len(data))
		default:
			g.add("%s %q", name, data)
		}
	}
}

// pu7Send sends the datagrams msgs to to from a socket of the test's, at once.
func pu7Send(t *testing.T, to netip.AddrPort, msgs ...string) {
	t.Helper()
	c, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(to))
	mustOK(t, err)
	defer c.Close()
	for _, m := range msgs {
		_, err := c.Write([]byte(m))
		mustOK(t, err)
	}
}

// TestPU7UDPRecvStopStartInBatch: datagrams waiting in the socket, a receive callback that
// stops receiving at the second: the rest stay in the socket, and a RecvStart from an
// immediate delivers them in order, once.
func TestPU7UDPRecvStopStartInBatch(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		u, addr := bindUDP(t, l, loopback4)
		var g ringWriteLog
		pu7Send(t, addr, "a", "b", "c", "d", "e")
		n := 0
		var recv func(*uvloop.UDP, []byte, netip.AddrPort, error)
		log := pu7UDPReader(&g, "recv")
		recv = func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
			log(u, data, from, err)
			if n++; n%2 == 0 {
				mustOK(t, u.RecvStop())
				g.add("stop, active %v", u.IsActive())
				l.SetImmediate(func() { mustOK(t, u.RecvStart(recv)) })
			}
		}
		mustOK(t, u.RecvStart(recv))
		runUntil(t, l, "the datagrams", func() bool { return n == 5 })
		closed := false
		u.Close(func() { closed = true })
		runUntil(t, l, "the close", func() bool { return closed })
		return g
	})
}

// TestPU7UDPCloseInRecvWithBatch: two handles with datagrams waiting; the first's receive
// callback closes the second and the first, and opens a third, which may get the second's
// fd: nothing more of the first's datagrams, nothing of the second's, and the third
// receives what is sent to it.
func TestPU7UDPCloseInRecvWithBatch(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		checkFds(t)
		a, aAddr := bindUDP(t, l, loopback4)
		b, bAddr := bindUDP(t, l, loopback4)
		var g ringWriteLog
		var c *uvloop.UDP
		mustOK(t, a.RecvStart(func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
			pu7UDPReader(&g, "a")(u, data, from, err)
			b.Close(func() { g.add("b closed") })
			a.Close(func() { g.add("a closed") })
			c = mustNewUDP(t, l)
			mustOK(t, c.Bind(loopback4, 0))
			mustOK(t, c.RecvStart(pu7UDPReader(&g, "c")))
			cAddr, err := c.LocalAddr()
			mustOK(t, err)
			pu7Send(t, cAddr, "to c")
		}))
		mustOK(t, b.RecvStart(pu7UDPReader(&g, "b"))) // after a: a's report comes first
		// Both sockets are readable before the loop looks: one batch.
		pu7Send(t, aAddr, "a1", "a2", "a3")
		pu7Send(t, bAddr, "b1", "b2")
		for _, fd := range []int{a.Fd(), b.Fd()} {
			pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			if n, err := unix.Poll(pfd, 5000); n != 1 || err != nil {
				t.Fatalf("the datagrams did not arrive: %d, %v", n, err)
			}
		}
		mustRunMode(t, l, uvloop.RunNoWait)
		runUntil(t, l, "c's datagram", func() bool { return len(g) > 0 && g[len(g)-1] == `c "to c"` })
		c.Close(func() { g.add("c closed") })
		runUntil(t, l, "the close", func() bool { return g[len(g)-1] == "c closed" })
		return g
	})
}

// TestPU7UDPCloseReleasesPort: a handle that receives (a poll request in the kernel on
// io_uring) closed from a callback leaves its port free as soon as Close returns, as after
// close(2).
func TestPU7UDPCloseReleasesPort(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		u, addr := bindUDP(t, l, loopback4)
		var g ringWriteLog
		mustOK(t, u.RecvStart(pu7UDPReader(&g, "recv")))
		tm := l.NewTimer(func(*uvloop.Timer) {
			u.Close(func() { g.add("close") })
			c, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(addr))
			g.add("bind the port again: %s", ringWriteErr(err))
			if err == nil {
				c.Close()
			}
		})
		mustOK(t, tm.Start(0, 0))
		runUntil(t, l, "the close", func() bool { return len(g) == 2 })
		tm.Close(nil)
		// The same between runs, from the loop's owner.
		u2, addr2 := bindUDP(t, l, loopback4)
		mustOK(t, u2.RecvStart(pu7UDPReader(&g, "recv")))
		mustRunMode(t, l, uvloop.RunNoWait)
		u2.Close(func() { g.add("close") })
		c, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(addr2))
		g.add("bind the port again: %s", ringWriteErr(err))
		if err == nil {
			c.Close()
		}
		runUntil(t, l, "the close", func() bool { return len(g) == 4 })
		return g
	})
}

// TestPU7UDPSendQueueAtClose: sends made in a send callback wait for writability (the poll
// on both backends); TrySend is refused with EAGAIN while any is queued; a Close from the
// second round's callback completes the written sends first, then cancels the rest, then
// runs the close callback.
func TestPU7UDPSendQueueAtClose(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		r, addr := bindUDP(t, l, loopback4)
		u := mustNewUDP(t, l)
		var g ringWriteLog
		got := 0
		mustOK(t, r.RecvStart(func(*uvloop.UDP, []byte, netip.AddrPort, error) { got++ }))
		mustOK(t, u.Send([]byte("1"), addr, func(err error) {
			g.add("send 1 %s", ringWriteErr(err))
			for _, m := range []string{"2", "3", "4"} {
				mustOK(t, u.Send([]byte(m), addr, g.cb("send "+m)))
			}
			g.add("trysend %s, %d queued", ringWriteErr(u.TrySend([]byte("t"), addr)), u.SendQueueCount())
			mustOK(t, u.Send([]byte("5"), addr, func(err error) {
				g.add("send 5 %s", ringWriteErr(err))
				mustOK(t, u.Send([]byte("6"), addr, g.cb("send 6")))
				mustOK(t, u.Send([]byte("7"), addr, g.cb("send 7")))
				u.Close(func() { g.add("close") })
			}))
		}))
		runUntil(t, l, "the close", func() bool { return len(g) > 0 && g[len(g)-1] == "close" })
		runUntil(t, l, "the datagrams", func() bool { return got == 5 })
		g.add("received %d", got)
		r.Close(nil)
		return g
	})
}

// TestPU7UDPConnRefused: a connected handle whose datagram drew an ICMP port unreachable:
// the error waits in the socket while the handle neither receives nor sends, then goes to
// the receive callback once RecvStart is called; a receiving handle gets the next at once.
func TestPU7UDPConnRefused(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		u := mustNewUDP(t, l)
		var g ringWriteLog
		mustOK(t, u.Connect(udpClosedPort(t)))
		mustOK(t, u.TrySend([]byte("x"), netip.AddrPort{}))
		pu7AwaitSockErr(t, u.Fd())
		mustRunMode(t, l, uvloop.RunNoWait) // nothing to report: the handle does not read
		g.add("idle: %q", []string(g))
		mustOK(t, u.RecvStart(pu7UDPReader(&g, "recv")))
		runUntil(t, l, "the refusal", func() bool { return len(g) == 2 })
		mustOK(t, u.Send([]byte("y"), netip.AddrPort{}, g.cb("send")))
		runUntil(t, l, "the refusal", func() bool { return len(g) == 4 })
		sort2 := g[2:]
		if sort2[0] > sort2[1] { // the send's callback and the ICMP's report race
			sort2[0], sort2[1] = sort2[1], sort2[0]
		}
		u.Close(func() { g.add("close") })
		runUntil(t, l, "the close", func() bool { return len(g) == 5 })
		return g
	})
}

// pu7AwaitSockErr blocks until fd reports an error (POLLERR), for up to 5 s.
func pu7AwaitSockErr(t *testing.T, fd int) {
	t.Helper()
	pfd := []unix.PollFd{{Fd: int32(fd), Events: 0}}
	n, err := unix.Poll(pfd, 5000)
	mustOK(t, err)
	if n != 1 || pfd[0].Revents&unix.POLLERR == 0 {
		t.Fatalf("no error on the socket: revents %#x", pfd[0].Revents)
	}
}

// TestPU7UDPLargeDatagrams: the largest datagrams over IPv4 (65507 bytes) and IPv6 (65527)
// arrive whole, and a datagram larger than that is refused by the send.
func TestPU7UDPLargeDatagrams(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		for _, tc := range []struct {
			addr netip.AddrPort
			max  int
		}{{loopback4, 65507}, {loopback6, 65527}} {
			u := mustNewUDP(t, l)
			if err := u.Bind(tc.addr, 0); err != nil {
				g.add("%v: no bind", tc.addr)
				u.Close(nil)
				continue
			}
			addr, err := u.LocalAddr()
			mustOK(t, err)
			msg := make([]byte, tc.max)
			for i := range msg {
				msg[i] = byte(i)
			}
			ok := false
			mustOK(t, u.RecvStart(func(_ *uvloop.UDP, data []byte, _ netip.AddrPort, err error) {
				mustOK(t, err)
				g.add("%v: received %d bytes, same %v", tc.addr.Addr(), len(data), bytes.Equal(data, msg))
				ok = true
			}))
			mustOK(t, u.Send(msg, addr, g.cb("send")))
			runUntil(t, l, "the datagram", func() bool { return ok })
			g.add("trysend too large %s", ringWriteErr(u.TrySend(make([]byte, tc.max+1), addr)))
			mustOK(t, u.Send(make([]byte, tc.max+1), addr, g.cb("send too large")))
			done := false
			u.Close(func() { done = true })
			runUntil(t, l, "the close", func() bool { return done })
		}
		return g
	})
}

// TestPU7UDPFloodSlowReader: a flood of datagrams against a reader that takes one per loop
// iteration (RecvStop, then RecvStart from an immediate): the loop holds no more than the
// socket does (the kernel drops the rest), reads every datagram whole, and allocates nothing
// per datagram.
func TestPU7UDPFloodSlowReader(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		u, addr := bindUDP(t, l, loopback4)
		var g ringWriteLog
		const flood = 3000
		msg := bytes.Repeat([]byte("f"), 1000)
		c, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(addr))
		mustOK(t, err)
		for range flood {
			_, err := c.Write(msg)
			mustOK(t, err)
		}
		mustOK(t, c.Close())
		got, bad := 0, 0
		var recv func(*uvloop.UDP, []byte, netip.AddrPort, error)
		restart := func() { mustOK(t, u.RecvStart(recv)) }
		recv = func(u *uvloop.UDP, data []byte, _ netip.AddrPort, err error) {
			if err != nil || !bytes.Equal(data, msg) {
				bad++
			}
			got++
			mustOK(t, u.RecvStop())
			l.SetImmediate(restart)
		}
		mustOK(t, u.RecvStart(recv))
		drained := false
		runUntil(t, l, "the datagrams", func() bool {
			if got == 0 {
				return false
			}
			var n int
			n, err = unix.IoctlGetInt(u.Fd(), unix.SIOCINQ)
			mustOK(t, err)
			drained = n == 0
			return drained
		})
		g.add("received some %v, at most sent %v, bad %d", got > 0, got <= flood, bad)
		done := false
		u.Close(func() { done = true })
		runUntil(t, l, "the close", func() bool { return done })
		return g
	})
}

// TestPU7UDPOptionErrors: bad multicast and broadcast options fail with a clear error and
// leave the handle working: a datagram still goes and comes back afterwards.
func TestPU7UDPOptionErrors(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		u, addr := bindUDP(t, l, loopback4)
		var g ringWriteLog
		mc6 := netip.MustParseAddr("ff02::1")
		mc4 := netip.MustParseAddr("239.255.0.7")
		for _, tc := range []struct {
			name string
			err  error
		}{
			{"multicast ttl 256", u.SetMulticastTTL(256)},
			{"ttl 0", u.SetTTL(0)},
			{"join unicast", u.JoinGroup(netip.MustParseAddr("10.0.0.1"), netip.Addr{})},
			{"join v6 group on v4", u.JoinGroup(mc6, netip.Addr{})},
			{"join with v6 iface", u.JoinGroup(mc4, netip.MustParseAddr("::1"))},
			{"leave not joined", u.LeaveGroup(mc4, netip.Addr{})},
			{"iface v6 on v4", u.SetMulticastInterface(netip.MustParseAddr("::1"))},
			{"iface not local", u.SetMulticastInterface(netip.MustParseAddr("192.0.2.1"))},
			{"broadcast on", u.SetBroadcast(true)},
			{"broadcast off", u.SetBroadcast(false)},
		} {
			g.add("%s: %s", tc.name, ringWriteErr(tc.err))
		}
		mustOK(t, u.RecvStart(pu7UDPReader(&g, "recv")))
		mustOK(t, u.Send([]byte("still"), addr, g.cb("send")))
		runUntil(t, l, "the datagram", func() bool { return len(g) == 12 })
		done := false
		u.Close(func() { done = true })
		runUntil(t, l, "the close", func() bool { return done })
		g.add("after close: %v", errors.Is(u.SetBroadcast(true), uvloop.ErrClosed))
		return g
	})
}

// TestPU7PipeWritesWaitOnHalfClosed: the peer shuts its side down and does not read; the loop,
// not reading, writes more than the socket holds, so the rest waits for room on a socket that
// reports its peer's hangup (on io_uring, a one-shot poll for room completes at once with it).
// Once the peer reads everything, the writes complete, in order, then OnDrain's callback
// runs; then the loop reads the end.
// With readWhileWaiting, ReadStart comes while the writes wait: the end of the stream is
// read at once, and the writes complete later all the same.
func TestPU7PipeWritesWaitOnHalfClosed(t *testing.T) {
	for _, readWhileWaiting := range []bool{false, true} {
		t.Run(fmt.Sprintf("readWhileWaiting=%v", readWhileWaiting), func(t *testing.T) {
			pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
				return pu7WritesWaitOnHalfClosed(t, l, readWhileWaiting)
			})
		})
	}
}

// pu7SleepsUntilTimer reports whether one RunOnce, with nothing due but a timer, waits for
// that timer: false when its wait came back without a callback to run (a wait that spins).
func pu7SleepsUntilTimer(t *testing.T, l *uvloop.Loop) bool {
	fired := false
	tm := l.NewTimer(func(*uvloop.Timer) { fired = true })
	mustOK(t, tm.Start(20*time.Millisecond, 0))
	mustRunMode(t, l, uvloop.RunOnce)
	tm.Close(nil)
	return fired
}

func pu7WritesWaitOnHalfClosed(t *testing.T, l *uvloop.Loop, readWhileWaiting bool) []string {
	p, peer := pu7Pair(t, l)
	var g ringWriteLog
	mustOK(t, unix.Shutdown(*peer, unix.SHUT_WR))
	big := bytes.Repeat([]byte("w"), 4<<20)
	p.OnDrain(func() { g.add("drain, queued %d", p.WriteQueueSize()) })
	mustOK(t, p.Write(big, g.cb("big")))
	mustOK(t, p.Write([]byte("tail"), g.cb("tail")))
	for range 5 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	g.add("waiting %v, sleeps %v", p.WriteQueueSize() > 0, pu7SleepsUntilTimer(t, l))
	if readWhileWaiting {
		mustOK(t, p.ReadStart(pu7Reader(&g, "read")))
		runUntil(t, l, "the end", func() bool { return len(g) == 2 })
		g.add("still waiting %v, sleeps %v", p.WriteQueueSize() > 0, pu7SleepsUntilTimer(t, l))
	}
	ch := pu7Drain(*peer, len(big)+4)
	runUntil(t, l, "the writes", func() bool { return g[len(g)-1] == "drain, queued 0" })
	g.add("peer read %d", (<-ch).n)
	if !readWhileWaiting {
		mustOK(t, p.ReadStart(pu7Reader(&g, "read")))
		runUntil(t, l, "the end", func() bool { return len(g) == 6 })
	}
	ringWriteClosePipe(t, l, p, &g)
	return g
}

// TestPU7PipeOpenOSPipe: Open adopts the ends of an OS pipe: the read end reads the bytes and
// the end of the stream once the writer closes; the write end's queued writes fail with EPIPE
// once the reader closes. A /dev/null fd and a regular file are refused by the first
// ReadStart's registration, reported to the read callback.
func TestPU7PipeOpenOSPipe(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		checkFds(t)
		var g ringWriteLog
		var fds [2]int
		mustOK(t, unix.Pipe2(fds[:], unix.O_CLOEXEC))
		r, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, r.Open(fds[0]))
		mustOK(t, r.ReadStart(pu7Reader(&g, "read")))
		_, err = unix.Write(fds[1], []byte("through"))
		mustOK(t, err)
		mustOK(t, unix.Close(fds[1]))
		runUntil(t, l, "the end", func() bool { return len(g) == 2 })
		ringWriteClosePipe(t, l, r, &g)

		mustOK(t, unix.Pipe2(fds[:], unix.O_CLOEXEC))
		w, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, w.Open(fds[1]))
		mustOK(t, w.Write(make([]byte, 1<<20), g.cb("big")))
		mustOK(t, w.Write([]byte("tail"), g.cb("tail")))
		mustRunMode(t, l, uvloop.RunNoWait)
		mustOK(t, unix.Close(fds[0]))
		runUntil(t, l, "the failures", func() bool { return len(g) == 5 })
		ringWriteClosePipe(t, l, w, &g)

		for _, name := range []string{"/dev/null", filepath.Join(t.TempDir(), "file")} {
			fd, err := unix.Open(name, unix.O_RDWR|unix.O_CREAT|unix.O_CLOEXEC, 0o600)
			mustOK(t, err)
			n, err := l.NewPipe()
			mustOK(t, err)
			mustOK(t, n.Open(fd))
			mustOK(t, n.ReadStart(pu7Reader(&g, filepath.Base(name)+" read")))
			want := len(g) + 1
			runUntil(t, l, "the refusal", func() bool { return len(g) == want })
			ringWriteClosePipe(t, l, n, &g)
		}
		return g
	})
}

// pu7Dial connects n clients of the test's to the Unix socket at path; their connects
// complete in the listener's queue, before the loop looks.
func pu7Dial(t *testing.T, path string, n int) []*net.UnixConn {
	t.Helper()
	var cs []*net.UnixConn
	for range n {
		c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
		mustOK(t, err)
		t.Cleanup(func() { c.Close() })
		cs = append(cs, c)
	}
	return cs
}

// pu7ClientEnd reads what client c gets next: its bytes, "EOF" or the errno. Its deadline
// only keeps a broken test from hanging.
func pu7ClientEnd(c *net.UnixConn) string {
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 64)
	n, err := c.Read(buf)
	if err != nil {
		return ringWriteErr(err)
	}
	return string(buf[:n])
}

// TestPU7PipeListenerCloseWithQueue: three clients connect before the loop looks; the
// listener announces the first, which the callback does not take, and closes. On epoll the
// two still in the listen queue are reset by the kernel (ECONNRESET) and the announced one,
// accepted by the loop, is closed (EOF): so on every backend.
func TestPU7PipeListenerCloseWithQueue(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		conns := 0
		srv, path := pu7Listen(t, l, 8, pu7Counter(t, &conns))
		cs := pu7Dial(t, path, 3)
		runUntil(t, l, "the first connection", func() bool { return conns == 1 })
		for range 3 {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		g.add("announced %d", conns)
		closed := false
		srv.Close(func() { closed = true })
		runUntil(t, l, "the close", func() bool { return closed })
		for i, c := range cs {
			g.add("client %d: %s", i, pu7ClientEnd(c))
		}
		return g
	})
}

// TestPU7PipeInheritedWhileReading: the loop reads a pipe (one end of a socketpair) that it
// also gives a child as its stdout (StdioInheritStream, made blocking): the child's output
// reaches the peer, the peer's bytes reach the loop's read callback without blocking it,
// and the peer's close is read as the end once the child has exited.
func TestPU7PipeInheritedWhileReading(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		p, peer := pu7Pair(t, l)
		var g ringWriteLog
		mustOK(t, p.ReadStart(pu7Reader(&g, "read")))
		exited := false
		proc, err := l.Spawn(&uvloop.ProcessOptions{
			File: "sh",
			Args: []string{"sh", "-c", "printf child"},
			Stdio: []uvloop.StdioContainer{
				{Flags: uvloop.StdioIgnore},
				{Flags: uvloop.StdioInheritStream, Stream: p},
			},
			OnExit: func(_ *uvloop.Process, status int64, _ syscall.Signal) {
				g.add("exit %d", status)
				exited = true
			},
		})
		mustOK(t, err)
		runUntil(t, l, "the exit", func() bool { return exited })
		buf := make([]byte, 16)
		n, err := unix.Read(*peer, buf)
		mustOK(t, err)
		g.add("peer %q", buf[:n])
		_, err = unix.Write(*peer, []byte("back"))
		mustOK(t, err)
		runUntil(t, l, "the read", func() bool { return len(g) == 3 })
		mustOK(t, unix.Close(*peer))
		*peer = -1
		runUntil(t, l, "the end", func() bool { return len(g) == 4 })
		proc.Close(nil)
		ringWriteClosePipe(t, l, p, &g)
		return g
	})
}

// TestPU7PipeListenBacklogFull: a listener with a backlog of 1 whose callback does not take
// the connection it announces: the kernel's queue holds what the backlog allows and the
// connects beyond it fail with EAGAIN, as libuv's do, since the loop does not accept ahead
// of the callback.
func TestPU7PipeListenBacklogFull(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		conns := 0
		srv, path := pu7Listen(t, l, 1, pu7Counter(t, &conns))
		var clients []*uvloop.Pipe
		connect := func(n int) {
			for range n {
				c, err := l.NewPipe()
				mustOK(t, err)
				i := len(clients)
				clients = append(clients, c)
				mustOK(t, c.Connect(path, func(err error) { g.add("connect %d %s", i, ringWriteErr(err)) }))
			}
		}
		connect(2)
		runUntil(t, l, "the announcement", func() bool { return conns == 1 && len(g) == 2 })
		for range 3 {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		connect(3)
		runUntil(t, l, "the connects", func() bool { return len(g) == 5 })
		g.add("announced %d", conns)
		for _, c := range clients {
			c.Close(nil)
		}
		ringWriteClosePipe(t, l, srv, &g)
		return g
	})
}

// TestPU7PipeEchoAllocs: a pipe's read and write round trip allocates nothing, on both
// backends and every kind of loop.
func TestPU7PipeEchoAllocs(t *testing.T) {
	rev4Modes(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		p, peer := pu7Pair(t, l)
		out := make([]byte, 64)
		in := make([]byte, 64)
		echoed := 0
		var reply [64]byte
		onWritten := func(err error) {
			mustOK(t, err)
			echoed++
		}
		mustOK(t, p.ReadStart(func(data []byte, err error) {
			mustOK(t, err)
			n := copy(reply[:], data)
			mustOK(t, p.Write(reply[:n], onWritten))
		}))
		round := func() {
			want := echoed + 1
			if _, err := unix.Write(*peer, out); err != nil {
				t.Fatal(err)
			}
			for echoed < want {
				mustRunMode(t, l, uvloop.RunNoWait)
			}
			if _, err := unix.Read(*peer, in); err != nil {
				t.Fatal(err)
			}
		}
		round()
		if n := testing.AllocsPerRun(200, round); n != 0 {
			t.Errorf("%v allocations per round trip", n)
		}
		p.Close(nil)
		closeLoop(t, l)
	})
}

// pu7RunOnDyingThread runs l once (RunNoWait) on a goroutine that locks its thread and ends
// without unlocking it, so that the thread exits after: the requests it submitted to the
// ring (the polls it armed) are cancelled by the kernel.
func pu7RunOnDyingThread(t *testing.T, l *uvloop.Loop) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		mustRunMode(t, l, uvloop.RunNoWait)
	}()
	<-done
}

// TestPU7ThreadExitRearms: a loop run once on a thread that then exits goes on as before on
// the next: its UDP handle receives, its pipe reads, and its writes waiting for room on a
// half-closed pipe complete once the peer reads.
func TestPU7ThreadExitRearms(t *testing.T) {
	scenario := func(t *testing.T, l *uvloop.Loop) []string {
		var g ringWriteLog
		u, addr := bindUDP(t, l, loopback4)
		mustOK(t, u.RecvStart(pu7UDPReader(&g, "recv")))
		r, rpeer := pu7Pair(t, l)
		mustOK(t, r.ReadStart(pu7Reader(&g, "read")))
		w, wpeer := pu7Pair(t, l)
		mustOK(t, unix.Shutdown(*wpeer, unix.SHUT_WR))
		big := bytes.Repeat([]byte("w"), 4<<20)
		mustOK(t, w.Write(big, g.cb("big")))
		for range 3 {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		pu7RunOnDyingThread(t, l)
		pu7RunOnDyingThread(t, l)
		pu7Send(t, addr, "dgram")
		_, err := unix.Write(*rpeer, []byte("bytes"))
		mustOK(t, err)
		runUntil(t, l, "the datagram and the bytes", func() bool { return len(g) == 2 })
		sortTail(g)
		ch := pu7Drain(*wpeer, len(big))
		runUntil(t, l, "the write", func() bool { return len(g) == 3 })
		g.add("peer read %d", (<-ch).n)
		u.Close(nil)
		r.Close(nil)
		ringWriteClosePipe(t, l, w, &g)
		return g
	}
	t.Setenv(uvloop.OwnThreadEnv, "0")
	t.Run("plain", func(t *testing.T) { ringWriteDiff(t, scenario) })
	t.Run("locked", func(t *testing.T) {
		ringWriteDiffWith(t, []uvloop.Option{uvloop.WithLockOSThread()}, scenario)
	})
}

// TestPU7PipePassedFdsDropped: Pipe has no IPC, so descriptors a peer passes with its bytes
// (SCM_RIGHTS) are never installed in the process: reading the bytes drops them, and so does
// closing the pipe before reading. The passed descriptor is the write end of an OS pipe whose
// read end the test holds: that pipe hangs up once the last reference is dropped, so no file
// is kept alive behind the loop's back either.
func TestPU7PipePassedFdsDropped(t *testing.T) {
	for _, read := range []bool{true, false} {
		t.Run(fmt.Sprintf("read=%v", read), func(t *testing.T) {
			pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
				p, peer := pu7Pair(t, l)
				var g ringWriteLog
				var fds [2]int
				mustOK(t, unix.Pipe2(fds[:], unix.O_CLOEXEC))
				defer unix.Close(fds[0])
				mustOK(t, unix.Sendmsg(*peer, []byte("with fd"), unix.UnixRights(fds[1]), nil, 0))
				mustOK(t, unix.Close(fds[1])) // the message holds the only reference now
				if read {
					mustOK(t, p.ReadStart(pu7Reader(&g, "read")))
					runUntil(t, l, "the bytes", func() bool { return len(g) == 1 })
				}
				ringWriteClosePipe(t, l, p, &g)
				// Hung up once no reference to the write end lives (the 5 s only stop a hang).
				pfd := []unix.PollFd{{Fd: int32(fds[0]), Events: unix.POLLIN}}
				_, err := unix.Poll(pfd, 5000)
				g.add("passed pipe hung up %v (%s)", pfd[0].Revents&unix.POLLHUP != 0, ringWriteErr(err))
				return g
			})
		})
	}
}
