package uvloop_test

import (
	"bytes"
	"errors"
	"hash/crc32"
	"io"
	"net"
	"net/netip"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Differential tests of Pipe (Unix domain stream sockets) and UDP handles, from the review
// rev7-pipeudp: each scenario runs on epoll and on io_uring, on a plain loop and on a loop of
// its own thread, and the io_uring log must be epoll's.

// pu7Diff runs scenario as ringWriteDiff does, on plain loops and on loops WithOwnThread.
func pu7Diff(t *testing.T, scenario func(t *testing.T, l *uvloop.Loop) []string) {
	t.Setenv(uvloop.OwnThreadEnv, "0")
	t.Run("plain", func(t *testing.T) { ringWriteDiff(t, scenario) })
	t.Run("own", func(t *testing.T) {
		ringWriteDiffWith(t, []uvloop.Option{uvloop.WithOwnThread()}, scenario)
	})
}

// pu7Pair returns a Pipe that Open adopted (one end of a socketpair) and the other end, a
// blocking fd of the test's, closed when the test ends unless the scenario closed it (-1).
func pu7Pair(t *testing.T, l *uvloop.Loop) (*uvloop.Pipe, *int) {
	t.Helper()
	checkFds(t)
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	mustOK(t, err)
	p, err := l.NewPipe()
	mustOK(t, err)
	mustOK(t, p.Open(fds[0]))
	peer := fds[1]
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

// TestPU7PipeWritevLarge: a writev of many buffers, larger than the socket holds, arrives
// whole and in order at a peer that reads it all.
func TestPU7PipeWritevLarge(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		p, peer := pu7Pair(t, l)
		var g ringWriteLog
		var bufs [][]byte
		want := crc32.NewIEEE()
		for i := range 300 {
			b := bytes.Repeat([]byte{byte(i)}, 7000+i)
			bufs = append(bufs, b)
			want.Write(b)
		}
		fd := *peer
		type result struct {
			n   int
			sum uint32
		}
		ch := make(chan result, 1)
		go func() {
			h := crc32.NewIEEE()
			buf := make([]byte, 64<<10)
			n := 0
			for {
				k, err := unix.Read(fd, buf)
				if k <= 0 || err != nil {
					break
				}
				h.Write(buf[:k])
				n += k
			}
			ch <- result{n, h.Sum32()}
		}()
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

// TestPU7PipeListenConnect: a Pipe listener and a Pipe client on a path: ping, pong, the
// client's shutdown, the server's end of stream, then the server's close, which the client
// reads as the end; the client then connects to a path where nothing listens.
func TestPU7PipeListenConnect(t *testing.T) {
	pu7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		checkFds(t)
		path := pipePath(t)
		var g ringWriteLog
		srv, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, srv.Bind(path))
		var conn *uvloop.Pipe
		mustOK(t, srv.Listen(8, func(err error) {
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
		}))
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

var _ = errors.Is
var _ = io.EOF
var _ = net.IPv4len
var _ = netip.AddrPort{}
var _ = syscall.EAGAIN
