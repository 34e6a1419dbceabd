package uvloop_test

import (
	"errors"
	"io"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// echoPair is a connected client and server on one loop, for the zero-allocation test and
// the benchmarks. Its callbacks are bound once, so a round trip allocates nothing.
type echoPair struct {
	tb             testing.TB
	l              *uvloop.Loop
	listener       *uvloop.TCP
	client, server *uvloop.TCP
	got            int // bytes the client read in the current round
	wrote          int // write callbacks
	onWrite        func(error)
	onClientRead   func([]byte, error)
	onServerRead   func([]byte, error)
}

func newEchoPair(tb testing.TB) *echoPair {
	p := &echoPair{tb: tb, l: newLoop(tb)}
	p.onWrite = func(err error) {
		if err != nil {
			tb.Fatalf("write: %v", err)
		}
		p.wrote++
	}
	p.onClientRead = func(data []byte, err error) {
		if err != nil {
			tb.Fatalf("client read: %v", err)
		}
		p.got += len(data)
	}
	p.onServerRead = func(data []byte, err error) {
		if err != nil {
			if errors.Is(err, io.EOF) {
				return
			}
			tb.Fatalf("server read: %v", err)
		}
		n, err := p.server.TryWrite(data)
		if err != nil && !errors.Is(err, syscall.EAGAIN) {
			tb.Fatalf("server write: %v", err)
		}
		if n < len(data) { // not on the measured path: 64 bytes always fit
			mustOK(tb, p.server.Write(append([]byte(nil), data[n:]...), nil))
		}
	}
	p.listener, _ = listenTCP(tb, p.l, func(s *uvloop.TCP, err error) {
		mustOK(tb, err)
		p.server = acceptTCP(tb, s)
		mustOK(tb, p.server.SetNoDelay(true))
		mustOK(tb, p.server.ReadStart(p.onServerRead))
	})
	addr, err := p.listener.LocalAddr()
	mustOK(tb, err)
	p.client, err = p.l.NewTCP()
	mustOK(tb, err)
	mustOK(tb, p.client.SetNoDelay(true))
	connected := false
	mustOK(tb, p.client.Connect(addr, func(err error) {
		mustOK(tb, err)
		connected = true
		mustOK(tb, p.client.ReadStart(p.onClientRead))
	}))
	for !connected || p.server == nil {
		mustRunMode(tb, p.l, uvloop.RunOnce)
	}
	return p
}

// roundTrip sends msg and runs the loop until the echo is back and the write callback ran.
func (p *echoPair) roundTrip(msg []byte) {
	p.got = 0
	wrote := p.wrote
	mustOK(p.tb, p.client.Write(msg, p.onWrite))
	for p.got < len(msg) || p.wrote == wrote {
		if _, err := p.l.Run(uvloop.RunOnce); err != nil {
			p.tb.Fatal(err)
		}
	}
}

func (p *echoPair) close() { closeLoop(p.tb, p.l) }

// The echo path allocates nothing: a Write of caller-owned bytes that completes at once,
// its callback from the pending phase, the reads into the loop's buffer, TryWrite.
func TestTCPEchoZeroAllocs(t *testing.T) {
	checkFds(t)
	p := newEchoPair(t)
	msg := make([]byte, 64)
	for range 100 { // warm up: the write request pool, the pending ring, the read buffer
		p.roundTrip(msg)
	}
	if n := testing.AllocsPerRun(1000, func() { p.roundTrip(msg) }); n != 0 {
		t.Fatalf("%v allocations per echo round trip, want 0", n)
	}
	// Writev of several buffers reuses its request's slice too.
	vec := [][]byte{msg[:16], msg[16:40], msg[40:]}
	wv := func() {
		p.got = 0
		wrote := p.wrote
		mustOK(t, p.client.Writev(vec, p.onWrite))
		for p.got < len(msg) || p.wrote == wrote {
			mustRunMode(t, p.l, uvloop.RunOnce)
		}
	}
	for range 100 {
		wv()
	}
	if n := testing.AllocsPerRun(1000, wv); n != 0 {
		t.Fatalf("%v allocations per Writev round trip, want 0", n)
	}
	p.close()
}

// BenchmarkTCPEchoRoundTrip: one connection on one loop, 64-byte ping-pong; ns/op is one
// round trip (client write, server read and echo, client read, write callback).
func BenchmarkTCPEchoRoundTrip(b *testing.B) {
	p := newEchoPair(b)
	msg := make([]byte, 64)
	for range 100 {
		p.roundTrip(msg)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		p.roundTrip(msg)
	}
	b.StopTimer()
	p.close()
}

// BenchmarkTCPThroughput: one connection on one loop, the client writes 64 KiB chunks as
// fast as backpressure allows (at most 256 KiB queued), the server reads and discards.
func BenchmarkTCPThroughput(b *testing.B) {
	const chunk, limit = 64 << 10, 256 << 10
	p := newEchoPair(b)
	mustOK(b, p.server.ReadStop())
	read := 0
	mustOK(b, p.server.ReadStart(func(data []byte, err error) {
		if err != nil {
			b.Fatalf("server read: %v", err)
		}
		read += len(data)
	}))
	buf := make([]byte, chunk)
	b.SetBytes(chunk)
	b.ReportAllocs()
	b.ResetTimer()
	sent := 0
	total := b.N * chunk
	for read < total {
		for sent < total && p.client.WriteQueueSize() < limit {
			mustOK(b, p.client.Write(buf, nil))
			sent += chunk
		}
		mustRunMode(b, p.l, uvloop.RunOnce)
	}
	b.StopTimer()
	p.close()
}
