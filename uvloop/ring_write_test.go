package uvloop_test

import (
	"errors"
	"io"
	"slices"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/poller"
	"github.com/uvgo/uvgo/uvloop"
)

// These tests pin what Write does on both backends; under UVGO_BACKEND=io_uring the streams
// write through the ring (RingWrites), and the same assertions hold but the one the ring
// changes on purpose: WriteQueueSize right after Write.

// writePair connects a client to a server on l; onServer gets the accepted stream.
func writePair(t *testing.T, l *uvloop.Loop, onServer func(*uvloop.TCP)) *uvloop.TCP {
	t.Helper()
	var server *uvloop.TCP
	_, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		server = acceptTCP(t, s)
		onServer(server)
	})
	client, err := l.NewTCP()
	mustOK(t, err)
	connected := false
	mustOK(t, client.Connect(addr, func(err error) { mustOK(t, err); connected = true }))
	runUntil(t, l, "connect", func() bool { return connected && server != nil })
	return client
}

// ringExpected reports whether this run's loops write through the ring.
func ringExpected(l *uvloop.Loop) bool {
	return l.Backend() == uvloop.BackendIOURing && poller.Available(poller.BackendIOURing) == nil
}

// TestWriteQueueSizeAfterWrite pins the decision: on epoll a Write that the socket takes
// leaves WriteQueueSize at 0 (write(2) ran inside Write); through the ring the bytes count
// until their completion, reaped at the end of the phase, and TryWrite fails with EAGAIN
// meanwhile. Either way the callback runs in the next pending phase, before prepare.
func TestWriteQueueSizeAfterWrite(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	got := 0
	client := writePair(t, l, func(s *uvloop.TCP) {
		mustOK(t, s.ReadStart(func(b []byte, err error) { got += len(b) }))
	})
	ring := client.RingWrites()
	if ring != ringExpected(l) {
		t.Fatalf("RingWrites %v on %v", ring, l.Backend())
	}
	msg := make([]byte, 64)
	var log []string
	prep := l.NewPrepare(func(*uvloop.Prepare) { log = append(log, "prepare") })
	mustOK(t, prep.Start())
	tm := l.NewTimer(func(*uvloop.Timer) {
		log = append(log, "timer")
		mustOK(t, client.Write(msg, func(err error) {
			mustOK(t, err)
			log = append(log, "write")
		}))
		want := 0
		if ring {
			want = len(msg)
			if _, err := client.TryWrite(msg); !errors.Is(err, syscall.EAGAIN) {
				t.Errorf("TryWrite while a ring write is queued: %v, want EAGAIN", err)
			}
		}
		if q := client.WriteQueueSize(); q != want {
			t.Errorf("WriteQueueSize right after Write: %d, want %d", q, want)
		}
	})
	mustOK(t, tm.Start(0, 0))
	// (Until the write callback has run: once its Run has gone on to the prepare callback, a
	// wait with nothing left to wake it would block for good.)
	runUntil(t, l, "the write callback", func() bool { return slices.Contains(log, "write") || len(log) > 8 })
	mustRunMode(t, l, uvloop.RunNoWait)
	i := 0
	for i < len(log) && log[i] != "timer" {
		i++
	}
	if i+2 >= len(log) || log[i+1] != "write" || log[i+2] != "prepare" {
		t.Errorf("order %v, want timer, write, prepare", log)
	}
	if q := client.WriteQueueSize(); q != 0 {
		t.Errorf("WriteQueueSize after the callback: %d", q)
	}
	runUntil(t, l, "the bytes", func() bool { return got == len(msg) })
	closeLoop(t, l)
}

// TestWriteCloseCancels: writes the peer does not take are cancelled by Close with
// ECANCELED, after the ones that were written, and before the close callback.
func TestWriteCloseCancels(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	client := writePair(t, l, func(*uvloop.TCP) {}) // never reads
	buf := make([]byte, 1<<20)
	var results []error
	for range 64 {
		mustOK(t, client.Write(buf, func(err error) { results = append(results, err) }))
	}
	for range 20 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	if client.WriteQueueSize() == 0 {
		t.Fatal("64 MiB written to a peer that does not read")
	}
	closed := false
	client.Close(func() {
		closed = true
		if len(results) != 64 {
			t.Errorf("%d write callbacks before the close callback, want 64", len(results))
		}
	})
	runUntil(t, l, "close", func() bool { return closed })
	canceled := 0
	for i, err := range results {
		switch {
		case err == nil && canceled > 0:
			t.Errorf("write %d succeeded after a cancelled one", i)
		case err != nil && !errors.Is(err, syscall.ECANCELED):
			t.Errorf("write %d: %v, want ECANCELED", i, err)
		case err != nil:
			canceled++
		}
	}
	if canceled == 0 {
		t.Error("no write was cancelled")
	}
	closeLoop(t, l)
}

// TestWriteToClosedPeer: the peer's close reaches the write callback as EPIPE or
// ECONNRESET (never SIGPIPE).
func TestWriteToClosedPeer(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	client := writePair(t, l, func(s *uvloop.TCP) { s.Close(nil) })
	buf := make([]byte, 64<<10)
	var failed error
	writes := 0
	var write func(error)
	write = func(err error) {
		if err != nil {
			failed = err
			return
		}
		if writes++; writes < 1000 {
			mustOK(t, client.Write(buf, write))
		}
	}
	write(nil)
	runUntil(t, l, "a write error", func() bool { return failed != nil || writes >= 1000 })
	if !errors.Is(failed, syscall.EPIPE) && !errors.Is(failed, syscall.ECONNRESET) {
		t.Errorf("write to a closed peer: %v, want EPIPE or ECONNRESET", failed)
	}
	closeLoop(t, l)
}

// TestShutdownAfterWrites: Shutdown right after Writes waits for them: the peer reads every
// byte, then the end; the write callbacks run before the shutdown callback.
func TestShutdownAfterWrites(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	got, eof := 0, false
	client := writePair(t, l, func(s *uvloop.TCP) {
		mustOK(t, s.ReadStart(func(b []byte, err error) {
			if errors.Is(err, io.EOF) {
				eof = true
				return
			}
			mustOK(t, err)
			got += len(b)
		}))
	})
	buf := make([]byte, 1<<20)
	var log []string
	for range 8 {
		mustOK(t, client.Write(buf, func(err error) { mustOK(t, err); log = append(log, "write") }))
	}
	mustOK(t, client.Shutdown(func(err error) { mustOK(t, err); log = append(log, "shutdown") }))
	runUntil(t, l, "the end of the stream", func() bool { return eof })
	if got != 8*len(buf) {
		t.Errorf("the peer read %d bytes, want %d", got, 8*len(buf))
	}
	if len(log) != 9 || log[8] != "shutdown" {
		t.Errorf("callbacks %v, want 8 writes then shutdown", log)
	}
	closeLoop(t, l)
}

// TestWriteThenClose: a Write followed at once by Close is written, as write(2) inside Write
// would have written it: through the ring, Close submits the queued send before it closes
// the fd. The callback gets nil and the peer reads the bytes, then the end.
func TestWriteThenClose(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	got, eof := 0, false
	client := writePair(t, l, func(s *uvloop.TCP) {
		mustOK(t, s.ReadStart(func(b []byte, err error) {
			if err != nil {
				eof = true
				return
			}
			got += len(b)
		}))
	})
	var werr error
	called := false
	mustOK(t, client.Write(make([]byte, 1000), func(err error) { called, werr = true, err }))
	client.Close(nil)
	runUntil(t, l, "the end of the stream", func() bool { return eof && called })
	if werr != nil || got != 1000 {
		t.Errorf("write callback %v, the peer read %d bytes; want nil and 1000", werr, got)
	}
	closeLoop(t, l)
}

// TestRingWriteZeroAllocs: the echo round trip of TestTCPEchoZeroAllocs, whose client
// writes through the ring under io_uring (a send per Write, SENDMSG for Writev).
func TestRingWriteZeroAllocs(t *testing.T) {
	p := newEchoPair(t)
	if p.client.RingWrites() != ringExpected(p.l) {
		t.Fatalf("RingWrites %v on %v", p.client.RingWrites(), p.l.Backend())
	}
	msg := make([]byte, 64)
	vec := [][]byte{msg[:16], msg[16:40], msg[40:]}
	round := func() {
		p.roundTrip(msg)
		p.got = 0
		wrote := p.wrote
		mustOK(t, p.client.Writev(vec, p.onWrite))
		for p.got < len(msg) || p.wrote == wrote {
			mustRunMode(t, p.l, uvloop.RunOnce)
		}
	}
	for range 100 {
		round()
	}
	if n := testing.AllocsPerRun(1000, round); n != 0 {
		t.Fatalf("%v allocations per Write and Writev round trip, want 0", n)
	}
	p.close()
}
