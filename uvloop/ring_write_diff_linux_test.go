package uvloop_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
	"github.com/uvgo/uvgo/uvloop"
)

// Differential tests of writes through the ring: each scenario runs on a loop per backend
// (epoll and io_uring), logs the callbacks, and the logs must be the same.

// ringWriteErr names an error by its errno, or "nil"/"EOF".
func ringWriteErr(err error) string {
	if err == nil {
		return "nil"
	}
	if errors.Is(err, io.EOF) {
		return "EOF"
	}
	var e syscall.Errno
	if errors.As(err, &e) {
		return fmt.Sprintf("%d(%s)", int(e), e.Error())
	}
	return err.Error()
}

// ringWriteDiff runs scenario on each backend and fails when the logs differ.
func ringWriteDiff(t *testing.T, scenario func(t *testing.T, l *uvloop.Loop) []string) {
	ringWriteDiffWith(t, nil, scenario)
}

// ringWriteDiffWith is ringWriteDiff on loops made with opts besides the backend.
func ringWriteDiffWith(t *testing.T, opts []uvloop.Option, scenario func(t *testing.T, l *uvloop.Loop) []string) {
	logs := map[uvloop.Backend][]string{}
	for _, b := range []uvloop.Backend{uvloop.BackendEpoll, uvloop.BackendIOURing} {
		if err := poller.Available(b); err != nil {
			t.Skipf("%v: %v", b, err)
		}
		ok := t.Run(b.String(), func(t *testing.T) {
			l := newLoopWith(t, append([]uvloop.Option{uvloop.WithBackend(b)}, opts...)...)
			logs[b] = scenario(t, l)
			closeLoop(t, l)
		})
		if !ok {
			return
		}
	}
	e, u := logs[uvloop.BackendEpoll], logs[uvloop.BackendIOURing]
	t.Logf("epoll: %q", e)
	if strings.Join(e, "\n") != strings.Join(u, "\n") {
		t.Errorf("the backends differ:\nepoll:    %q\nio_uring: %q", e, u)
	}
}

// ringWritePair connects a loop TCP to a Go listener and returns both ends.
func ringWritePair(t *testing.T, l *uvloop.Loop) (*uvloop.TCP, *net.TCPConn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	mustOK(t, err)
	defer ln.Close()
	ch := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			ch <- nil
			return
		}
		ch <- c
	}()
	c, err := l.NewTCP()
	mustOK(t, err)
	connected := false
	mustOK(t, c.Connect(ln.Addr().(*net.TCPAddr).AddrPort(), func(err error) {
		mustOK(t, err)
		connected = true
	}))
	runUntil(t, l, "connect", func() bool { return connected })
	p := <-ch
	if p == nil {
		t.Fatal("accept failed")
	}
	return c, p.(*net.TCPConn)
}

// ringWriteLog is a scenario's log.
type ringWriteLog []string

func (g *ringWriteLog) add(format string, args ...any) { *g = append(*g, fmt.Sprintf(format, args...)) }

// cb returns a write callback that logs name and the error.
func (g *ringWriteLog) cb(name string) func(error) {
	return func(err error) { g.add("%s %s", name, ringWriteErr(err)) }
}

// ringWriteClose closes c (with a reset if reset) and runs l until its close callback has
// run, logging "close" in g if g is not nil.
func ringWriteClose(t *testing.T, l *uvloop.Loop, c *uvloop.TCP, g *ringWriteLog, reset bool) {
	closed := false
	cb := func() {
		if g != nil {
			g.add("close")
		}
		closed = true
	}
	if reset {
		mustOK(t, c.CloseReset(cb))
	} else {
		c.Close(cb)
	}
	runUntil(t, l, "close", func() bool { return closed })
}

// ringWritePeer reads what p gets until the end, for 5 s at most.
func ringWritePeer(p *net.TCPConn) ([]byte, error) {
	p.SetReadDeadline(time.Now().Add(5 * time.Second))
	return io.ReadAll(p)
}

// Write, Write and Close in one callback: epoll writes both inside Write (the queue was
// empty each time), so both succeed and the peer gets both; so does the ring, whose Close
// writes what was queued behind the send in flight once that send is done.
func TestRingWriteCloseRightAfterWrite(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		var g ringWriteLog
		mustOK(t, c.Write([]byte("hello"), g.cb("w")))
		mustOK(t, c.Write([]byte("world"), g.cb("w2")))
		ringWriteClose(t, l, c, &g, false)
		b, err := ringWritePeer(p)
		g.add("peer %q %s", b, ringWriteErr(err))
		return g
	})
}

// The HTTP pattern: in the read callback, a header Write, a body Write, then Close.
func TestRingWriteReplyTwoWritesThenClose(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		var g ringWriteLog
		closed := false
		mustOK(t, c.ReadStart(func(b []byte, err error) {
			mustOK(t, c.Write([]byte("HTTP/1.1 200 OK\r\n\r\n"), g.cb("head")))
			mustOK(t, c.Write([]byte("hello"), g.cb("body")))
			c.Close(func() { g.add("close"); closed = true })
		}))
		p.Write([]byte("GET / HTTP/1.1\r\n\r\n"))
		runUntil(t, l, "close", func() bool { return closed })
		b, err := ringWritePeer(p)
		g.add("peer %q %s", b, ringWriteErr(err))
		return g
	})
}

// Write, Writev and CloseReset in one callback: both written before the reset.
func TestRingWriteTwoWritesThenCloseReset(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		var g ringWriteLog
		mustOK(t, c.Write([]byte("abc"), g.cb("w")))
		mustOK(t, c.Writev([][]byte{[]byte("de"), nil, []byte("f")}, g.cb("wv")))
		ringWriteClose(t, l, c, &g, true)
		return g
	})
}

// Write(small), Write(big), Write(small) and Close in one callback, the peer not reading:
// epoll writes the first, part of the second (the socket fills), and cancels the rest; the
// ring's Close writes behind its send as far as the socket takes it, and cancels the rest
// the same way. The peer gets the first write and a prefix of the second.
func TestRingWriteCloseBehindFullSocket(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		var g ringWriteLog
		big := make([]byte, 8<<20)
		for i := range big {
			big[i] = byte(i % 251)
		}
		mustOK(t, c.Write([]byte("abc"), g.cb("w0")))
		mustOK(t, c.Write(big, g.cb("w1")))
		mustOK(t, c.Write([]byte("xyz"), g.cb("w2")))
		ringWriteClose(t, l, c, &g, false)
		b, err := ringWritePeer(p)
		g.add("peer %s, the first write and a prefix of the second %v", ringWriteErr(err),
			len(b) > 3 && len(b) < 3+len(big) && string(b[:3]) == "abc" && bytes.Equal(b[3:], big[:len(b)-3]))
		return g
	})
}

// Close with a send that the socket took in part (the socket is full), in the callback
// that wrote (short) or after the send waited in the kernel (cancelled): the partly written
// request and what is queued behind it fail with ECANCELED, once each, in order, before
// the close callback; nothing is written behind it.
func TestRingWriteCloseAfterShortSend(t *testing.T) {
	for _, waited := range []bool{false, true} {
		t.Run(fmt.Sprintf("waited=%v", waited), func(t *testing.T) {
			ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
				c, p := ringWritePair(t, l)
				defer p.Close()
				var g ringWriteLog
				big := make([]byte, 8<<20)
				mustOK(t, c.Write(big, g.cb("w0")))
				mustOK(t, c.Write([]byte("xyz"), g.cb("w1")))
				if waited {
					for range 3 {
						mustRunMode(t, l, uvloop.RunNoWait)
					}
				}
				g.add("queued %v", c.WriteQueueSize() > 3)
				ringWriteClose(t, l, c, &g, false)
				b, err := ringWritePeer(p)
				g.add("peer %s, a prefix of the first write %v", ringWriteErr(err),
					len(b) > 0 && len(b) < len(big) && bytes.Equal(b, big[:len(b)]))
				return g
			})
		})
	}
}

// ringWriteCloseOther runs a timer whose callback Writes on a, then closes another handle:
// a stream that reads (other "reader"), one that Writes first ("writer"), or a Poll handle
// watching a socket ("poll"). a's write callback runs in the pending phase, before prepare,
// as after epoll's write(2) inside Write, however the other Close entered the kernel
// (RecvForget's submission, SendForget's wait, Remove's wait).
func ringWriteCloseOther(t *testing.T, l *uvloop.Loop, other string) []string {
	a, pa := ringWritePair(t, l)
	defer pa.Close()
	b, pb := ringWritePair(t, l)
	defer pb.Close()
	var closeB func(cb func()) error
	switch other {
	case "reader":
		mustOK(t, b.ReadStart(func([]byte, error) {}))
	case "poll":
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
		mustOK(t, err)
		defer unix.Close(fds[0])
		defer unix.Close(fds[1])
		h, err := l.NewPoll(fds[0], func(*uvloop.Poll, uvloop.Events, error) {})
		mustOK(t, err)
		mustOK(t, h.Start(uvloop.Readable))
		closeB = h.Close
	}
	if closeB == nil {
		closeB = b.Close
	} else {
		defer ringWriteClose(t, l, b, nil, false)
	}
	for range 3 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	var g ringWriteLog
	prep := l.NewPrepare(func(*uvloop.Prepare) { g.add("prepare") })
	mustOK(t, prep.Start())
	wroteA := false
	tm := l.NewTimer(func(*uvloop.Timer) {
		g.add("timer")
		mustOK(t, a.Write([]byte("abc"), func(err error) { g.cb("wA")(err); wroteA = true }))
		if other == "writer" {
			mustOK(t, b.Write([]byte("def"), g.cb("wB")))
		}
		closeB(func() { g.add("closeB") })
	})
	mustOK(t, tm.Start(0, 0))
	runUntil(t, l, "write", func() bool { return wroteA })
	for range 2 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	prep.Close(nil)
	tm.Close(nil)
	i := 0
	for i < len(g) && g[i] != "timer" {
		i++
	}
	out := g[i:]
	if len(out) > 5 {
		out = out[:5]
	}
	ringWriteClose(t, l, a, nil, false)
	return out
}

func TestRingWriteThenCloseOther(t *testing.T) {
	for _, other := range []string{"reader", "writer", "poll"} {
		t.Run(other, func(t *testing.T) {
			ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string { return ringWriteCloseOther(t, l, other) })
		})
	}
}

// ringWriteHuge maps 4 GiB of address space that no memory backs (MAP_NORESERVE) and makes
// only its first 64 KiB readable (zero pages): a write of it sends those bytes and then
// fails with EFAULT, on every backend, without 4 GiB of memory.
func ringWriteHuge(t *testing.T) []byte {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("64-bit only")
	}
	b, err := unix.Mmap(-1, 0, 1<<32, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
	if err != nil {
		t.Skipf("mmap 4 GiB: %v", err)
	}
	t.Cleanup(func() { unix.Munmap(b) })
	mustOK(t, unix.Mprotect(b[:64<<10], unix.PROT_READ))
	return b
}

// A Write of exactly 4 GiB sends: a send's length is capped, not truncated to 32 bits (0
// here, a send of nothing, again and again). The peer gets the readable bytes, and the
// write then fails with EFAULT, on both backends.
func TestRingWrite4GiBCapped(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		big := ringWriteHuge(t)
		c, p := ringWritePair(t, l)
		defer p.Close()
		got := make(chan int64, 1)
		go func() {
			p.SetReadDeadline(time.Now().Add(10 * time.Second))
			n, _ := io.Copy(io.Discard, p)
			got <- n
		}()
		var g ringWriteLog
		mustOK(t, c.Write(big, g.cb("w")))
		deadline := time.Now().Add(5 * time.Second)
		for len(g) == 0 && time.Now().Before(deadline) {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		g.add("queue %d", c.WriteQueueSize())
		ringWriteClose(t, l, c, nil, false)
		n := <-got
		g.add("peer got some of the readable 64 KiB %v", n > 0 && n <= 64<<10)
		return g
	})
}

// A Write of one buffer of exactly 4 GiB of readable (zero) memory, to a peer that reads:
// both backends make progress. Slow: skipped under -short.
//
// The buffer is mapped outside Go's heap. A 4 GiB slice of the heap cost 25 s under -race
// when the garbage collector freed it (the race detector's bookkeeping, 6 GB of memory
// touched), in whatever test ran next: it made TestWriteQueueSizeAfterWrite time out.
func TestRingWrite4GiB(t *testing.T) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("64-bit only")
	}
	if testing.Short() {
		t.Skip("4 GiB of virtual memory; slow under -race")
	}
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		big, err := unix.Mmap(-1, 0, 1<<32, unix.PROT_READ, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
		if err != nil {
			t.Skipf("mmap 4 GiB: %v", err)
		}
		defer unix.Munmap(big)
		var g ringWriteLog
		mustOK(t, c.Write(big, g.cb("w")))
		go io.Copy(io.Discard, p)
		deadline := time.Now().Add(3 * time.Second)
		for c.WriteQueueSize() == 1<<32 && time.Now().Before(deadline) {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		g.add("progress %v", c.WriteQueueSize() < 1<<32)
		ringWriteClose(t, l, c, &g, false)
		return g
	})
}
