package uvloop_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Poll handles on both backends (review rev8-pollsig): each scenario runs through rev7Diff
// (epoll and io_uring, plain and own thread) and logs what the callbacks saw, iteration by
// iteration; the logs must be the same.

// rev8Poll makes a poll handle for fd that logs each callback into *log as "name ev err".
// The callback runs then, if set, on the handle.
func rev8Poll(t *testing.T, l *uvloop.Loop, fd int, name string, log *[]string, then func(p *uvloop.Poll, ev uvloop.Events)) *uvloop.Poll {
	t.Helper()
	p, err := l.NewPoll(fd, func(p *uvloop.Poll, ev uvloop.Events, err error) {
		*log = append(*log, fmt.Sprintf("%s %v %s", name, ev, ringWriteErr(err)))
		if then != nil {
			then(p, ev)
		}
	})
	mustOK(t, err)
	return p
}

// rev8Iter runs one RunNoWait and logs its number and whether the loop is alive.
func rev8Iter(t *testing.T, l *uvloop.Loop, log *[]string, i int) {
	t.Helper()
	alive := mustRunMode(t, l, uvloop.RunNoWait)
	*log = append(*log, fmt.Sprintf("iteration %d alive %v", i, alive))
}

// TestRev8PollMasksDiff: Start with one mask, then another while armed (Readable, then
// Readable|Writable, then Writable), from outside and inside the callback: each iteration
// reports what the current mask asks for, once (level-triggered, no spin).
func TestRev8PollMasksDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, b := newSocketpair(t)
		var log []string
		n := 0
		p := rev8Poll(t, l, a, "poll", &log, func(p *uvloop.Poll, ev uvloop.Events) {
			n++
			switch n {
			case 3:
				mustOK(t, p.Start(uvloop.Readable|uvloop.Writable))
			case 4:
				mustOK(t, p.Start(uvloop.Writable))
			}
		})
		mustOK(t, p.Start(uvloop.Readable))
		rev8Iter(t, l, &log, 0) // nothing to read
		_, err := unix.Write(b, []byte("x"))
		mustOK(t, err)
		rev8Iter(t, l, &log, 1)
		rev8Iter(t, l, &log, 2)
		mustOK(t, p.Start(uvloop.Writable)) // armed: replaced
		rev8Iter(t, l, &log, 3)
		mustOK(t, p.Start(uvloop.Readable))
		rev8Iter(t, l, &log, 4) // n == 3: Readable|Writable from here
		rev8Iter(t, l, &log, 5) // n == 4: Writable from here
		rev8Iter(t, l, &log, 6)
		mustOK(t, p.Start(uvloop.Readable))
		var buf [8]byte
		_, err = unix.Read(a, buf[:])
		mustOK(t, err)
		rev8Iter(t, l, &log, 7) // read dry: nothing
		mustOK(t, p.Close(nil))
		return log
	})
}

// TestRev8PollStopStartInCallbackDiff: Stop then Start in the callback, Stop alone, and
// Start(0): one callback per iteration while readable, none after a Stop, and the loop is
// not alive once the only handle stopped.
func TestRev8PollStopStartInCallbackDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, b := newSocketpair(t)
		_, err := unix.Write(b, []byte("x"))
		mustOK(t, err)
		var log []string
		n := 0
		p := rev8Poll(t, l, a, "poll", &log, func(p *uvloop.Poll, ev uvloop.Events) {
			n++
			switch n {
			case 1, 2:
				mustOK(t, p.Stop())
				mustOK(t, p.Start(uvloop.Readable))
			case 3:
				mustOK(t, p.Stop())
			case 4:
				mustOK(t, p.Start(0))
			}
		})
		mustOK(t, p.Start(uvloop.Readable))
		for i := range 3 {
			rev8Iter(t, l, &log, i)
		}
		rev8Iter(t, l, &log, 3) // stopped: nothing
		mustOK(t, p.Start(uvloop.Readable))
		rev8Iter(t, l, &log, 4)
		rev8Iter(t, l, &log, 5)
		log = append(log, fmt.Sprintf("active %v", p.IsActive()))
		mustOK(t, p.Close(nil))
		return log
	})
}

// TestRev8PollRunOnceDiff: RunOnce with a readable fd runs one iteration and one callback;
// with the fd read dry inside the callback, the next RunOnce blocks until the peer writes
// again (from a timer) and then reports it once.
func TestRev8PollRunOnceDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, b := newSocketpair(t)
		var log []string
		p := rev8Poll(t, l, a, "poll", &log, func(p *uvloop.Poll, ev uvloop.Events) {
			var buf [8]byte
			n, _ := unix.Read(a, buf[:])
			log = append(log, fmt.Sprintf("read %d", n))
		})
		mustOK(t, p.Start(uvloop.Readable))
		_, err := unix.Write(b, []byte("xy"))
		mustOK(t, err)
		for i := range 3 {
			if i == 1 {
				tm := l.NewTimer(func(tm *uvloop.Timer) {
					log = append(log, "timer")
					unix.Write(b, []byte("z"))
					tm.Close(nil)
				})
				mustOK(t, tm.Start(1, 0))
			}
			alive := mustRunMode(t, l, uvloop.RunOnce)
			log = append(log, fmt.Sprintf("once %d alive %v", i, alive))
		}
		mustOK(t, p.Close(nil))
		return log
	})
}

// TestRev8PollCloseInBatchDiff: two readable fds in one batch; the first callback closes
// the other handle and watches its fd with a new handle, which hears of it in the next
// iteration only.
func TestRev8PollCloseInBatchDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var fds [2]int
		for i := range fds {
			a, b := newSocketpair(t)
			_, err := unix.Write(b, []byte("x"))
			mustOK(t, err)
			fds[i] = a
		}
		var log []string
		var polls [2]*uvloop.Poll
		first := true
		for i := range polls {
			polls[i] = rev8Poll(t, l, fds[i], "poll", &log, func(h *uvloop.Poll, ev uvloop.Events) {
				if !first {
					return
				}
				first = false
				other := polls[1-h2i(polls, h)]
				mustOK(t, other.Close(func() { log = append(log, "closed") }))
				r := rev8Poll(t, l, other.Fd(), "new", &log, func(r *uvloop.Poll, _ uvloop.Events) {
					mustOK(t, r.Close(nil))
				})
				mustOK(t, r.Start(uvloop.Readable))
				mustOK(t, h.Close(nil))
			})
			mustOK(t, polls[i].Start(uvloop.Readable))
		}
		rev8Iter(t, l, &log, 0)
		rev8Iter(t, l, &log, 1)
		rev8Iter(t, l, &log, 2)
		return log
	})
}

func h2i(polls [2]*uvloop.Poll, h *uvloop.Poll) int {
	if polls[0] == h {
		return 0
	}
	return 1
}

// TestRev8PollTwoOnOneFdDiff: a second handle for a watched fd fails with ErrFdInUse at
// NewPoll, and the first goes on as before.
func TestRev8PollTwoOnOneFdDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, b := newSocketpair(t)
		var log []string
		p := rev8Poll(t, l, a, "first", &log, nil)
		mustOK(t, p.Start(uvloop.Readable))
		rev8Iter(t, l, &log, 0)
		_, err := l.NewPoll(a, func(*uvloop.Poll, uvloop.Events, error) { log = append(log, "second ran") })
		log = append(log, fmt.Sprintf("second: ErrFdInUse %v", errors.Is(err, uvloop.ErrFdInUse)))
		_, err = unix.Write(b, []byte("x"))
		mustOK(t, err)
		rev8Iter(t, l, &log, 1)
		mustOK(t, p.Close(nil))
		return log
	})
}

// TestRev8PollUnfitFdDiff: a regular file, a directory and /dev/null: the refusal comes in
// the poll phase as Error with EPERM on both backends, once, and the handle stops.
func TestRev8PollUnfitFdDiff(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	mustOK(t, os.WriteFile(file, []byte("data"), 0o600))
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var log []string
		for _, path := range []string{file, dir, "/dev/null"} {
			fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
			mustOK(t, err)
			p := rev8Poll(t, l, fd, filepath.Base(path), &log, nil)
			mustOK(t, p.Start(uvloop.Readable|uvloop.Writable))
			rev8Iter(t, l, &log, 0)
			log = append(log, fmt.Sprintf("active %v", p.IsActive()))
			rev8Iter(t, l, &log, 1)
			mustOK(t, p.Close(nil))
			unix.Close(fd)
		}
		return log
	})
}

// TestRev8PollHangupDiff: the peer shuts down its writing side, then closes: a reading
// handle, a writing one and one of both hear the same on both backends.
func TestRev8PollHangupDiff(t *testing.T) {
	for _, want := range []uvloop.Events{uvloop.Readable, uvloop.Writable, uvloop.Readable | uvloop.Writable} {
		t.Run(want.String(), func(t *testing.T) {
			rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
				a, b := rawSocketpair(t)
				defer unix.Close(a)
				var log []string
				p := rev8Poll(t, l, a, "poll", &log, nil)
				mustOK(t, p.Start(want))
				rev8Iter(t, l, &log, 0)
				mustOK(t, unix.Shutdown(b, unix.SHUT_WR))
				rev8Iter(t, l, &log, 1)
				rev8Iter(t, l, &log, 2)
				unix.Close(b)
				rev8Iter(t, l, &log, 3)
				rev8Iter(t, l, &log, 4)
				mustOK(t, p.Close(nil))
				return log
			})
		})
	}
}

// TestRev8PollUrgentDiff: an urgent (out-of-band) byte alone on a TCP socket. No Events bit
// asks for it (there is no Prioritized), and epoll reports nothing to a reading handle. The
// ring's poll request completes with the readiness that the kernel's wake-up names
// (readable, for an urgent byte too) without asking the socket again, so io_uring reports
// Readable once, and the read finds nothing (EAGAIN, which libuv tells a poll handle to
// expect). Pinned: at most that one callback, no spin after it, and from then on both
// backends log the same.
func TestRev8PollUrgentDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, b := rev8TCPPair(t)
		var log []string
		calls := 0
		p := rev8Poll(t, l, a, "poll", &log, func(p *uvloop.Poll, ev uvloop.Events) {
			calls++
			var buf [8]byte
			n, err := unix.Read(a, buf[:])
			if ev != uvloop.Readable || n != -1 || !errors.Is(err, unix.EAGAIN) {
				t.Errorf("callback %v, read %d %v; want Readable and EAGAIN", ev, n, err)
			}
		})
		mustOK(t, p.Start(uvloop.Readable))
		rev8Iter(t, l, &log, 0)
		mustOK(t, unix.Sendto(b, []byte("!"), unix.MSG_OOB, nil))
		mustRunMode(t, l, uvloop.RunNoWait)
		if calls > 1 {
			t.Errorf("%d callbacks for the urgent byte, want at most 1", calls)
		}
		log = log[:1]
		for i := 2; i < 5; i++ {
			rev8Iter(t, l, &log, i)
		}
		mustOK(t, p.Close(nil))
		return log
	})
}

// rev8TCPPair returns the two ends of a loopback TCP connection as non-blocking fds, closed
// when the test ends.
func rev8TCPPair(t *testing.T) (int, int) {
	t.Helper()
	ln, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	mustOK(t, err)
	defer unix.Close(ln)
	mustOK(t, unix.Bind(ln, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}))
	mustOK(t, unix.Listen(ln, 1))
	sa, err := unix.Getsockname(ln)
	mustOK(t, err)
	b, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	mustOK(t, err)
	mustOK(t, unix.Connect(b, sa))
	a, _, err := unix.Accept4(ln, unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK)
	mustOK(t, err)
	mustOK(t, unix.SetNonblock(b, true))
	t.Cleanup(func() {
		unix.Close(a)
		unix.Close(b)
	})
	return a, b
}

// TestRev8PollFdClosedUnderPollDiff: the caller closes the fd of an active Poll (which the
// Poll's doc tells it not to do) and the number is reused by a new socket; then it closes the
// handle and watches the new socket with a new one. Nothing of the old socket reaches the new
// owner, the old peer sees its end of stream once the handle is closed, and the new socket's
// own readiness is reported.
func TestRev8PollFdClosedUnderPollDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, b := rawSocketpair(t)
		defer unix.Close(b)
		var log []string
		p := rev8Poll(t, l, a, "old", &log, nil)
		mustOK(t, p.Start(uvloop.Readable))
		rev8Iter(t, l, &log, 0)
		mustOK(t, unix.Close(a))
		c, d := rawSocketpair(t)
		defer unix.Close(d)
		if c != a {
			mustOK(t, unix.Dup3(c, a, unix.O_CLOEXEC))
			unix.Close(c)
		}
		defer unix.Close(a)
		rev8Iter(t, l, &log, 1)
		mustOK(t, p.Close(nil))
		rev8Iter(t, l, &log, 2)
		var buf [8]byte
		n, err := unix.Read(b, buf[:])
		log = append(log, fmt.Sprintf("old peer read %d %s", n, ringWriteErr(err)))
		q := rev8Poll(t, l, a, "new", &log, nil)
		mustOK(t, q.Start(uvloop.Readable))
		rev8Iter(t, l, &log, 3)
		_, err = unix.Write(d, []byte("x"))
		mustOK(t, err)
		rev8Iter(t, l, &log, 4)
		mustOK(t, q.Close(nil))
		return log
	})
}

// TestRev8PollFdClosedThenPeerWritesDiff: as above, but the old peer writes after the
// caller closed the fd under the active handle, before the handle is closed. Here the
// backends differ, and cannot help it: epoll forgets a closed socket, whose peer's write
// then fails (EPIPE); the ring's armed poll request holds the socket open, so the write
// succeeds and the old handle hears Readable once (after which it watches whatever the
// number now names). Pinned: at most that one callback, and from the handle's Close on, the
// same on both (the request is removed at once; the new owner hears nothing of the old
// socket).
func TestRev8PollFdClosedThenPeerWritesDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, b := rawSocketpair(t)
		defer unix.Close(b)
		var log []string
		p := rev8Poll(t, l, a, "old", &log, nil)
		mustOK(t, p.Start(uvloop.Readable))
		rev8Iter(t, l, &log, 0)
		mustOK(t, unix.Close(a))
		c, d := rawSocketpair(t)
		defer unix.Close(d)
		if c != a {
			mustOK(t, unix.Dup3(c, a, unix.O_CLOEXEC))
			unix.Close(c)
		}
		defer unix.Close(a)
		unix.Write(b, []byte("x"))
		rev8Iter(t, l, &log, 1)
		rev8Iter(t, l, &log, 2)
		if old := len(log) - 3; old > 1 {
			t.Errorf("the old handle ran %d times, want at most 1: %q", old, log)
		}
		log = log[:0]
		mustOK(t, p.Close(nil))
		var buf [8]byte
		n, err := unix.Read(b, buf[:]) // the end of stream, or a reset for the byte unread
		log = append(log, fmt.Sprintf("old peer sees the close %v", n == 0 || errors.Is(err, unix.ECONNRESET)))
		q := rev8Poll(t, l, a, "new", &log, nil)
		mustOK(t, q.Start(uvloop.Readable))
		rev8Iter(t, l, &log, 3)
		mustOK(t, q.Close(nil))
		return log
	})
}

// TestRev8PollBesideTCPDiff: a Poll handle watches a duplicate of the fd of a TCP handle that
// reads (NewPoll refuses the TCP's own fd: ErrFdInUse). The TCP handle gets every byte, the
// Poll handle hears of readability at most once per iteration and of the peer's close, and
// the loop is whole after both close. The order of the two callbacks within one poll phase
// is the kernel's, so each iteration's lines are sorted.
func TestRev8PollBesideTCPDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, peer := rev7Accepted(t, l)
		var log, iter []string
		_, err := l.NewPoll(c.Fd(), func(*uvloop.Poll, uvloop.Events, error) {})
		log = append(log, fmt.Sprintf("own fd: ErrFdInUse %v", errors.Is(err, uvloop.ErrFdInUse)))
		dup, err := unix.FcntlInt(uintptr(c.Fd()), unix.F_DUPFD_CLOEXEC, 0)
		mustOK(t, err)
		defer unix.Close(dup)
		got := 0
		mustOK(t, c.ReadStart(func(data []byte, err error) {
			got += len(data)
			if err != nil {
				iter = append(iter, "tcp "+ringWriteErr(err))
				c.Close(nil)
			}
		}))
		p := rev8Poll(t, l, dup, "poll", &iter, nil)
		mustOK(t, p.Start(uvloop.Writable))
		step := func(what string) {
			mustRunMode(t, l, uvloop.RunNoWait)
			slices.Sort(iter)
			log = append(log, what+": "+strings.Join(iter, ", "))
			iter = iter[:0]
		}
		step("writable")
		mustOK(t, p.Stop())
		step("stopped")
		_, err = peer.Write([]byte("hello"))
		mustOK(t, err)
		runUntil(t, l, "the bytes", func() bool { return got == 5 })
		log = append(log, fmt.Sprintf("tcp read %d", got))
		iter = iter[:0]
		mustOK(t, p.Start(uvloop.Readable))
		step("read dry")
		peer.Close()
		runUntil(t, l, "the end of stream", func() bool { return c.IsClosing() })
		slices.Sort(iter)
		log = append(log, "closed: "+strings.Join(slices.Compact(iter), ", "))
		iter = iter[:0]
		mustOK(t, p.Close(nil))
		step("after close")
		return log
	})
}

// TestRev8PollMaskFlipAllocs: a readable Poll whose callback changes its mask every time
// (an interest change per iteration: on io_uring a removal and a new request) allocates
// nothing per iteration, on both backends.
func TestRev8PollMaskFlipAllocs(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, b := newSocketpair(t)
		_, err := unix.Write(b, []byte("x"))
		mustOK(t, err)
		calls, flip := 0, false
		p, err := l.NewPoll(a, func(p *uvloop.Poll, ev uvloop.Events, err error) {
			calls++
			flip = !flip
			if flip {
				p.Start(uvloop.Readable | uvloop.Writable)
			} else {
				p.Start(uvloop.Readable)
			}
		})
		mustOK(t, err)
		mustOK(t, p.Start(uvloop.Readable))
		checkAllocs(t, 0, func() { noWait(t, l) })
		mustOK(t, p.Close(nil))
		return []string{fmt.Sprintf("one callback per iteration %v", calls == allocRuns+2)}
	})
}

// TestRev8PollConnectRefusedDiff: a Poll waiting for a non-blocking connect to a closed
// port hears the failure once, as Error with ECONNREFUSED (the socket's pending error), and
// stops; the loop then has nothing alive.
func TestRev8PollConnectRefusedDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		addr := rev7ClosedPort(t)
		fd := newTCPSocket(t)
		defer unix.Close(fd)
		err := unix.Connect(fd, &unix.SockaddrInet4{Port: int(addr.Port()), Addr: addr.Addr().As4()})
		if !errors.Is(err, unix.EINPROGRESS) && !errors.Is(err, unix.ECONNREFUSED) {
			t.Fatalf("connect: %v", err)
		}
		var log []string
		p := rev8Poll(t, l, fd, "poll", &log, func(p *uvloop.Poll, ev uvloop.Events) {
			log = append(log, fmt.Sprintf("active %v", p.IsActive()))
		})
		mustOK(t, p.Start(uvloop.Writable))
		log = append(log, fmt.Sprintf("alive %v", mustRunMode(t, l, uvloop.RunDefault)))
		mustOK(t, p.Close(nil))
		return log
	})
}

// TestRev8PollPipeEndsDiff: Polls on both ends of a pipe: the write end hears Writable, then
// Error once its reader is gone (the handle stops); the read end hears Readable, then
// Readable|Hangup once the writer is gone, every iteration while the caller does not read.
func TestRev8PollPipeEndsDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var fds [2]int
		mustOK(t, unix.Pipe2(fds[:], unix.O_NONBLOCK|unix.O_CLOEXEC))
		r, w := fds[0], fds[1]
		var log []string
		pw := rev8Poll(t, l, w, "w", &log, nil)
		mustOK(t, pw.Start(uvloop.Writable))
		rev8Iter(t, l, &log, 0)
		pr := rev8Poll(t, l, r, "r", &log, nil)
		mustOK(t, pr.Start(uvloop.Readable))
		_, err := unix.Write(w, []byte("x"))
		mustOK(t, err)
		mustOK(t, pw.Stop())
		rev8Iter(t, l, &log, 1)
		mustOK(t, pw.Close(nil))
		unix.Close(w)
		rev8Iter(t, l, &log, 2)
		rev8Iter(t, l, &log, 3)
		mustOK(t, pr.Close(nil))
		unix.Close(r)

		mustOK(t, unix.Pipe2(fds[:], unix.O_NONBLOCK|unix.O_CLOEXEC))
		r, w = fds[0], fds[1]
		pw = rev8Poll(t, l, w, "w2", &log, nil)
		mustOK(t, pw.Start(uvloop.Writable))
		rev8Iter(t, l, &log, 4)
		unix.Close(r)
		rev8Iter(t, l, &log, 5)
		rev8Iter(t, l, &log, 6)
		mustOK(t, pw.Close(nil))
		unix.Close(w)
		return log
	})
}

// TestRev8PollStoppedInBatchDiff: two sockets whose peers closed are reported in one poll
// phase (Readable|Hangup each); whichever callback runs first stops the other handle. The
// stopped handle is not called with the event collected for it, hangup or not (libuv drops
// a stopped watcher's events from the batch); started again, it hears of it next iteration.
// Both backends called it before the fix (the event's Hangup got through the interest mask).
func TestRev8PollStoppedInBatchDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var fds [2]int
		for i := range fds {
			a, b := rawSocketpair(t)
			defer unix.Close(a)
			unix.Close(b)
			fds[i] = a
		}
		var log []string
		var polls [2]*uvloop.Poll
		stopped := -1
		for i := range polls {
			polls[i] = rev8Poll(t, l, fds[i], fmt.Sprint("poll", i), &log, func(h *uvloop.Poll, ev uvloop.Events) {
				if stopped < 0 {
					stopped = 1 - i
					mustOK(t, polls[stopped].Stop())
				}
			})
			mustOK(t, polls[i].Start(uvloop.Readable))
		}
		mustRunMode(t, l, uvloop.RunNoWait)
		if len(log) != 1 {
			t.Errorf("the stopped handle ran: %q", log)
		}
		log = []string{fmt.Sprintf("calls in the batch %d", len(log))}
		mustOK(t, polls[stopped].Start(uvloop.Readable))
		mustRunMode(t, l, uvloop.RunNoWait)
		slices.Sort(log[1:]) // the kernel's order
		mustOK(t, polls[0].Close(nil))
		mustOK(t, polls[1].Close(nil))
		return log
	})
}

// TestRev8PollStoppedBeforeRefusalDiff: a Poll started on a directory (which the poller
// refuses in the poll phase) and stopped before that phase hears nothing of the refusal,
// and the loop has nothing alive.
func TestRev8PollStoppedBeforeRefusalDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		fd, err := unix.Open(t.TempDir(), unix.O_RDONLY|unix.O_CLOEXEC, 0)
		mustOK(t, err)
		defer unix.Close(fd)
		var log []string
		p := rev8Poll(t, l, fd, "dir", &log, nil)
		mustOK(t, p.Start(uvloop.Readable))
		rev8Iter(t, l, &log, 0)
		mustOK(t, p.Start(uvloop.Readable))
		mustOK(t, p.Stop())
		rev8Iter(t, l, &log, 1)
		mustOK(t, p.Close(nil))
		return log
	})
}

// TestRev8PollStoppedAfterRefusalDiff: a Poll on a directory is refused by the poller at the
// start of a poll phase whose I/O callback (another Poll's) stops it before the refusal is
// reported at the end of the phase: the stopped handle hears nothing of it.
func TestRev8PollStoppedAfterRefusalDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, b := newSocketpair(t)
		_, err := unix.Write(b, []byte("x"))
		mustOK(t, err)
		fd, err := unix.Open(t.TempDir(), unix.O_RDONLY|unix.O_CLOEXEC, 0)
		mustOK(t, err)
		defer unix.Close(fd)
		var log []string
		dir := rev8Poll(t, l, fd, "dir", &log, nil)
		p := rev8Poll(t, l, a, "poll", &log, func(p *uvloop.Poll, _ uvloop.Events) {
			mustOK(t, dir.Stop())
			mustOK(t, p.Stop())
		})
		mustOK(t, p.Start(uvloop.Readable))
		rev8Iter(t, l, &log, 0)
		mustOK(t, p.Start(uvloop.Readable))
		mustOK(t, dir.Start(uvloop.Readable))
		rev8Iter(t, l, &log, 1)
		rev8Iter(t, l, &log, 2)
		if slices.ContainsFunc(log, func(s string) bool { return strings.HasPrefix(s, "dir") }) {
			t.Errorf("the stopped handle heard of the refusal: %q", log)
		}
		mustOK(t, p.Close(nil))
		mustOK(t, dir.Close(nil))
		return log
	})
}
