package uvloop_test

import (
	"errors"
	"net"
	"net/netip"
	"runtime"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// ownBackends are the backends a loop WithOwnThread is tested on: epoll, and io_uring where
// it opens (its ring is then pinned to the thread: SINGLE_ISSUER, DEFER_TASKRUN).
func ownBackends(t *testing.T, f func(t *testing.T, opts ...uvloop.Option)) {
	for _, b := range []uvloop.Backend{uvloop.BackendEpoll, uvloop.BackendIOURing} {
		t.Run(b.String(), func(t *testing.T) {
			if err := poller.Available(b); err != nil {
				t.Skipf("%v is refused here: %v", b, err)
			}
			f(t, uvloop.WithOwnThread(), uvloop.WithBackend(b))
		})
	}
}

// TestOwnThreadOneThread: every callback of every Run, and a promise body started before
// the first Run, runs on the loop's one thread, which is not the caller's; and an echo
// through the loop works across Runs.
func TestOwnThreadOneThread(t *testing.T) {
	ownBackends(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		if l.LocksOSThread() {
			t.Error("LocksOSThread: true for a loop of its own thread (its promise bodies would not run on coroutines)")
		}
		tids := map[int]bool{}
		note := func() { tids[unix.Gettid()] = true }
		var got []byte
		srv, addr := listenEcho(t, l, note)
		body := promise.Async(l, func() (string, error) {
			note()
			v, err := promise.Await(promise.Resolve(l, "x"))
			note()
			return v, err
		})
		c, err := net.Dial("tcp", addr.String())
		mustOK(t, err)
		defer c.Close()
		for round := 0; round < 3; round++ {
			_, err := c.Write([]byte{byte('a' + round)})
			mustOK(t, err)
			b := make([]byte, 1)
			done := make(chan struct{})
			go func() {
				defer close(done)
				c.SetReadDeadline(time.Now().Add(5 * time.Second))
				if _, err := c.Read(b); err != nil {
					t.Errorf("round %d: %v", round, err)
				}
			}()
			runUntil(t, l, "the echo", func() bool {
				select {
				case <-done:
					return true
				default:
					return false
				}
			})
			got = append(got, b[0])
		}
		if string(got) != "abc" {
			t.Errorf("echoed %q, want abc", got)
		}
		if v, err := body.Result(); v != "x" || err != nil {
			t.Errorf("the body ended with %q, %v", v, err)
		}
		if len(tids) != 1 {
			t.Errorf("callbacks ran on %d threads, want 1: %v", len(tids), tids)
		}
		runtime.LockOSThread() // so that this goroutine's thread is the same for the check
		if tids[unix.Gettid()] {
			t.Error("the callbacks ran on the caller's thread")
		}
		runtime.UnlockOSThread()
		closed := false
		srv.Close(func() { closed = true })
		runUntil(t, l, "the close", func() bool { return closed })
		closeLoop(t, l)
	})
}

// TestOwnThreadPanic: a callback's panic comes back from Run as a *PanicError, as on any
// loop, and the loop's thread goes on serving it.
func TestOwnThreadPanic(t *testing.T) {
	ownBackends(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		tm := l.NewTimer(func(*uvloop.Timer) { panic("boom") })
		mustOK(t, tm.Start(0, 0))
		_, err := l.Run(uvloop.RunDefault)
		var pe *uvloop.PanicError
		if !errors.As(err, &pe) || pe.Value != "boom" {
			t.Fatalf("Run: %v, want the callback's panic", err)
		}
		ran := false
		mustOK(t, tm.Start(0, 0))
		tm2 := l.NewTimer(func(*uvloop.Timer) { ran = true; tm.Close(nil) })
		mustOK(t, tm.Stop())
		mustOK(t, tm2.Start(0, 0))
		mustRunMode(t, l, uvloop.RunDefault)
		if !ran {
			t.Error("the timer after the panic did not run")
		}
		tm2.Close(nil)
		mustRunMode(t, l, uvloop.RunDefault)
		closeLoop(t, l)
	})
}

// TestOwnThreadGoexit: runtime.Goexit in a callback (t.FailNow) ends the goroutine that
// called Run, as it would on any loop, rather than leaving it waiting; and the loop goes on,
// on the same thread: another goroutine runs it again and closes it.
func TestOwnThreadGoexit(t *testing.T) {
	ownBackends(t, func(t *testing.T, opts ...uvloop.Option) {
		checkFds(t)
		l, err := uvloop.New(opts...)
		mustOK(t, err)
		tid := 0
		tm := l.NewTimer(func(*uvloop.Timer) { tid = unix.Gettid(); runtime.Goexit() })
		mustOK(t, tm.Start(0, 0))
		var wg sync.WaitGroup
		returned, unwound := false, false
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { unwound = true }()
			l.Run(uvloop.RunDefault)
			returned = true
		}()
		wg.Wait()
		if returned || !unwound {
			t.Fatalf("Run returned %v, its caller unwound %v: want the caller ended", returned, unwound)
		}
		for round := 0; round < 2; round++ { // and once more after a second Goexit
			again := 0
			tm2 := l.NewTimer(func(tm2 *uvloop.Timer) {
				again = unix.Gettid()
				tm2.Close(nil)
				if round == 0 {
					runtime.Goexit()
				}
			})
			mustOK(t, tm2.Start(0, 0))
			wg.Add(1)
			go func() { defer wg.Done(); l.Run(uvloop.RunDefault) }()
			wg.Wait()
			if again != tid {
				t.Errorf("round %d: the loop ran on thread %d after the Goexit, %d before", round, again, tid)
			}
		}
		tm.Close(nil)
		mustRunMode(t, l, uvloop.RunDefault)
		closeLoop(t, l)
	})
}

// TestOwnThreadCloseFreesPortBetweenRuns: a UDP handle closed between runs, by the caller
// rather than on the loop's thread, gives its port back at once: the removal that must reach
// the kernel first (on io_uring, the cancellation of its poll request) is handed to the
// thread, which the pinned ring requires.
func TestOwnThreadCloseFreesPortBetweenRuns(t *testing.T) {
	ownBackends(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		u, addr := newBoundUDP(t, l)
		mustOK(t, u.RecvStart(func(*uvloop.UDP, []byte, netip.AddrPort, error) {}))
		mustRunMode(t, l, uvloop.RunNoWait)
		closed := false
		mustOK(t, u.Close(func() { closed = true }))
		c, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(addr))
		if err != nil {
			t.Errorf("%v: binding the closed handle's port %v: %v (the socket is still open)", l.Backend(), addr, err)
		} else {
			c.Close()
		}
		runUntil(t, l, "the close", func() bool { return closed })
		closeLoop(t, l)
	})
}

// TestOwnThreadRunAllocs: the hand-off of a Run to the loop's thread allocates nothing.
func TestOwnThreadRunAllocs(t *testing.T) {
	ownBackends(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		a := l.NewAsync(func(*uvloop.Async) {})
		checkAllocs(t, 0, func() {
			mustOK(t, a.Send())
			noWait(t, l)
		})
		a.Close(nil)
		mustRunMode(t, l, uvloop.RunDefault)
		closeLoop(t, l)
	})
}

// TestOwnThreadPosts: functions posted from many goroutines while the loop sleeps on its
// thread all run, once each.
func TestOwnThreadPosts(t *testing.T) {
	ownBackends(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		const senders, each = 8, 200
		n := 0
		hold := l.NewAsync(func(*uvloop.Async) {})
		var wg sync.WaitGroup
		for g := 0; g < senders; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < each; i++ {
					mustOK(t, l.Post(func() { n++ }))
				}
			}()
		}
		go func() { wg.Wait(); l.Post(func() { hold.Close(nil) }) }()
		mustRunMode(t, l, uvloop.RunDefault)
		if n != senders*each {
			t.Errorf("%d posted functions ran, want %d", n, senders*each)
		}
		closeLoop(t, l)
	})
}

// TestOwnThreadRingFeatures: a loop of its own thread on io_uring reads, writes and accepts
// through the ring as a locked loop does, also for handles made before the first Run, on the
// caller's goroutine. (The sends' probe, an io_uring_register that a pinned ring refuses from
// another thread, ran on the first CanSend: TCP streams made before Run wrote with write(2),
// one system call per Write.)
func TestOwnThreadRingFeatures(t *testing.T) {
	if err := poller.Available(uvloop.BackendIOURing); err != nil {
		t.Skipf("io_uring is refused here: %v", err)
	}
	features := func(opts ...uvloop.Option) [2]bool {
		l := newLoopWith(t, append(opts, uvloop.WithBackend(uvloop.BackendIOURing))...)
		c, err := l.NewTCP()
		mustOK(t, err)
		f := [2]bool{c.RingWrites(), l.Backend() == uvloop.BackendIOURing}
		c.Close(nil)
		mustRunMode(t, l, uvloop.RunDefault)
		closeLoop(t, l)
		return f
	}
	locked, own := features(uvloop.WithLockOSThread()), features(uvloop.WithOwnThread())
	if own != locked {
		t.Errorf("a loop of its own thread: RingWrites, io_uring = %v; a locked loop: %v", own, locked)
	}
}
