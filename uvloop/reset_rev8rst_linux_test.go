package uvloop_test

import (
	"fmt"
	"net"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// Differential tests of read errors and the end of the stream: each scenario runs on both
// backends, on plain loops and on loops of their own thread (rev7Diff), and the logs must be
// the same. The reference for an order is Node v20 (libuv) on epoll.

// rev8Log is a scenario's log with a mark ("|") between the loop iterations in which
// something was logged: a prepare handle adds it, once, when the iteration before added
// anything.
type rev8Log struct{ ringWriteLog }

// mark starts the prepare handle that separates the iterations; stop closes it.
func (g *rev8Log) mark(t *testing.T, l *uvloop.Loop) (stop func()) {
	p := l.NewPrepare(func(*uvloop.Prepare) {
		if n := len(g.ringWriteLog); n > 0 && g.ringWriteLog[n-1] != "|" {
			g.add("|")
		}
	})
	mustOK(t, p.Start())
	return func() { p.Close(nil) }
}

// reads logs n bytes read; reads that follow each other are logged as one (the ring reads
// in pieces of its provided buffers, not of the loop's read buffer).
func (g *rev8Log) reads(n int) {
	var m int
	if k := len(g.ringWriteLog); k > 0 {
		if _, err := fmt.Sscanf(g.ringWriteLog[k-1], "read %d", &m); err == nil {
			g.ringWriteLog[k-1] = fmt.Sprintf("read %d", m+n)
			return
		}
	}
	g.add("read %d", n)
}

// read returns a read callback that logs what it gets, and ends (sets *done) at an error.
func (g *rev8Log) read(done *bool) func([]byte, error) {
	return func(b []byte, err error) {
		if err != nil {
			g.add("read %s", ringWriteErr(err))
			*done = true
			return
		}
		g.reads(len(b))
	}
}

// rev8Stuck queues a write on c that the socket cannot take (its send buffer made small, the
// peer not reading): it waits for room until the test ends or the connection does.
func rev8Stuck(t *testing.T, l *uvloop.Loop, c *uvloop.TCP, g *rev8Log, name string) {
	mustOK(t, syscall.SetsockoptInt(c.Fd(), syscall.SOL_SOCKET, syscall.SO_SNDBUF, 4096))
	mustOK(t, c.Write(make([]byte, 4<<20), g.cb(name)))
	for range 5 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	if c.WriteQueueSize() == 0 {
		t.Fatal("the write did not wait")
	}
}

// rev8Reset makes the peer p send data (if any) and then reset the connection (SO_LINGER 0),
// both before the loop polls again: they arrive in one batch.
func rev8Reset(t *testing.T, p *net.TCPConn, data string) {
	if data != "" {
		_, err := p.Write([]byte(data))
		mustOK(t, err)
	}
	mustOK(t, p.SetLinger(0))
	mustOK(t, p.Close())
}

// The peer sends bytes and resets, in one batch, while the stream reads, with a write
// waiting for room or none. Node v20 on epoll (the reference): 'data', 'end', then the write
// fails with ECONNRESET ('error', syscall write); with no write, 'data' and 'end' and no
// error. libuv reads the bytes (a short read), sees the hangup and ends the stream without
// reading again, and the socket's error is left to the write.
func TestRev8BytesThenResetDiff(t *testing.T) {
	for _, tc := range []struct {
		name  string
		data  string
		write bool
	}{
		{name: "bytes-write", data: "hello", write: true},
		{name: "bytes", data: "hello"},
		{name: "write", write: true},
		{name: "none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
				var g rev8Log
				c, p := ringWritePair(t, l)
				defer p.Close()
				if tc.write {
					rev8Stuck(t, l, c, &g, "w")
				}
				done := false
				mustOK(t, c.ReadStart(g.read(&done)))
				for range 3 {
					mustRunMode(t, l, uvloop.RunNoWait)
				}
				stop := g.mark(t, l)
				rev8Reset(t, p, tc.data)
				runUntil(t, l, "the end", func() bool { return done && (!tc.write || c.WriteQueueSize() == 0) })
				for range 3 {
					mustRunMode(t, l, uvloop.RunNoWait)
				}
				stop()
				g.add("readable %v writable %v queued %d", c.IsReadable(), c.IsWritable(), c.WriteQueueSize())
				ringWriteClose(t, l, c, &g.ringWriteLog, false)
				return g.ringWriteLog
			})
		})
	}
}

// rev8Case is a scenario of the peer's last bytes and the end of its connection, seen by a
// stream that reads.
type rev8Case struct {
	name   string
	size   int    // the peer sends size bytes
	fin    bool   // then shuts down its writing side
	reset  bool   // then resets the connection
	stuck  int    // the stream has this many writes waiting for room
	reply  bool   // the read callback answers the first bytes with a Write
	paused bool   // the stream stops reading before the peer acts and starts again later
	shut   bool   // the stream shuts down its writing side before the peer acts
	close  bool   // the read callback closes the stream on the first bytes
	stop   bool   // the read callback stops reading on the first bytes; it starts again later
	after  string // after the end: "write" (a Write), "try" (a TryWrite), "read" (ReadStart again)
}

// rev8Run runs tc on l and returns its log.
func rev8Run(t *testing.T, l *uvloop.Loop, tc rev8Case) []string {
	var g rev8Log
	c, p := ringWritePair(t, l)
	defer p.Close()
	for i := range tc.stuck {
		if i == 0 {
			rev8Stuck(t, l, c, &g, "w0")
		} else {
			mustOK(t, c.Write([]byte("queued"), g.cb(fmt.Sprintf("w%d", i))))
		}
	}
	done, closed, replied := false, false, false
	var read func([]byte, error)
	read = func(b []byte, err error) {
		if err != nil {
			g.add("read %s", ringWriteErr(err))
			done = true
			return
		}
		g.reads(len(b))
		if tc.reply && !replied {
			replied = true
			if err := c.Write([]byte("ok"), g.cb("reply")); err != nil {
				g.add("reply: %s", ringWriteErr(err))
			}
		}
		if tc.stop {
			tc.stop = false
			mustOK(t, c.ReadStop())
			g.add("stop")
		}
		if tc.close && !closed {
			closed = true
			c.Close(func() { g.add("close"); done = true })
		}
	}
	mustOK(t, c.ReadStart(read))
	for range 3 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	if tc.shut {
		shut := false
		mustOK(t, c.Shutdown(func(err error) { g.add("shutdown %s", ringWriteErr(err)); shut = true }))
		if tc.stuck == 0 {
			runUntil(t, l, "shutdown", func() bool { return shut })
		}
	}
	if tc.paused {
		mustOK(t, c.ReadStop())
	}
	stop := g.mark(t, l)
	if tc.size > 0 {
		_, err := p.Write(make([]byte, tc.size))
		mustOK(t, err)
	}
	if tc.fin {
		mustOK(t, p.CloseWrite())
	}
	if tc.reset {
		mustOK(t, p.SetLinger(0))
		mustOK(t, p.Close())
	}
	restart := func() {
		for range 5 {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		g.add("start")
		mustOK(t, c.ReadStart(read))
	}
	if tc.paused {
		restart()
	}
	if tc.stop {
		runUntil(t, l, "the bytes", func() bool { return !tc.stop })
		restart()
	}
	runUntil(t, l, "the end", func() bool { return done && c.WriteQueueSize() == 0 })
	switch tc.after {
	case "write":
		wrote := false
		if err := c.Write([]byte("late"), func(err error) { g.add("late %s", ringWriteErr(err)); wrote = true }); err != nil {
			g.add("late: %s", ringWriteErr(err))
			wrote = true
		}
		runUntil(t, l, "the late write", func() bool { return wrote })
	case "try":
		n, err := c.TryWrite([]byte("late"))
		g.add("try %d %s", n, ringWriteErr(err))
	case "read":
		done = false
		restart()
		runUntil(t, l, "the end again", func() bool { return done })
	}
	for range 3 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	stop()
	if closed {
		if !tc.reset {
			b, err := ringWritePeer(p)
			g.add("peer %d %s", len(b), ringWriteErr(err))
		}
		return g.ringWriteLog
	}
	g.add("readable %v writable %v queued %d", c.IsReadable(), c.IsWritable(), c.WriteQueueSize())
	ringWriteClose(t, l, c, &g.ringWriteLog, false)
	return g.ringWriteLog
}

func rev8Cases(t *testing.T, cases []rev8Case) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string { return rev8Run(t, l, tc) })
		})
	}
}

// The end of the stream that comes with the bytes (commit 591694a) and its edges: a multiple
// of the read buffer (epoll reads it whole and finds the end in the same phase), a reset behind
// the FIN, a stream paused while they came, and a read callback that closes the stream.
func TestRev8EndEdgesDiff(t *testing.T) {
	rev8Cases(t, []rev8Case{
		{name: "fin-5", size: 5, fin: true, reply: true},
		{name: "fin-64k", size: 64 << 10, fin: true, reply: true},
		{name: "fin-64k+1", size: 64<<10 + 1, fin: true, reply: true},
		{name: "fin-128k", size: 128 << 10, fin: true, reply: true},
		{name: "reset-64k", size: 64 << 10, reset: true},
		{name: "reset-64k-stuck", size: 64 << 10, reset: true, stuck: 1},
		{name: "fin-reset", size: 5, fin: true, reset: true},
		{name: "fin-reset-stuck", size: 5, fin: true, reset: true, stuck: 1},
		{name: "fin-paused", size: 5, fin: true, paused: true, reply: true},
		{name: "fin-only-paused", fin: true, paused: true},
		{name: "fin-stop", size: 5, fin: true, stop: true},
		{name: "fin-stop-reply", size: 5, fin: true, stop: true, reply: true},
		{name: "fin-close", size: 5, fin: true, close: true},
		{name: "reset-close", size: 5, reset: true, close: true},
	})
}

// Read errors: a reset with writes queued, a reset while the stream is paused, and a reset
// after Shutdown.
func TestRev8ReadErrorsDiff(t *testing.T) {
	rev8Cases(t, []rev8Case{
		{name: "reset-3-queued", reset: true, stuck: 3},
		{name: "bytes-reset-3-queued", size: 5, reset: true, stuck: 3},
		{name: "reset-paused", reset: true, paused: true},
		{name: "bytes-reset-paused", size: 5, reset: true, paused: true},
		{name: "reset-paused-stuck", reset: true, paused: true, stuck: 2},
		{name: "bytes-reset-paused-stuck", size: 5, reset: true, paused: true, stuck: 2},
		{name: "shutdown-reset", reset: true, shut: true},
		{name: "shutdown-bytes-reset", size: 5, reset: true, shut: true},
		{name: "shutdown-bytes-fin", size: 5, fin: true, shut: true, reply: true},
		{name: "shutdown-stuck-reset", reset: true, shut: true, stuck: 1},
		{name: "bytes-reset-stop", size: 5, reset: true, stop: true},
		{name: "bytes-reset-stop-stuck", size: 5, reset: true, stop: true, stuck: 1},
		{name: "bytes-reset-then-write", size: 5, reset: true, after: "write"},
		{name: "bytes-reset-then-trywrite", size: 5, reset: true, after: "try"},
		{name: "bytes-reset-then-read", size: 5, reset: true, after: "read"},
		{name: "bytes-fin-then-read", size: 5, fin: true, after: "read"},
		{name: "reset-then-write", reset: true, after: "write"},
	})
}
