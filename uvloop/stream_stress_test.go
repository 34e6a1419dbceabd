package uvloop_test

import (
	"bytes"
	"errors"
	"io"
	"net/netip"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// pattern is what the stress clients send: connection c sends pattern[c%251:][:size].
var pattern = func() []byte {
	p := make([]byte, 2<<20+256)
	for i := range p {
		p[i] = byte(i % 251)
	}
	return p
}()

// echoNoCopy echoes with TryWrite first and copies only what the socket did not take;
// it stops reading while more than limit bytes are queued.
func echoNoCopy(t testing.TB, s uvloop.Stream, limit int, onClose func()) {
	paused := false
	var onRead func([]byte, error)
	onRead = func(data []byte, err error) {
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Errorf("server read: %v", err)
			}
			s.Close(onClose)
			return
		}
		n := 0
		if s.WriteQueueSize() == 0 {
			n, err = s.TryWrite(data)
			if err != nil && !errors.Is(err, syscall.EAGAIN) {
				t.Errorf("server TryWrite: %v", err)
				s.Close(onClose)
				return
			}
		}
		if n < len(data) {
			if err := s.Write(append([]byte(nil), data[n:]...), nil); err != nil {
				t.Errorf("server Write: %v", err)
			}
			if s.WriteQueueSize() > limit {
				paused = true
				s.ReadStop()
			}
		}
	}
	s.OnDrain(func() {
		if paused && !s.IsClosing() {
			paused = false
			mustOK(t, s.ReadStart(onRead))
		}
	})
	mustOK(t, s.ReadStart(onRead))
}

// serveEcho runs an echo server on its own loop and goroutine. stop (from any goroutine)
// closes the listener; the returned channel is closed once the server loop is closed.
func serveEcho(t *testing.T) (addr netip.AddrPort, stop func(), done <-chan struct{}) {
	t.Helper()
	sl := newLoop(t)
	server, err := sl.NewTCP()
	mustOK(t, err)
	mustOK(t, server.Bind(loopback, 0))
	mustOK(t, server.Listen(4096, func(err error) {
		if err != nil {
			t.Errorf("server: %v", err)
			return
		}
		c, err := sl.NewTCP()
		mustOK(t, err)
		mustOK(t, server.Accept(c))
		echoNoCopy(t, c, 256<<10, nil)
	}))
	addr, err = server.LocalAddr()
	mustOK(t, err)
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		if _, err := sl.Run(uvloop.RunDefault); err != nil {
			t.Errorf("server loop: %v", err)
		}
		if err := sl.Close(); err != nil {
			t.Errorf("server loop close: %v", err)
		}
	}()
	return addr, func() { sl.Post(func() { server.Close(nil) }) }, ch
}

// 1,000 connections at once, each sending 1 MiB to an
// echo server on another loop and checking every byte that comes back.
func TestTCPStressConcurrentEcho(t *testing.T) {
	checkFds(t)
	conns, size := 1000, 1<<20
	if testing.Short() {
		conns = 100
	}
	addr, stop, serverDone := serveEcho(t)
	l := newLoop(t)
	finished, closed := 0, 0
	for c := range conns {
		h, err := l.NewTCP()
		mustOK(t, err)
		want := pattern[c%251:][:size]
		got := 0
		mustOK(t, h.Connect(addr, func(err error) {
			if err != nil {
				t.Fatalf("conn %d: connect: %v", c, err)
			}
			mustOK(t, h.Write(want, func(err error) {
				if err != nil {
					t.Fatalf("conn %d: write: %v", c, err)
				}
			}))
			mustOK(t, h.ReadStart(func(data []byte, err error) {
				if err != nil {
					t.Fatalf("conn %d: read after %d bytes: %v", c, got, err)
				}
				if got+len(data) > size || !bytes.Equal(data, want[got:got+len(data)]) {
					t.Fatalf("conn %d: wrong bytes at offset %d", c, got)
				}
				got += len(data)
				if got == size {
					finished++
					h.Close(func() { closed++ })
				}
			}))
		}))
	}
	runLoop(t, l)
	stop()
	<-serverDone
	if finished != conns || closed != conns {
		t.Fatalf("%d of %d connections finished, %d closed", finished, conns, closed)
	}
	closeLoop(t, l)
}

// A peer that resets the connection while a large write is in progress: the write fails
// (ECONNRESET or EPIPE) in its callback, the writes queued behind it are cancelled, and everything closes.
func TestTCPPeerResetMidWrite(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	var server *uvloop.TCP
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		c := acceptTCP(t, s)
		read := 0
		mustOK(t, c.ReadStart(func(data []byte, err error) {
			mustOK(t, err)
			read += len(data)
			if read >= 256<<10 {
				mustOK(t, c.CloseReset(nil))
				server.Close(nil)
			}
		}))
	})
	client, err := l.NewTCP()
	mustOK(t, err)
	big := make([]byte, 64<<20)
	var errs []error
	mustOK(t, client.Connect(addr, func(err error) {
		mustOK(t, err)
		for range 3 {
			mustOK(t, client.Write(big, func(err error) {
				errs = append(errs, err)
				if err != nil && !client.IsClosing() {
					client.Close(nil)
				}
			}))
		}
	}))
	runLoop(t, l)
	if len(errs) != 3 {
		t.Fatalf("%d write callbacks, want 3", len(errs))
	}
	if !errors.Is(errs[0], syscall.ECONNRESET) && !errors.Is(errs[0], syscall.EPIPE) {
		t.Fatalf("first write: %v, want ECONNRESET or EPIPE", errs[0])
	}
	for _, err := range errs {
		if err == nil {
			t.Fatalf("a write to a reset peer succeeded: %v", errs)
		}
	}
	closeLoop(t, l)
}

// A slow reader: the writer honours backpressure (writes only while WriteQueueSize is under
// a limit, resumes on drain), so its queue and the process's heap stay bounded while 64 MiB
// go through.
func TestTCPSlowReaderBackpressure(t *testing.T) {
	checkFds(t)
	const total, chunk, limit = 64 << 20, 64 << 10, 256 << 10
	l := newLoop(t)
	read, maxQueue, drains := 0, 0, 0
	var server *uvloop.TCP
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heapBefore := ms.HeapInuse
	var maxHeap uint64
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		c := acceptTCP(t, s)
		s.Close(nil)
		// Read a little, then pause: the reader takes 1 ms breaks every 1 MiB or so.
		var onRead func([]byte, error)
		since := 0
		pause := l.NewTimer(func(*uvloop.Timer) { mustOK(t, c.ReadStart(onRead)) })
		onRead = func(data []byte, err error) {
			if errors.Is(err, io.EOF) {
				pause.Close(nil)
				c.Close(nil)
				return
			}
			mustOK(t, err)
			read += len(data)
			since += len(data)
			if since >= 1<<20 {
				since = 0
				c.ReadStop()
				mustOK(t, pause.Start(time.Millisecond, 0))
			}
		}
		mustOK(t, c.ReadStart(onRead))
	})
	_ = server
	client, err := l.NewTCP()
	mustOK(t, err)
	buf := pattern[:chunk]
	sent := 0
	var pump func()
	pump = func() {
		for sent < total && client.WriteQueueSize() < limit {
			mustOK(t, client.Write(buf, nil))
			sent += chunk
			maxQueue = max(maxQueue, client.WriteQueueSize())
		}
		if sent == total {
			client.OnDrain(nil)
			mustOK(t, client.Shutdown(func(err error) {
				mustOK(t, err)
				client.Close(nil)
			}))
		}
		if sent%(8<<20) == 0 {
			runtime.ReadMemStats(&ms)
			maxHeap = max(maxHeap, ms.HeapInuse)
		}
	}
	mustOK(t, client.Connect(addr, func(err error) {
		mustOK(t, err)
		client.OnDrain(func() { drains++; pump() })
		pump()
	}))
	runLoop(t, l)
	if read != total {
		t.Fatalf("read %d of %d bytes", read, total)
	}
	if maxQueue > limit+chunk {
		t.Fatalf("the write queue grew to %d bytes (limit %d)", maxQueue, limit)
	}
	if drains == 0 {
		t.Fatal("no drain notification: the slow reader never slowed the writer")
	}
	if maxHeap > heapBefore+32<<20 {
		t.Fatalf("heap grew from %d to %d bytes", heapBefore, maxHeap)
	}
	t.Logf("max queue %d bytes, %d drains, heap %d -> max %d", maxQueue, drains, heapBefore, maxHeap)
	closeLoop(t, l)
}

// Closing a stream from inside its own read callback, with more data waiting and writes
// queued: no further read callback runs, the queued writes complete with ECANCELED before
// the close callback, and the fd is gone at once.
func TestTCPCloseInReadCallback(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	reads, canceled, closed := 0, 0, 0
	var server *uvloop.TCP
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		c := acceptTCP(t, s)
		s.Close(nil)
		var tm *uvloop.Timer
		tm = l.NewTimer(func(*uvloop.Timer) {
			tm.Close(nil)
			mustOK(t, c.ReadStart(func(data []byte, err error) {
				reads++
				if reads > 1 {
					t.Fatal("a read callback ran after Close")
				}
				// Queue more than the peer (not reading yet) will take.
				for range 64 {
					mustOK(t, c.Write(pattern[:1<<20], func(err error) {
						if closed != 0 {
							t.Error("write callback after the close callback")
						}
						if errors.Is(err, syscall.ECANCELED) {
							canceled++
						}
					}))
				}
				mustOK(t, c.Close(func() { closed++ }))
				if c.Fd() != -1 {
					t.Error("the fd is still open after Close")
				}
				if err := c.ReadStart(func([]byte, error) {}); !errors.Is(err, uvloop.ErrClosed) {
					t.Errorf("ReadStart after Close: %v", err)
				}
			}))
		})
		mustOK(t, tm.Start(10*time.Millisecond, 0)) // let the client's data pile up
	})
	_ = server
	client, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, client.Connect(addr, func(err error) {
		mustOK(t, err)
		mustOK(t, client.Write(pattern[:1<<20], nil))
		mustOK(t, client.ReadStart(func(data []byte, err error) {
			if err != nil {
				client.Close(nil)
			}
		}))
	}))
	runLoop(t, l)
	if reads != 1 || closed != 1 || canceled == 0 {
		t.Fatalf("reads %d, close callbacks %d, cancelled writes %d", reads, closed, canceled)
	}
	closeLoop(t, l)
}
