package uvloop_test

import (
	"errors"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test/test-poll.c, test-poll-close.c and test-poll-multiple-handles.c.

const (
	pollPairs    = 5       // libuv: 5 clients, so 10 connections
	pollTransfer = 1 << 16 // bytes each side sends
)

// pollConn is one end of a socket pair driven by a poll handle, as libuv's connection context.
type pollConn struct {
	t       *testing.T
	rng     *rand.Rand
	fd      int
	poll    *uvloop.Poll
	timer   *uvloop.Timer // re-enables events that a callback paused
	stats   *pollStats    // shared by all connections of the test
	sender  bool          // sends pollTransfer bytes (in duplex mode, both ends do)
	want    uvloop.Events // the interest the handle has now
	delayed uvloop.Events // events paused until the timer fires
	open    int           // handles not yet closed
	read    int           // bytes received
	sent    int           // bytes sent
	gotFin  bool          // read the end of the stream
	sentFin bool          // shut down the writing side
	gotHup  bool          // saw Hangup (libuv: UV_DISCONNECT)
}

type pollStats struct {
	duplex       bool
	closed       int // connections whose two handles are closed
	hangups      int
	validWrites  int // writable callbacks whose send went through
	spuriousWake int // writable callbacks whose send found the buffer full
}

func newPollConn(t *testing.T, l *uvloop.Loop, fd int, sender bool, stats *pollStats, seed uint64) *pollConn {
	c := &pollConn{t: t, rng: rand.New(rand.NewPCG(seed, 1)), fd: fd, sender: sender, stats: stats}
	var err error
	c.poll, err = l.NewPoll(fd, c.onEvents)
	mustOK(t, err)
	c.timer = l.NewTimer(c.onTimer)
	c.open = 2
	c.want = uvloop.Readable | uvloop.Writable
	mustOK(t, c.poll.Start(c.want))
	return c
}

// pause stops events for a while; the timer brings them back.
func (c *pollConn) pause(ev uvloop.Events, d time.Duration) {
	if !c.timer.IsActive() {
		c.delayed = ev
		mustOK(c.t, c.timer.Start(d, 0))
	} else {
		c.delayed |= ev
	}
}

func (c *pollConn) onTimer(tm *uvloop.Timer) {
	if tm.IsActive() {
		c.t.Error("a one-shot timer is active in its callback")
	}
	if c.delayed == 0 {
		c.t.Error("the delay timer fired with nothing delayed")
	}
	c.want |= c.delayed
	c.delayed = 0
	mustOK(c.t, c.poll.Start(c.want))
}

// onEvents is libuv's connection_poll_cb in uvgo's terms: it reads and writes in random
// ways (a little, until EAGAIN, nothing, pause for a while, or flip the interest and back),
// shuts down its writing side when it has sent everything, and closes the connection once it
// has read the end of the stream, shut down, and seen the hangup.
func (c *pollConn) onEvents(p *uvloop.Poll, ev uvloop.Events, err error) {
	t := c.t
	if err != nil {
		t.Fatalf("poll callback error: %v (events %v)", err, ev)
	}
	// libuv reports UV_DISCONNECT only to those who ask; uvgo reports Hangup without asking,
	// level-triggered, so after the peer's half-close a callback may carry Hangup alone.
	if ev&(c.want|uvloop.Hangup) == 0 {
		t.Errorf("callback with %v while waiting for %v", ev, c.want)
	}
	if extra := ev &^ (c.want | uvloop.Hangup | uvloop.Error); extra != 0 {
		t.Errorf("callback with %v, which was not asked for", extra)
	}
	next := c.want

	if ev&uvloop.Readable != 0 {
		switch c.rng.IntN(7) {
		case 0, 1: // read a little
			var buf [74]byte
			n, err := unix.Read(c.fd, buf[:])
			switch {
			case errors.Is(err, unix.EAGAIN):
			case err != nil:
				t.Fatalf("read: %v", err)
			case n == 0:
				c.gotFin = true
			default:
				c.read += n
			}
		case 2, 3: // read until EAGAIN or the end
			var buf [931]byte
			for {
				n, err := unix.Read(c.fd, buf[:])
				if errors.Is(err, unix.EAGAIN) {
					break
				}
				if err != nil {
					t.Fatalf("read: %v", err)
				}
				if n == 0 {
					c.gotFin = true
					break
				}
				c.read += n
			}
		case 4: // ignore it; level-triggered, it comes back
		case 5: // stop reading for a while
			next &^= uvloop.Readable
			c.pause(uvloop.Readable, time.Millisecond) // libuv: 10ms
		case 6: // flip the interest to writable and back; uvgo applies only the last
			mustOK(t, p.Start(uvloop.Writable))
			mustOK(t, p.Start(uvloop.Readable))
			c.want = uvloop.Readable
		}
		// libuv stops reading at the end of the stream and watches for UV_DISCONNECT; uvgo has
		// no interest bit for Hangup, so reading goes on until the hangup has been seen.
		if c.gotFin && c.gotHup {
			next &^= uvloop.Readable
		}
	}

	if ev&uvloop.Writable != 0 {
		if c.sender && c.sent < pollTransfer {
			switch c.rng.IntN(7) {
			case 0, 1: // send a little
				c.send(103, false)
			case 2, 3: // send until EAGAIN
				c.send(1234, true)
			case 4: // ignore it
			case 5: // stop writing for a while
				next &^= uvloop.Writable
				c.pause(uvloop.Writable, 5*time.Millisecond) // libuv: 100ms
			case 6: // flip the interest to readable and back
				mustOK(t, p.Start(uvloop.Readable))
				mustOK(t, p.Start(uvloop.Writable))
				c.want = uvloop.Writable
			}
		} else if !c.sentFin { // all sent: send the end of the stream
			mustOK(t, unix.Shutdown(c.fd, unix.SHUT_WR))
			c.sentFin = true
			next &^= uvloop.Writable
		}
	}

	if ev&uvloop.Hangup != 0 && !c.gotHup {
		c.gotHup = true
		c.stats.hangups++
		if c.gotFin {
			next &^= uvloop.Readable
		}
	}

	if c.gotFin && c.sentFin && c.gotHup {
		// Unlike libuv, which closes the socket first, uvgo wants the handle closed before
		// the fd: Close takes the fd out of the poller.
		mustOK(t, p.Close(c.closed))
		mustOK(t, c.timer.Close(c.closed))
		mustOK(t, unix.Close(c.fd))
		c.want = 0
	} else if next != c.want {
		c.want = next
		mustOK(t, p.Start(next))
	}

	if active := p.IsActive(); active != (c.want != 0) {
		t.Errorf("poll handle active %v with interest %v", active, c.want)
	}
}

// send writes up to chunk bytes, and with all, goes on until EAGAIN or the end.
func (c *pollConn) send(chunk int, all bool) {
	buf := make([]byte, chunk)
	first := true
	for c.sent < pollTransfer {
		n, err := unix.Write(c.fd, buf[:min(chunk, pollTransfer-c.sent)])
		if errors.Is(err, unix.EAGAIN) {
			if first {
				c.stats.spuriousWake++
			}
			return
		}
		if err != nil {
			c.t.Fatalf("write: %v", err)
		}
		if first {
			c.stats.validWrites++
			first = false
		}
		c.sent += n
		if !all {
			return
		}
	}
}

// closed is the close callback of both handles; the second checks the byte counts.
func (c *pollConn) closed() {
	if c.open--; c.open > 0 {
		return
	}
	wantRead, wantSent := 0, 0
	if c.stats.duplex || !c.sender {
		wantRead = pollTransfer
	}
	if c.sender {
		wantSent = pollTransfer
	}
	if c.read != wantRead || c.sent != wantSent {
		c.t.Errorf("connection read %d and sent %d bytes; want %d and %d", c.read, c.sent, wantRead, wantSent)
	}
	c.stats.closed++
}

func testPollTransfer(t *testing.T, duplex bool) {
	l := newLoop(t)
	stats := &pollStats{duplex: duplex}
	for i := range pollPairs {
		a, b := rawSocketpair(t) // each connection closes its own end
		for _, fd := range []int{a, b} {
			// Small buffers, so that 64 KiB take many callbacks and sends find them full.
			mustOK(t, unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF, 8192))
		}
		newPollConn(t, l, a, true, stats, uint64(2*i))
		newPollConn(t, l, b, duplex, stats, uint64(2*i+1))
	}
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after every connection closed")
	}
	// At most one writable callback in twenty may find the buffer full.
	if w, s := stats.validWrites, stats.spuriousWake; s != 0 && (w+s)/s <= 20 {
		t.Errorf("%d of %d writable callbacks were spurious", s, w+s)
	}
	if stats.closed != 2*pollPairs || stats.hangups != 2*pollPairs {
		t.Errorf("%d connections closed, %d hangups; want %d each", stats.closed, stats.hangups, 2*pollPairs)
	}
	t.Logf("%d writable callbacks sent, %d found the buffer full", stats.validWrites, stats.spuriousWake)
	closeLoop(t, l)
}

// TestPollDuplex ports libuv's "poll_duplex" over socket pairs instead of TCP connections:
// both ends of each pair send 64 KiB while reading the other's, through poll handles whose
// callbacks read and write in random ways and pause with timers; every callback gets only
// events that were asked for (plus Hangup and Error, which need no asking), the handle is
// active exactly while it has interest, few writable callbacks are spurious, and every end
// sees the hangup and gets all the bytes.
func TestPollDuplex(t *testing.T) { testPollTransfer(t, true) }

// TestPollUnidirectional ports libuv's "poll_unidirectional": as TestPollDuplex, but only
// one end of each pair sends.
func TestPollUnidirectional(t *testing.T) { testPollTransfer(t, false) }

// TestPollClose ports libuv's "poll_close": 64 poll handles started on fresh sockets and
// closed before the loop runs all get their close callback. (libuv allows a nil callback;
// uvgo requires one, so a callback that must not run stands in.)
func TestPollClose(t *testing.T) {
	const sockets = 64
	l := newLoop(t)
	var handles []*uvloop.Poll
	for range sockets {
		fd := newTCPSocket(t)
		t.Cleanup(func() { unix.Close(fd) })
		p, err := l.NewPoll(fd, func(*uvloop.Poll, uvloop.Events, error) { t.Error("a closed poll handle ran") })
		mustOK(t, err)
		mustOK(t, p.Start(uvloop.Readable|uvloop.Writable))
		handles = append(handles, p)
	}
	closes := 0
	for _, p := range handles {
		closeHandle(t, p, &closes)
	}
	mustRunMode(t, l, uvloop.RunDefault)
	if closes != sockets {
		t.Errorf("%d close callbacks, want %d", closes, sockets)
	}
	closeLoop(t, l)
}

// TestPollMultipleHandles ports libuv's "poll_multiple_handles". libuv lets two handles be
// created for one socket and refuses (EEXIST) to start the second while the first is active.
// uvgo binds the fd at NewPoll: a second handle for a watched fd fails with ErrFdInUse, also
// while the first is stopped, until the first is closed. The rest follows libuv: closing a
// stopped handle is fine, an unref'd active handle does not keep the loop alive, and after
// Ref it is still active and can be closed.
func TestPollMultipleHandles(t *testing.T) {
	l := newLoop(t)
	fd := newTCPSocket(t)
	defer unix.Close(fd)
	cb := func(_ *uvloop.Poll, ev uvloop.Events, err error) {
		// An unconnected socket: Linux reports it readable (and hung up) at once, other
		// systems do not report it.
		if err != nil || ev&uvloop.Readable == 0 {
			t.Errorf("poll callback: %v, %v", ev, err)
		}
	}
	first, err := l.NewPoll(fd, cb)
	mustOK(t, err)
	mustOK(t, first.Start(uvloop.Readable))

	if _, err := l.NewPoll(fd, cb); !errors.Is(err, uvloop.ErrFdInUse) {
		t.Fatalf("second handle on an active fd: %v, want ErrFdInUse", err)
	}
	mustOK(t, first.Stop())
	if _, err := l.NewPoll(fd, cb); !errors.Is(err, uvloop.ErrFdInUse) {
		t.Fatalf("second handle on a stopped handle's fd: %v, want ErrFdInUse", err)
	}
	closes := 0
	closeHandle(t, first, &closes) // closing a stopped handle is fine
	second, err := l.NewPoll(fd, cb)
	mustOK(t, err)
	mustOK(t, second.Start(uvloop.Readable))

	second.Unref()
	mustRunMode(t, l, uvloop.RunDefault)
	if closes != 1 {
		t.Errorf("%d close callbacks, want 1", closes)
	}
	second.Ref()
	if !second.IsActive() {
		t.Error("the second handle is not active")
	}
	closeHandle(t, second, &closes)
	mustRunMode(t, l, uvloop.RunDefault)
	if closes != 2 {
		t.Errorf("%d close callbacks, want 2", closes)
	}
	closeLoop(t, l)
}

// TestPollClosedFd has no libuv counterpart: a poll handle for an fd that is not open
// learns it in the poll phase (uvgo hands interest to the poller just before it waits), as a
// callback with Error and an error wrapping EBADF, after which the handle is stopped.
func TestPollClosedFd(t *testing.T) {
	l := newLoop(t)
	fd := closedFd(t)
	calls := 0
	p, err := l.NewPoll(fd, func(p *uvloop.Poll, ev uvloop.Events, err error) {
		calls++
		if ev&uvloop.Error == 0 || !errors.Is(err, syscall.EBADF) {
			t.Errorf("callback with %v, %v; want Error and EBADF", ev, err)
		}
		if p.IsActive() {
			t.Error("the handle is still active after the error")
		}
	})
	mustOK(t, err)
	mustOK(t, p.Start(uvloop.Readable))
	if calls != 0 {
		t.Fatal("the error was reported inside Start")
	}
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after the handle stopped")
	}
	if calls != 1 {
		t.Errorf("%d callbacks, want 1", calls)
	}
	closeLoop(t, l)
}

// newTCPSocket returns a fresh, unconnected, non-blocking, close-on-exec TCP socket.
func newTCPSocket(t *testing.T) int {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	mustOK(t, err)
	unix.CloseOnExec(fd)
	mustOK(t, unix.SetNonblock(fd, true))
	return fd
}

// closedFd returns an fd number that is not open, above those the process uses, so that
// nothing reuses it while the test runs.
func closedFd(t *testing.T) int {
	t.Helper()
	for fd := 900; fd < 1000; fd++ {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); errors.Is(err, unix.EBADF) {
			return fd
		}
	}
	t.Skip("no free fd number between 900 and 999")
	return -1
}

// TestPollCloseInBatch has no libuv counterpart: two readable sockets are reported in one
// poll phase; whichever callback runs first closes the other handle and watches that fd with
// a new handle. The closed handle is not called, and the new one does not get the event that
// was collected for the old one: it is called in the next iteration.
func TestPollCloseInBatch(t *testing.T) {
	l := newLoop(t)
	var fds [2]int
	for i := range fds {
		a, b := newSocketpair(t)
		if _, err := unix.Write(b, []byte("x")); err != nil {
			t.Fatal(err)
		}
		fds[i] = a
	}
	var polls [2]*uvloop.Poll
	first, replacementCalls := -1, 0
	for i := range polls {
		var err error
		polls[i], err = l.NewPoll(fds[i], func(h *uvloop.Poll, _ uvloop.Events, _ error) {
			if first >= 0 {
				t.Errorf("handle %d was called after handle %d closed it", i, first)
				return
			}
			first = i
			other := 1 - i
			mustOK(t, polls[other].Close(nil))
			p, err := l.NewPoll(fds[other], func(r *uvloop.Poll, _ uvloop.Events, _ error) {
				replacementCalls++
				mustOK(t, r.Close(nil))
			})
			mustOK(t, err)
			mustOK(t, p.Start(uvloop.Readable))
			mustOK(t, h.Close(nil))
		})
		mustOK(t, err)
		mustOK(t, polls[i].Start(uvloop.Readable))
	}
	mustRunMode(t, l, uvloop.RunNoWait)
	if first < 0 || replacementCalls != 0 {
		t.Fatalf("after one iteration: first handle %d, replacement called %d times; want one handle, 0",
			first, replacementCalls)
	}
	mustRunMode(t, l, uvloop.RunDefault)
	if replacementCalls != 1 {
		t.Errorf("replacement called %d times, want 1", replacementCalls)
	}
	closeLoop(t, l)
}
