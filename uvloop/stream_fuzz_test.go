package uvloop_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// FuzzStreamWriteQueue drives a stream's write queue with random operations — Write and
// Writev of random sizes (zero too), TryWrite, the reader stopping and starting (so the
// small socket buffer fills and writes go out in pieces), loop turns, Shutdown, Close with
// writes queued — and checks it against a model: callbacks run once each, in write order,
// never inside Write; TryWrite writes nothing while writes are queued; WriteQueueSize is
// zero exactly when no write is pending; a drain callback runs only with the queue empty;
// after Shutdown and after Close, writes are refused; Close cancels what is queued with
// ECANCELED; and the reader gets the bytes of every write that succeeded, in order, then at
// most a part of the first one that did not.
func FuzzStreamWriteQueue(f *testing.F) {
	f.Add([]byte{0, 10, 0, 200, 2, 5, 1, 0, 40, 3, 4, 0, 7, 6})
	f.Add([]byte{0, 255, 0, 255, 0, 255, 3, 0, 255, 4, 2, 9, 5, 7})
	f.Add([]byte{2, 1, 0, 0, 0, 3, 1, 20, 6, 0, 8, 3, 3})
	f.Add([]byte("write, try, stop, start, shutdown, close"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 200 {
			return
		}
		fuzzWriteQueue(t, data)
	})
}

// TestStreamWriteQueueRandom runs the fuzz body on pseudo-random inputs, so that plain go
// test covers it.
func TestStreamWriteQueueRandom(t *testing.T) {
	x := uint32(2463534242)
	for range 200 {
		fuzzWriteQueue(t, xorshiftBytes(&x, 40))
	}
}

// xorshiftBytes returns n pseudo-random bytes from the xorshift32 state x, which it advances:
// the same inputs on every run, for the fuzz bodies' plain tests.
func xorshiftBytes(x *uint32, n int) []byte {
	data := make([]byte, n)
	for i := range data {
		*x ^= *x << 13
		*x ^= *x >> 17
		*x ^= *x << 5
		data[i] = byte(*x)
	}
	return data
}

type wqChunk struct {
	id   int // -1: bytes TryWrite wrote
	data []byte
	done bool
	err  error
}

func fuzzWriteQueue(t *testing.T, data []byte) {
	in := &fuzzBytes{data: data}
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	a, b := rawSocketpair(t)
	for _, fd := range []int{a, b} {
		unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF, 4096)
		unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUF, 4096)
	}
	w, err := l.NewPipe()
	if err != nil {
		t.Fatal(err)
	}
	r, err := l.NewPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Open(a); err != nil {
		t.Fatal(err)
	}
	if err := r.Open(b); err != nil {
		t.Fatal(err)
	}

	var (
		chunks    []*wqChunk // everything written or queued, in stream order
		calls     []int      // write ids in callback order
		inWrite   bool
		received  []byte
		readErr   error
		reading   bool
		shutdown  bool
		closed    bool
		nextID    int
		drains    int
		readerEOF bool
	)
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("input %x: "+format, append([]any{data}, args...)...)
	}
	onRead := func(p []byte, err error) {
		if err != nil {
			readErr = err
			if errors.Is(err, io.EOF) {
				readerEOF = true
			}
			r.Close(nil)
			return
		}
		received = append(received, p...)
	}
	pending := func() int {
		n := 0
		for _, c := range chunks {
			if c.id >= 0 && !c.done {
				n++
			}
		}
		return n
	}
	w.OnDrain(func() {
		drains++
		if w.WriteQueueSize() != 0 {
			fail("drain callback with %d bytes queued", w.WriteQueueSize())
		}
	})
	newWrite := func(n int) (*wqChunk, func(error)) {
		c := &wqChunk{id: nextID, data: make([]byte, n)}
		nextID++
		for i := range c.data {
			c.data[i] = byte(c.id*31 + i)
		}
		return c, func(err error) {
			if inWrite {
				fail("write %d: callback ran inside Write", c.id)
			}
			if c.done {
				fail("write %d: callback ran twice", c.id)
			}
			c.done, c.err = true, err
			calls = append(calls, c.id)
		}
	}
	checkQueue := func() {
		if closed {
			return
		}
		if q := w.WriteQueueSize(); q != 0 && pending() == 0 {
			fail("WriteQueueSize %d with %d writes pending", q, pending())
		}
	}
	size := func() int {
		switch in.next() % 4 {
		case 0:
			return 0
		case 1:
			return in.next() % 64
		default:
			return in.next() * 97 // up to ~25 KB: more than the socket takes
		}
	}

	for in.more() {
		op := in.next() % 10
		switch {
		case op <= 2 && !closed: // Write or Writev
			c, cb := newWrite(size())
			inWrite = true
			if op == 2 && len(c.data) > 2 {
				k := len(c.data) / 3
				err = w.Writev([][]byte{c.data[:k], c.data[k : 2*k], c.data[2*k:]}, cb)
			} else {
				err = w.Write(c.data, cb)
			}
			inWrite = false
			switch {
			case shutdown:
				if err == nil {
					fail("Write after Shutdown succeeded")
				}
			case err != nil:
				fail("Write: %v", err)
			default:
				chunks = append(chunks, c)
			}
		case op == 3 && !closed: // TryWrite
			p := make([]byte, size())
			for i := range p {
				p[i] = byte(200 + i)
			}
			queued := w.WriteQueueSize() > 0 // as uv_try_write: bytes queued, not callbacks pending
			n, err := w.TryWrite(p)
			switch {
			case shutdown:
				if err == nil && len(p) > 0 {
					fail("TryWrite after Shutdown wrote %d bytes", n)
				}
			case queued && n > 0:
				fail("TryWrite wrote %d bytes with writes queued", n)
			case err != nil && !errors.Is(err, syscall.EAGAIN):
				fail("TryWrite: %v", err)
			}
			if n > 0 && !shutdown {
				chunks = append(chunks, &wqChunk{id: -1, data: p[:n], done: true})
			}
		case op == 4 && !readerEOF: // the reader stops or starts
			if reading {
				r.ReadStop()
			} else if err := r.ReadStart(onRead); err != nil {
				fail("ReadStart: %v", err)
			}
			reading = !reading
		case op == 5 && !closed && !shutdown: // Shutdown
			shutdown = true
			if err := w.Shutdown(nil); err != nil {
				fail("Shutdown: %v", err)
			}
		case op == 6 && !closed && in.next()%3 == 0: // Close with what is queued
			closed = true
			w.Close(nil)
		default: // turns of the loop
			for i := in.next() % 3; i >= 0; i-- {
				if _, err := l.Run(uvloop.RunNoWait); err != nil {
					fail("Run: %v", err)
				}
			}
		}
		checkQueue()
	}

	// The end: the reader reads to the end; the writer (if open) writes its queue, shuts
	// down and closes.
	if !reading && !readerEOF {
		if err := r.ReadStart(onRead); err != nil {
			fail("final ReadStart: %v", err)
		}
	}
	if !closed {
		for pending() > 0 {
			if _, err := l.Run(uvloop.RunOnce); err != nil {
				fail("Run: %v", err)
			}
		}
		if !shutdown {
			if err := w.Shutdown(nil); err != nil {
				fail("final Shutdown: %v", err)
			}
		}
		w.Close(nil)
	}
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		fail("Run: %v", err)
	}
	if err := l.Close(); err != nil {
		fail("Close: %v", err)
	}
	if !readerEOF {
		fail("the reader ended with %v, not EOF", readErr)
	}

	// Callbacks: once each, in order; successes first, then cancellations.
	var want []int
	var stream []byte
	failed := false
	var partial []byte
	for _, c := range chunks {
		if c.id < 0 {
			if !failed {
				stream = append(stream, c.data...)
			}
			continue
		}
		want = append(want, c.id)
		if !c.done {
			fail("write %d: no callback", c.id)
		}
		switch {
		case c.err == nil && failed:
			fail("write %d succeeded after a write that failed", c.id)
		case c.err == nil:
			stream = append(stream, c.data...)
		case !errors.Is(c.err, syscall.ECANCELED):
			fail("write %d: %v, want ECANCELED", c.id, c.err)
		default:
			if !failed {
				partial = c.data
			}
			failed = true
		}
	}
	if fmt.Sprint(calls) != fmt.Sprint(want) {
		fail("callbacks ran in the order %v, want %v", calls, want)
	}
	if !bytes.HasPrefix(received, stream) {
		fail("received %d bytes that are not the %d bytes of the writes that succeeded", len(received), len(stream))
	}
	if rest := received[len(stream):]; !bytes.HasPrefix(partial, rest) {
		fail("after the writes that succeeded, %d more bytes that are not a part of the first canceled write", len(rest))
	}
}

type fuzzBytes struct {
	data []byte
	i    int
}

func (b *fuzzBytes) next() int {
	if b.i >= len(b.data) {
		return 0
	}
	b.i++
	return int(b.data[b.i-1])
}

func (b *fuzzBytes) more() bool { return b.i < len(b.data) }
