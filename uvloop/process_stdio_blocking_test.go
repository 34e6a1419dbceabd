package uvloop_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// A child's fds 0-2 that come from the parent are blocking, as libuv's children's are
// (review rev3-proc): programs do not expect EAGAIN on their stdio.

// runOnBackends sets scenario up on a fresh loop of each backend, runs the loop to its end
// (still running after d fails the test as a hang), calls the check the scenario returned
// and closes the loop.
func runOnBackends(t *testing.T, d time.Duration, scenario func(t *testing.T, l *uvloop.Loop) (check func())) {
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		checkFds(t)
		l := newLoopWith(t, uvloop.WithBackend(b))
		check := scenario(t, l)
		within(t, d, "Run", func() { l.Post(l.Stop) }, func() {
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				t.Errorf("run: %v", err)
			}
		})
		check()
		closeLoop(t, l)
	})
}

// readAll reads p to its end into *got, then closes it and sets *end.
func readAll(t *testing.T, p uvloop.Stream, got *[]byte, end *error) {
	t.Helper()
	mustOK(t, p.ReadStart(func(b []byte, err error) {
		if err != nil {
			*end = err
			p.Close(nil)
			return
		}
		*got = append(*got, b...)
	}))
}

func isNonblock(t *testing.T, fd int) bool {
	t.Helper()
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	mustOK(t, err)
	return fl&unix.O_NONBLOCK != 0
}

// TestSpawnInheritedStreamBlocks: cat given a loop stream (non-blocking in the loop) as its
// stdin waits for the peer's bytes rather than fail with EAGAIN.
func TestSpawnInheritedStreamBlocks(t *testing.T) {
	runOnBackends(t, 30*time.Second, func(t *testing.T, l *uvloop.Loop) func() {
		hs, peers := ringStreams(t, l, 1)
		h, peer := hs[0], peers[0]
		out, err := l.NewPipe()
		mustOK(t, err)
		var got []byte
		var end error
		exit := "none"
		spawnShell(t, l, "cat", []uvloop.StdioContainer{{Flags: uvloop.StdioInheritStream, Stream: h}, {Flags: uvloop.StdioCreatePipe, Stream: out, Writable: true}},
			func(p *uvloop.Process, st int64, sig syscall.Signal) {
				exit = fmt.Sprintf("%d %d", st, sig)
				p.Close(nil)
			})
		h.Close(nil)
		readAll(t, out, &got, &end)
		// The peer writes once cat is (most likely) waiting for its stdin.
		tm := l.NewTimer(func(tm *uvloop.Timer) {
			tm.Close(nil)
			unix.Write(peer, []byte("late\n"))
			unix.Shutdown(peer, unix.SHUT_WR)
		})
		mustOK(t, tm.Start(100*time.Millisecond, 0))
		return func() {
			if string(got) != "late\n" || exit != "0 0" {
				t.Errorf("cat wrote %q (then %v) and exited %q, want \"late\\n\" and \"0 0\"", got, end, exit)
			}
		}
	})
}

// TestSpawnInheritedFdBlocks: a child writing 4 MiB to a non-blocking socket given as its
// stdout (StdioInheritFd) waits while the socket is full rather than fail with EAGAIN; the
// parent's fd is then blocking too (one open file description), as with libuv.
func TestSpawnInheritedFdBlocks(t *testing.T) {
	runOnBackends(t, 30*time.Second, func(t *testing.T, l *uvloop.Loop) func() {
		a, b := rawSocketpair(t)
		h, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, h.Open(b))
		exit := "none"
		spawnShell(t, l, "head -c 4194304 /dev/zero", []uvloop.StdioContainer{{}, {Flags: uvloop.StdioInheritFd, Fd: a}},
			func(p *uvloop.Process, st int64, sig syscall.Signal) {
				exit = fmt.Sprintf("%d %d", st, sig)
				p.Close(nil)
			})
		if isNonblock(t, a) {
			t.Error("the inherited fd is still non-blocking in the parent")
		}
		unix.Close(a)
		var got []byte
		var end error
		readAll(t, h, &got, &end)
		return func() {
			if len(got) != 4<<20 || exit != "0 0" {
				t.Errorf("read %d bytes (then %v), the child exited %q; want %d and \"0 0\"", len(got), end, exit, 4<<20)
			}
		}
	})
}

// TestSpawnInheritedStreamParentKeepsUsing: the parent goes on reading and writing a stream
// it gave a child as stdin (its open file description blocking from then on): the loop
// must not block on it. The peer writes exactly one read buffer (a full read, after which
// the loop reads again), and the loop writes more than the socket takes, the peer reading
// nothing.
func TestSpawnInheritedStreamParentKeepsUsing(t *testing.T) {
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		checkFds(t)
		l := newLoopWith(t, uvloop.WithBackend(b))
		hs, peers := ringStreams(t, l, 1)
		h, peer := hs[0], peers[0]
		var log []string
		spawnShell(t, l, "exit 0", []uvloop.StdioContainer{{Flags: uvloop.StdioInheritStream, Stream: h}},
			func(p *uvloop.Process, st int64, sig syscall.Signal) {
				log = append(log, fmt.Sprintf("exit %d %d", st, sig))
				p.Close(nil)
				mustOK(t, h.Write(make([]byte, 8<<20), func(err error) { log = append(log, fmt.Sprintf("write %v", err != nil)) }))
				h.Close(func() { log = append(log, "closed") })
			})
		got := 0
		mustOK(t, h.ReadStart(func(b []byte, err error) {
			if err != nil {
				log = append(log, fmt.Sprintf("read %v", err))
				return
			}
			got += len(b)
		}))
		if n, err := unix.Write(peer, make([]byte, 64<<10)); n != 64<<10 || err != nil {
			t.Fatalf("peer wrote %d: %v", n, err)
		}
		unstick := func() { unix.Shutdown(peer, unix.SHUT_RDWR) }
		within(t, 10*time.Second, "Run", unstick, func() {
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				t.Errorf("run: %v", err)
			}
		})
		if got != 64<<10 || len(log) != 3 || log[0] != "exit 0 0" || log[1] != "write true" || log[2] != "closed" {
			t.Errorf("read %d bytes, log %q; want 65536 and [exit 0 0, write true, closed]", got, log)
		}
		closeLoop(t, l)
	})
}
