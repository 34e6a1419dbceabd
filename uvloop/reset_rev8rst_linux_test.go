package uvloop_test

import (
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

// read returns a read callback that logs what it gets, and ends (sets *done) at an error.
func (g *rev8Log) read(done *bool) func([]byte, error) {
	return func(b []byte, err error) {
		if err != nil {
			g.add("read %s", ringWriteErr(err))
			*done = true
			return
		}
		g.add("read %d", len(b))
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
