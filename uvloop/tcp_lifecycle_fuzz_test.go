package uvloop_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/uvloop"
)

// FuzzTCPLifecycle drives both ends of one TCP connection, on one loop, with random
// operations in any state, the connect still in flight included: Write and Writev of random
// sizes, TryWrite, ReadStart and ReadStop, Shutdown, Close and CloseReset with writes
// queued, NoDelay and keep-alive, Ref and Unref, closing the listener before or after the
// accept, and loop turns. Each input runs in one of looptest.Modes, with tiny or small
// socket buffers (lcBufs; its first byte picks both). It checks what libuv promises whatever the order: each write's callback runs once, in write
// order, never inside Write, and only successes before the first failure; a failure is
// ECANCELED from the writer's Close or the peer's end (EPIPE, ECONNRESET), never one without a
// cause; no read callback after Close; each end receives a prefix of what the other wrote,
// all of it when neither end was closed early; close callbacks run once; and at the end the
// loop closes clean with no fd left open.
func FuzzTCPLifecycle(f *testing.F) {
	f.Add([]byte{1, 0, 10, 0, 200, 2, 5, 1, 0, 40, 3, 4, 0, 7, 6, 11, 11})
	f.Add([]byte{0, 4, 0, 4, 1, 0, 1, 255, 0, 5, 0, 5, 1, 11, 11, 11, 6, 0, 0})
	f.Add([]byte{3, 6, 1, 0, 0, 0, 1, 2, 200, 7, 0, 0, 11, 10, 11})
	f.Add([]byte("connect, write, shutdown, reset, close"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 || len(data) > 300 {
			return
		}
		m := looptest.Modes[int(data[0])%len(looptest.Modes)]
		tcpLifecycle(t, m, lcBufs[int(data[0])/len(looptest.Modes)%len(lcBufs)], data[1:])
	})
}

// lcBuffers are the socket buffer sizes of both ends (0: the kernel's default).
type lcBuffers struct{ snd, rcv int }

// lcBufs are the fuzz body's buffer profiles. Tiny buffers close the peer's window (a send
// waits for room, and TCP's zero-window probes make such an input take a few hundred
// milliseconds); they also bring out the kernel's quirks with a 4 KiB send buffer (see
// poller's awaitSend): a send that a close cannot end. Small receive buffers only make
// writes go out in parts.
var lcBufs = []lcBuffers{{4096, 4096}, {0, 16384}}

// TestTCPLifecycleRandom runs the fuzz body on pseudo-random inputs in every mode, with small
// receive buffers, so that plain go test covers it. (The fuzz target's seeds hold inputs
// with tiny buffers.)
func TestTCPLifecycleRandom(t *testing.T) {
	for _, m := range looptest.Modes {
		t.Run(m.Name, func(t *testing.T) {
			x := uint32(2463534242)
			for range 44 {
				if !tcpLifecycle(t, m, lcBufs[1], xorshiftBytes(&x, 48)) {
					t.Skipf("%s: the backend is not available here", m.Name)
				}
			}
		})
	}
}

// lcEnd is one end of the connection and what the fuzz body saw of it.
type lcEnd struct {
	name      string
	tcp       *uvloop.TCP // nil for the server's end until it is accepted
	writes    []*wqChunk  // in stream order; id -1: bytes TryWrite wrote
	calls     []int       // write ids in callback order
	received  []byte
	reading   bool
	readEnd   error // EOF or the read error, once it came
	shutdown  bool  // Shutdown was accepted
	shutTried bool  // the end's final Shutdown was tried
	shutCalls int
	shutErr   error
	closed    bool // Close or CloseReset was called
	reset     bool // it was CloseReset
	closeCbs  int
	lowBufs   bool // its socket buffers were made small
}

func (e *lcEnd) String() string {
	if e.tcp == nil {
		return e.name + ": not accepted"
	}
	return fmt.Sprintf("%s: %d writes, %d callbacks, %d bytes received, reading %v, read end %v, "+
		"shutdown %v (%d callbacks, %v), closed %v (reset %v, %d callbacks), queue %d",
		e.name, len(e.writes), len(e.calls), len(e.received), e.reading, e.readEnd,
		e.shutdown, e.shutCalls, e.shutErr, e.closed, e.reset, e.closeCbs, e.tcp.WriteQueueSize())
}

// tcpLifecycle runs one input in mode m, the ends' socket buffers bufs. It reports false,
// having done nothing, when the system lacks m's backend.
func tcpLifecycle(t *testing.T, m looptest.Mode, bufs lcBuffers, data []byte) bool {
	in := &fuzzBytes{data: data}
	before := openFds(t)
	l, ok := m.New(t)
	if !ok {
		return false
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s, buffers %+v, input %x: "+format, append([]any{m.Name, bufs, data}, args...)...)
	}
	// Callbacks may run on the loop's own thread: they note a fault, and the test's
	// goroutine fails with it after the turn.
	var faults []string
	note := func(format string, args ...any) { faults = append(faults, fmt.Sprintf(format, args...)) }
	check := func(what string, err error) {
		t.Helper()
		if err != nil {
			fail("%s: %v", what, err)
		}
	}
	var ends [2]*lcEnd
	client := &lcEnd{name: "client"}
	server := &lcEnd{name: "server"}
	ends[0], ends[1] = client, server
	peer := func(e *lcEnd) *lcEnd {
		if e == client {
			return server
		}
		return client
	}

	// The listener and the connect. The server's end appears when the accept runs.
	ln, err := l.NewTCP()
	check("NewTCP", err)
	check("Bind", ln.Bind(loopback, 0))
	lnClosed, lnCloseCbs := false, 0
	acceptErrs := 0
	check("Listen", ln.Listen(8, func(err error) {
		if err != nil {
			acceptErrs++
			return
		}
		if server.tcp != nil {
			note("a second connection on the listener")
			return
		}
		s, err := l.NewTCP()
		if err == nil {
			err = ln.Accept(s)
		}
		if err != nil {
			note("accepting: %v", err)
			return
		}
		server.tcp = s
	}))
	addr, err := ln.LocalAddr()
	check("LocalAddr", err)
	c, err := l.NewTCP()
	check("NewTCP (client)", err)
	client.tcp = c
	connectCalls := 0
	var connectErr error
	check("Connect", c.Connect(addr, func(err error) { connectCalls++; connectErr = err }))
	// (lost tells an end's data may be cut short: the peer closed, reset or never came.)
	lost := func(e *lcEnd) bool {
		p := peer(e)
		return e.closed || p.closed || (e == client && server.tcp == nil && lnClosed)
	}

	readCb := func(e *lcEnd) func([]byte, error) {
		return func(p []byte, err error) {
			if e.closed {
				note("%s: a read callback after Close (%d bytes, %v)", e.name, len(p), err)
			}
			// (After EOF a ReadStart reads again, as in libuv 1.46: EOF again, or the
			// error a reset left; never bytes. After an error, ReadStart is refused.)
			if e.readEnd != nil && (len(p) > 0 || !errors.Is(e.readEnd, io.EOF)) {
				note("%s: a read callback after the end (%v), with %d bytes, %v", e.name, e.readEnd, len(p), err)
			}
			if err != nil {
				if e.readEnd == nil || !errors.Is(err, io.EOF) {
					e.readEnd = err
				}
				e.reading = false
				return
			}
			e.received = append(e.received, p...)
		}
	}
	inWrite := false
	newWrite := func(e *lcEnd, n int) (*wqChunk, func(error)) {
		ch := &wqChunk{id: len(e.writes), data: make([]byte, n)}
		for i := range ch.data {
			ch.data[i] = byte(ch.id*31 + i)
		}
		return ch, func(err error) {
			if inWrite {
				note("%s: write %d: callback ran inside Write", e.name, ch.id)
			}
			if ch.done {
				note("%s: write %d: callback ran twice", e.name, ch.id)
			}
			ch.done, ch.err = true, err
			e.calls = append(e.calls, ch.id)
		}
	}
	size := func() int {
		switch in.next() % 4 {
		case 0:
			return 0
		case 1:
			return in.next() % 64
		default:
			return in.next() * 131 // up to ~33 KB: more than a small socket buffer takes
		}
	}
	smallBufs := func(e *lcEnd) {
		if e.lowBufs || e.tcp == nil || e.closed || e.tcp.Fd() < 0 {
			return
		}
		e.lowBufs = true
		if bufs.snd > 0 {
			unix.SetsockoptInt(e.tcp.Fd(), unix.SOL_SOCKET, unix.SO_SNDBUF, bufs.snd)
		}
		unix.SetsockoptInt(e.tcp.Fd(), unix.SOL_SOCKET, unix.SO_RCVBUF, bufs.rcv)
	}
	// turn runs the loop once without blocking, or once with a short ref'd timer so that a
	// turn always ends.
	turn := func(wait bool) {
		mode := uvloop.RunNoWait
		if wait {
			tm := l.SetTimeout(func() {}, time.Millisecond)
			defer l.ClearTimeout(tm)
			mode = uvloop.RunOnce
		}
		if _, err := l.Run(mode); err != nil {
			fail("Run: %v", err)
		}
		if len(faults) > 0 {
			fail("%s", faults[0])
		}
	}

	for in.more() {
		e := ends[in.next()%2]
		smallBufs(e)
		usable := e.tcp != nil && !e.closed
		switch op := in.next() % 12; {
		case op <= 1 && usable: // Write or Writev
			ch, cb := newWrite(e, size())
			inWrite = true
			if op == 1 && len(ch.data) > 2 {
				k := len(ch.data) / 3
				err = e.tcp.Writev([][]byte{ch.data[:k], ch.data[k : 2*k], ch.data[2*k:]}, cb)
			} else {
				err = e.tcp.Write(ch.data, cb)
			}
			inWrite = false
			switch {
			case e.shutdown:
				if err == nil {
					fail("%s: Write after Shutdown succeeded", e.name)
				}
			case err == nil:
				e.writes = append(e.writes, ch)
			case !lost(e):
				fail("%s: Write: %v", e.name, err)
			}
		case op == 2 && usable: // TryWrite
			p := make([]byte, size())
			for i := range p {
				p[i] = byte(200 + i)
			}
			queued := e.tcp.WriteQueueSize() > 0
			n, err := e.tcp.TryWrite(p)
			switch {
			case e.shutdown && err == nil && len(p) > 0:
				fail("%s: TryWrite after Shutdown wrote %d bytes", e.name, n)
			case queued && n > 0:
				fail("%s: TryWrite wrote %d bytes with writes queued", e.name, n)
			case err != nil && !errors.Is(err, syscall.EAGAIN) && !e.shutdown && !lost(e) &&
				!errors.Is(err, syscall.ENOTCONN): // (the connect still in flight)
				fail("%s: TryWrite: %v", e.name, err)
			}
			if n > 0 {
				e.writes = append(e.writes, &wqChunk{id: -1, data: p[:n], done: true})
			}
		case op == 3 && usable: // the reader stops or starts
			if e.reading {
				check(e.name+" ReadStop", e.tcp.ReadStop())
				e.reading = false
			} else if err := e.tcp.ReadStart(readCb(e)); err == nil {
				e.reading = true
			} else if e.readEnd == nil && !lost(e) {
				fail("%s: ReadStart: %v", e.name, err)
			}
		case op == 4 && usable && !e.shutdown: // Shutdown
			err := e.tcp.Shutdown(func(err error) { e.shutCalls++; e.shutErr = err })
			if err == nil {
				e.shutdown = true
			} else if !lost(e) {
				fail("%s: Shutdown: %v", e.name, err)
			}
		case op == 5 && usable && in.next()%3 == 0: // Close or CloseReset, writes queued or not
			cb := func() { e.closeCbs++ }
			if in.next()%2 == 0 && !e.shutdown {
				e.reset = true
				check(e.name+" CloseReset", e.tcp.CloseReset(cb))
			} else {
				check(e.name+" Close", e.tcp.Close(cb))
			}
			e.closed = true
		case op == 6 && usable: // options
			if in.next()%2 == 0 {
				err = e.tcp.SetNoDelay(in.next()%2 == 0)
			} else {
				err = e.tcp.SetKeepAlive(in.next()%2 == 0, time.Duration(1+in.next()%30)*time.Second)
			}
			if err != nil && !lost(e) && !errors.Is(err, syscall.EINVAL) {
				fail("%s: an option: %v", e.name, err)
			}
		case op == 7 && usable: // Ref or Unref
			if e.tcp.HasRef() {
				e.tcp.Unref()
			} else {
				e.tcp.Ref()
			}
		case op == 8 && !lnClosed && in.next()%4 == 0: // the listener closes
			lnClosed = true
			check("listener Close", ln.Close(func() { lnCloseCbs++ }))
		default: // turns of the loop
			for i := in.next() % 3; i >= 0; i-- {
				turn(op == 9)
			}
		}
		for _, e := range ends {
			if e.tcp != nil && !e.closed {
				if q := e.tcp.WriteQueueSize(); q < 0 {
					fail("%s: WriteQueueSize %d", e.name, q)
				}
			}
		}
	}

	// The end: each open end reads to the end, writes what it queued and shuts down; then
	// everything closes and the loop runs dry.
	for _, e := range ends {
		if e.tcp != nil && !e.closed {
			e.tcp.Ref()
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	settled := func() bool {
		if connectCalls == 0 || (server.tcp == nil && !lnClosed) {
			return false
		}
		for _, e := range ends {
			if e.tcp == nil || e.closed {
				continue
			}
			if !e.reading && e.readEnd == nil {
				if err := e.tcp.ReadStart(readCb(e)); err == nil {
					e.reading = true
				} else {
					e.readEnd = err // (it cannot read: ENOTCONN after a failed connect)
				}
			}
			if !e.shutdown && !e.shutTried {
				e.shutTried = true
				if err := e.tcp.Shutdown(func(err error) { e.shutCalls++; e.shutErr = err }); err == nil {
					e.shutdown = true
				} else if !lost(e) && connectErr == nil {
					fail("%s: final Shutdown: %v", e.name, err)
				}
			}
		}
		for _, e := range ends {
			if e.tcp != nil && !e.closed && (e.readEnd == nil || (e.shutdown && e.shutCalls == 0)) {
				return false
			}
		}
		return true
	}
	for !settled() {
		if time.Now().After(deadline) {
			fail("not settled in 20 s: connect calls %d (%v); %s; %s", connectCalls, connectErr, client, server)
		}
		turn(true)
	}
	for _, e := range ends {
		if e.tcp != nil && !e.closed {
			check(e.name+" final Close", e.tcp.Close(func() { e.closeCbs++ }))
		}
	}
	if !lnClosed {
		check("listener final Close", ln.Close(func() { lnCloseCbs++ }))
	}
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		fail("Run: %v", err)
	}
	if len(faults) > 0 {
		fail("%s", faults[0])
	}
	if n := l.LostSends(); n > 0 {
		fail("%d sends were still in the kernel after their stream closed", n)
	}
	if err := l.Close(); err != nil {
		fail("loop Close: %v", err)
	}
	if lnCloseCbs != 1 || acceptErrs != 0 || connectCalls != 1 {
		fail("listener close callbacks %d, accept errors %d, connect callbacks %d", lnCloseCbs, acceptErrs, connectCalls)
	}

	for _, e := range ends {
		if e.tcp == nil {
			continue
		}
		p := peer(e)
		if e.closeCbs != 1 {
			fail("%s: %d close callbacks", e.name, e.closeCbs)
		}
		if e.shutdown && e.shutCalls != 1 {
			fail("%s: %d shutdown callbacks", e.name, e.shutCalls)
		}
		// Write callbacks: once each, in order; successes, then failures with a cause.
		var want []int
		var stream, partial []byte
		failed := false
		for _, ch := range e.writes {
			if ch.id < 0 {
				if !failed {
					stream = append(stream, ch.data...)
				}
				continue
			}
			want = append(want, ch.id)
			if !ch.done {
				fail("%s: write %d: no callback", e.name, ch.id)
			}
			switch {
			case ch.err == nil && failed && len(ch.data) > 0:
				// (A write of nothing may succeed on a socket that failed: write(2) of
				// zero bytes.)
				fail("%s: write %d succeeded after a write that failed", e.name, ch.id)
			case ch.err == nil:
				stream = append(stream, ch.data...)
			case errors.Is(ch.err, syscall.ECANCELED) && !e.closed && (e != client || connectErr == nil):
				// (A failed connect cancels the writes queued behind it, as in libuv.)
				fail("%s: write %d: ECANCELED, yet the end was not closed and its connect did not fail", e.name, ch.id)
			case !errors.Is(ch.err, syscall.ECANCELED) && !lost(e) && connectErr == nil:
				fail("%s: write %d: %v, with both ends open", e.name, ch.id, ch.err)
			default:
				if !failed {
					partial = ch.data
				}
				failed = true
			}
		}
		if fmt.Sprint(e.calls) != fmt.Sprint(want) {
			fail("%s: write callbacks ran in the order %v, want %v", e.name, e.calls, want)
		}
		if p.tcp == nil {
			continue
		}
		got := p.received
		if !bytes.HasPrefix(got, stream) && !lost(e) {
			fail("%s received %d bytes that are not the %d bytes %s's writes sent", p.name, len(got), len(stream), e.name)
		}
		if !lost(e) {
			if len(got) != len(stream) || !errors.Is(p.readEnd, io.EOF) {
				fail("%s received %d of the %d bytes %s sent, and ended with %v", p.name, len(got), len(stream), e.name, p.readEnd)
			}
			continue
		}
		// Cut short: whatever came is what was written, in order, up to a point.
		n := min(len(got), len(stream))
		if !bytes.Equal(got[:n], stream[:n]) {
			fail("%s received bytes that differ from %s's writes within the first %d", p.name, e.name, n)
		}
		if rest := got[n:]; len(rest) > 0 && !bytes.HasPrefix(partial, rest) {
			fail("%s received %d bytes more than %s's writes that succeeded, not a part of the first that failed", p.name, len(rest), e.name)
		}
	}

	after := openFds(t)
	for fd, target := range after {
		if before[fd] != target {
			fail("fd %d (%s) left open", fd, target)
		}
	}
	return true
}
