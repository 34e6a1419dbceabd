package uvloop_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// The loop's own semantics where the io_uring backend differs most from epoll (the poll
// phase, the ring's wait, Rebind/Unbind, Close), from a review; each runs on whatever backend
// UVGO_BACKEND chooses, and CI runs the package on both.

// TestRingLoopTimerNoSpin: a loop whose only due work is a timer 150 ms away, with every
// kind of request in the kernel (a listener's accept, streams reading, a stream that
// stopped reading, a Poll for Writable on a socket whose peer shut down, a stream with a write
// stuck on a full socket) must sleep until the timer: a handful of iterations, not a spin.
func TestRingLoopTimerNoSpin(t *testing.T) {
	for _, locked := range []bool{false, true} {
		t.Run(fmt.Sprintf("locked=%v", locked), func(t *testing.T) {
			checkFds(t)
			l := newLoopLocked(t, locked)
			listenTCP(t, l, func(*uvloop.TCP, error) {})
			hs, peers := ringStreams(t, l, 4)
			mustOK(t, hs[0].ReadStart(func([]byte, error) {}))
			mustOK(t, hs[1].ReadStart(func([]byte, error) {}))
			// hs[2] read once, then stopped.
			unix.Write(peers[2], []byte("x"))
			mustOK(t, hs[2].ReadStart(func([]byte, error) { hs[2].ReadStop() }))
			// hs[3]: a write stuck on a full socket (the peer never reads).
			mustOK(t, hs[3].Write(make([]byte, 8<<20), func(error) {}))
			// A Poll for Writable only on a socket whose peer shut down its writing side.
			pa, pb := newSocketpair(t)
			mustOK(t, unix.Shutdown(pb, unix.SHUT_WR))
			// fill pa's send buffer so that it is not writable
			for {
				if _, err := unix.Write(pa, make([]byte, 64<<10)); err != nil {
					break
				}
			}
			p, err := l.NewPoll(pa, func(*uvloop.Poll, uvloop.Events, error) {})
			mustOK(t, err)
			mustOK(t, p.Start(uvloop.Writable))
			// Get everything into the kernel first.
			for range 3 {
				mustRunMode(t, l, uvloop.RunNoWait)
			}
			before := l.Metrics().LoopCount
			fired := 0
			tm := l.NewTimer(func(tm *uvloop.Timer) { fired++; l.Stop() })
			mustOK(t, tm.Start(150*time.Millisecond, 0))
			within(t, 10*time.Second, "Run", func() { l.Post(l.Stop) }, func() {
				if _, err := l.Run(uvloop.RunDefault); err != nil {
					t.Errorf("run: %v", err)
				}
			})
			n := l.Metrics().LoopCount - before
			if fired != 1 || n > 5 {
				t.Errorf("timer fired %d times after %d iterations; want once after a few (backend %v)", fired, n, l.Backend())
			}
			closeLoop(t, l)
		})
	}
}

// TestRingLoopPostBetweenRuns: a locked loop, kept alive by a listener, run one RunOnce at
// a time, each on another goroutine (another thread); a function posted between the runs,
// and one posted from another goroutine while RunOnce sleeps, must each end a RunOnce.
func TestRingLoopPostBetweenRuns(t *testing.T) {
	for _, locked := range []bool{false, true} {
		t.Run(fmt.Sprintf("locked=%v", locked), func(t *testing.T) {
			l := newLoopLocked(t, locked)
			_, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {})
			_ = addr
			var ran atomic.Int32
			// Threads kept locked so that every run is on a new one.
			release := make(chan struct{})
			defer close(release)
			for i := range 20 {
				if i%2 == 0 {
					mustOK(t, l.Post(func() { ran.Add(1) }))
				} else {
					go func() {
						time.Sleep(5 * time.Millisecond)
						l.Post(func() { ran.Add(1) })
					}()
				}
				want := int32(i + 1)
				ok := false
				within(t, 5*time.Second, fmt.Sprintf("RunOnce %d", i), func() { l.Post(func() {}) }, func() {
					onNewThread(release, func() {
						for ran.Load() < want {
							if _, err := l.Run(uvloop.RunOnce); err != nil {
								t.Errorf("run: %v", err)
								break
							}
						}
						ok = true
					})
				})
				if !ok {
					break
				}
			}
			closeLoop(t, l)
		})
	}
}

// TestRingLoopCloseInFlight: handles closed with receives, sends, an accept and a file
// read in flight, then the loop run to the end and closed: no hang, no fd left, and (TestMain)
// no goroutine left.
func TestRingLoopCloseInFlight(t *testing.T) {
	for _, locked := range []bool{false, true} {
		t.Run(fmt.Sprintf("locked=%v", locked), func(t *testing.T) {
			checkFds(t)
			l := newLoopLocked(t, locked)
			listenTCP(t, l, func(*uvloop.TCP, error) {})
			hs, peers := ringStreams(t, l, 64)
			for i, h := range hs {
				mustOK(t, h.ReadStart(func([]byte, error) {}))
				if i%2 == 0 {
					mustOK(t, h.Write(make([]byte, 1<<20), func(error) {}))
				}
			}
			path := filepath.Join(t.TempDir(), "f")
			mustOK(t, os.WriteFile(path, bytes.Repeat([]byte("z"), 1<<20), 0o600))
			f, err := os.Open(path)
			mustOK(t, err)
			defer f.Close()
			var reqs [16]uvloop.FSReq
			bufs := make([][]byte, len(reqs))
			for i := range reqs {
				bufs[i] = make([]byte, 64<<10)
			}
			mustRunMode(t, l, uvloop.RunNoWait)
			// peers flood while the loop closes
			for _, fd := range peers {
				unix.Write(fd, make([]byte, 32<<10))
			}
			tm := l.NewTimer(func(tm *uvloop.Timer) {
				for i := range reqs {
					mustOK(t, l.FSRead(&reqs[i], int(f.Fd()), bufs[i], int64(i)<<16, func(*uvloop.FSReq) {}))
				}
				l.Walk(func(h uvloop.Handle) {
					if !h.IsClosing() {
						h.Close(nil)
					}
				})
			})
			mustOK(t, tm.Start(0, 0))
			within(t, 10*time.Second, "run to close", nil, func() {
				if _, err := l.Run(uvloop.RunDefault); err != nil {
					t.Errorf("run: %v", err)
				}
			})
			within(t, 10*time.Second, "Close", nil, func() {
				if err := l.Close(); err != nil {
					t.Errorf("close: %v", err)
				}
			})
		})
	}
}

// TestRingLoopManyStreams: 3000 streams started and written in one callback (more SQEs
// than the submission ring holds), and 3000 receives completing at once (more completions
// than the completion ring holds): every byte read and written, on both backends.
func TestRingLoopManyStreams(t *testing.T) {
	for _, locked := range []bool{false, true} {
		t.Run(fmt.Sprintf("locked=%v", locked), func(t *testing.T) {
			checkFds(t)
			l := newLoopLocked(t, locked)
			const n = 3000
			hs, peers := ringStreams(t, l, n)
			for _, fd := range peers {
				unix.Write(fd, []byte("ping"))
			}
			got := make([]int, n)
			total, written := 0, 0
			start := l.NewTimer(func(tm *uvloop.Timer) {
				tm.Close(nil)
				for i, h := range hs {
					mustOK(t, h.ReadStart(func(b []byte, err error) {
						if err != nil {
							return
						}
						got[i] += len(b)
						total += len(b)
						if total == 2*4*n && written == n {
							l.Stop()
						}
					}))
					mustOK(t, h.Write([]byte("pong"), func(err error) {
						if err != nil {
							t.Errorf("write %d: %v", i, err)
						}
						written++
						if total == 2*4*n && written == n {
							l.Stop()
						}
					}))
				}
			})
			mustOK(t, start.Start(0, 0))
			// A second burst: every peer writes again, all at once, while the loop runs.
			second := l.NewTimer(func(tm *uvloop.Timer) {
				tm.Close(nil)
				for _, fd := range peers {
					unix.Write(fd, []byte("ping"))
				}
			})
			mustOK(t, second.Start(20*time.Millisecond, 0))
			within(t, 20*time.Second, "Run", func() { l.Post(l.Stop) }, func() {
				if _, err := l.Run(uvloop.RunDefault); err != nil {
					t.Errorf("run: %v", err)
				}
			})
			short := 0
			for i := range n {
				if got[i] != 8 {
					short++
				}
			}
			if short > 0 || written != n {
				t.Errorf("%d of %d streams did not read their 8 bytes, %d writes completed (backend %v)", short, n, written, l.Backend())
			}
			buf := make([]byte, 16)
			unread := 0
			for _, fd := range peers {
				if k, _ := unix.Read(fd, buf); k != 4 {
					unread++
				}
			}
			if unread > 0 {
				t.Errorf("%d peers did not get pong (backend %v)", unread, l.Backend())
			}
			closeLoop(t, l)
		})
	}
}

// TestRingLoopPromiseBodyIO: on a locked loop, Async bodies run on goroutines of their own;
// a body that writes to a stream, closes another and starts reading a third, from its own
// goroutine (another thread than the loop's), must have all of it happen.
func TestRingLoopPromiseBodyIO(t *testing.T) {
	checkFds(t)
	l := newLoopWith(t, uvloop.WithLockOSThread())
	hs, peers := ringStreams(t, l, 3)
	closed, wrote := false, false
	var read []byte
	promise.Async(l, func() (int, error) {
		// Yield once so that the rest runs in Run, on the body's goroutine.
		promise.Await(promise.New(l, func(resolve func(int), _ func(error)) {
			tm := l.NewTimer(func(tm *uvloop.Timer) { tm.Close(nil); resolve(1) })
			tm.Start(time.Millisecond, 0)
		}))
		mustOK(t, hs[0].Write([]byte("from body"), func(err error) { wrote = err == nil }))
		hs[1].Close(func() { closed = true })
		mustOK(t, hs[2].ReadStart(func(b []byte, err error) {
			if err != nil {
				return
			}
			read = append(read, b...)
			if len(read) >= 5 {
				hs[2].Close(nil)
				hs[0].Close(nil)
			}
		}))
		return 0, nil
	})
	go func() {
		time.Sleep(20 * time.Millisecond)
		unix.Write(peers[2], []byte("hello"))
	}()
	within(t, 10*time.Second, "Run", func() { l.Post(l.Stop) }, func() {
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Errorf("run: %v", err)
		}
	})
	buf := make([]byte, 32)
	k, _ := unix.Read(peers[0], buf)
	if string(buf[:max(k, 0)]) != "from body" || !wrote || !closed || string(read) != "hello" {
		t.Errorf("peer got %q, wrote %v, closed %v, read %q (backend %v)", buf[:max(k, 0)], wrote, closed, read, l.Backend())
	}
	closeLoop(t, l)
}

// TestRingLoopNoWaitSeesIOSameThread: TestRingNoWaitSeesIO (ring_move_test.go) with every run on one
// goroutine (one thread when locked): no thread change, so no move of the receives.
func TestRingLoopNoWaitSeesIOSameThread(t *testing.T) {
	for _, locked := range []bool{false, true} {
		for _, poll := range []bool{false, true} {
			t.Run(fmt.Sprintf("locked=%v/poll=%v", locked, poll), func(t *testing.T) {
				l := newLoopLocked(t, locked)
				got := 0
				var peer int
				if poll {
					a, b := newSocketpair(t)
					peer = b
					buf := make([]byte, 64)
					p, err := l.NewPoll(a, func(p *uvloop.Poll, ev uvloop.Events, err error) {
						k, _ := unix.Read(a, buf)
						got += max(k, 0)
					})
					mustOK(t, err)
					mustOK(t, p.Start(uvloop.Readable))
				} else {
					hs, peers := ringStreams(t, l, 1)
					peer = peers[0]
					mustOK(t, hs[0].ReadStart(func(b []byte, err error) { got += len(b) }))
				}
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				mustRunMode(t, l, uvloop.RunNoWait)
				misses, worst := 0, 0
				for i := range 30 {
					want := i + 1
					unix.Write(peer, []byte("y"))
					var n int
					for n = 0; got < want && n < 50; n++ {
						mustRunMode(t, l, uvloop.RunNoWait)
					}
					if n > 1 {
						misses++
						worst = max(worst, n)
					}
					if got < want {
						t.Fatalf("round %d: byte not read after %d RunNoWait (backend %v)", i, n, l.Backend())
					}
				}
				if misses > 0 {
					t.Errorf("%d of 30 RunNoWait missed a byte that was in the socket before it began, up to %d runs to see it (backend %v)", misses, worst, l.Backend())
				}
				closeLoop(t, l)
			})
		}
	}
}

// TestRingLoopRunOnceAfterThreadChange: a stream reads; one run on a thread that then stays
// parked (as an idle OS thread of the runtime does); bytes arrive; the next RunOnce, on
// another thread, must read them (they are in the socket: RunOnce blocks only while
// nothing is ready), not sleep for good.
func TestRingLoopRunOnceAfterThreadChange(t *testing.T) {
	for _, locked := range []bool{false, true} {
		t.Run(fmt.Sprintf("locked=%v", locked), func(t *testing.T) {
			l := newLoopLocked(t, locked)
			hs, peers := ringStreams(t, l, 1)
			var got atomic.Int32
			mustOK(t, hs[0].ReadStart(func(b []byte, err error) { got.Add(int32(len(b))) }))
			release := make(chan struct{})
			defer close(release)
			extra := 0
			for i := range 10 {
				parked := make(chan struct{})
				go func() {
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					if _, err := l.Run(uvloop.RunNoWait); err != nil {
						t.Errorf("run: %v", err)
					}
					close(parked)
					<-release
				}()
				<-parked
				unix.Write(peers[0], []byte("z"))
				want := int32(i + 1)
				ok, runs := true, 0
				within(t, 5*time.Second, fmt.Sprintf("round %d: RunOnce with a byte in the socket", i),
					func() { ok = false; unix.Write(peers[0], []byte("!")); l.Post(func() {}) }, func() {
						onNewThread(release, func() {
							for got.Load() < want {
								runs++
								if _, err := l.Run(uvloop.RunOnce); err != nil {
									t.Errorf("run: %v", err)
									break
								}
							}
						})
					})
				if !ok {
					t.Logf("backend %v", l.Backend())
					break
				}
				if runs > 1 {
					extra++
				}
			}
			if extra > 0 {
				t.Errorf("%d of 10 rounds took more than one RunOnce to read a byte in the socket (backend %v)", extra, l.Backend())
			}
			closeLoop(t, l)
		})
	}
}

// TestRingLoopRunOnceWaitsForTimer: with nothing else to do but a timer 50 ms away, one
// RunOnce sleeps until the timer and runs it (libuv's poll goes on waiting for the rest of
// its timeout when it woke with nothing to report), also on another thread than the last
// run, with streams reading, a listener accepting and a Poll watching.
func TestRingLoopRunOnceWaitsForTimer(t *testing.T) {
	for _, c := range []struct{ locked, move bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		t.Run(fmt.Sprintf("locked=%v/newthread=%v", c.locked, c.move), func(t *testing.T) {
			var opts []uvloop.Option
			if c.locked {
				opts = append(opts, uvloop.WithLockOSThread())
			}
			l := newLoopWith(t, opts...)
			listenTCP(t, l, func(*uvloop.TCP, error) {})
			hs, _ := ringStreams(t, l, 8)
			for _, h := range hs {
				mustOK(t, h.ReadStart(func([]byte, error) {}))
			}
			pa, _ := newSocketpair(t)
			p, err := l.NewPoll(pa, func(*uvloop.Poll, uvloop.Events, error) {})
			mustOK(t, err)
			mustOK(t, p.Start(uvloop.Readable))
			release := make(chan struct{})
			defer close(release)
			run := func(mode uvloop.RunMode) {
				done := make(chan struct{})
				go func() {
					if c.move {
						runtime.LockOSThread()
						defer runtime.UnlockOSThread()
					}
					if _, err := l.Run(mode); err != nil {
						t.Errorf("run: %v", err)
					}
					close(done)
					if c.move {
						<-release
					}
				}()
				<-done
			}
			run(uvloop.RunNoWait)
			early := 0
			for range 10 {
				fired := false
				tm := l.NewTimer(func(tm *uvloop.Timer) { fired = true; tm.Close(nil) })
				mustOK(t, tm.Start(50*time.Millisecond, 0))
				within(t, 5*time.Second, "RunOnce", func() { l.Post(func() {}) }, func() { run(uvloop.RunOnce) })
				for !fired {
					early++
					run(uvloop.RunOnce)
				}
				run(uvloop.RunNoWait) // the timer's close
			}
			if early > 0 {
				t.Errorf("RunOnce returned %d times before its timer was due, with nothing to report (backend %v)", early, l.Backend())
			}
			closeLoop(t, l)
		})
	}
}

// TestRingLoopWakeStressAcrossRuns: a loop kept alive by a listener (so it sleeps in the
// kernel) is run by RunOnce after RunOnce, each on a new goroutine, while other goroutines
// post functions and send an Async: every post runs and every RunOnce that sleeps is woken.
func TestRingLoopWakeStressAcrossRuns(t *testing.T) {
	for _, locked := range []bool{false, true} {
		t.Run(fmt.Sprintf("locked=%v", locked), func(t *testing.T) {
			l := newLoopLocked(t, locked)
			listenTCP(t, l, func(*uvloop.TCP, error) {})
			hs, _ := ringStreams(t, l, 4)
			for _, h := range hs {
				mustOK(t, h.ReadStart(func([]byte, error) {}))
			}
			var asyncs atomic.Int32
			as := l.NewAsync(func(*uvloop.Async) { asyncs.Add(1) })
			const posters, each = 4, 500
			var ran atomic.Int32
			stop := make(chan struct{})
			for range posters {
				go func() {
					for i := range each {
						l.Post(func() { ran.Add(1) })
						if i%7 == 0 {
							as.Send()
						}
						if i%50 == 0 {
							time.Sleep(time.Millisecond)
						}
					}
				}()
			}
			runs := 0
			within(t, 20*time.Second, "RunOnce until every post ran", func() { close(stop) }, func() {
				for ran.Load() < posters*each {
					select {
					case <-stop:
						return
					default:
					}
					runs++
					done := make(chan struct{})
					go func() {
						if runs%2 == 0 {
							runtime.LockOSThread()
							defer runtime.UnlockOSThread()
						}
						if _, err := l.Run(uvloop.RunOnce); err != nil {
							t.Errorf("run: %v", err)
						}
						close(done)
					}()
					<-done
				}
			})
			if got := ran.Load(); got != posters*each {
				t.Errorf("%d of %d posts ran after %d runs (backend %v)", got, posters*each, runs, l.Backend())
			}
			closeLoop(t, l)
		})
	}
}

// TestRingLoopMoveMany: more requests than the submission ring holds move to a new thread
// at once (2000 receives and 1000 polls, each cancelled and armed again): after the move
// every stream and every Poll still reports what its peer writes.
func TestRingLoopMoveMany(t *testing.T) {
	for _, locked := range []bool{false, true} {
		t.Run(fmt.Sprintf("locked=%v", locked), func(t *testing.T) {
			checkFds(t)
			l := newLoopLocked(t, locked)
			const ns, np = 2000, 1000
			hs, peers := ringStreams(t, l, ns)
			total := 0
			for _, h := range hs {
				mustOK(t, h.ReadStart(func(b []byte, err error) { total += len(b) }))
			}
			ppeers := make([]int, np)
			buf := make([]byte, 16)
			for i := range np {
				a, b := rawSocketpair(t)
				ppeers[i] = b
				p, err := l.NewPoll(a, func(p *uvloop.Poll, ev uvloop.Events, err error) {
					k, _ := unix.Read(a, buf)
					total += max(k, 0)
				})
				mustOK(t, err)
				mustOK(t, p.Start(uvloop.Readable))
				t.Cleanup(func() { unix.Close(a); unix.Close(b) })
			}
			release := make(chan struct{})
			defer close(release)
			runOn := func(mode uvloop.RunMode, until func() bool) {
				onNewThread(release, func() {
					for {
						if _, err := l.Run(mode); err != nil {
							t.Errorf("run: %v", err)
						}
						if until() {
							break
						}
					}
				})
			}
			runOn(uvloop.RunNoWait, func() bool { return true })
			for round := 1; round <= 3; round++ {
				for _, fd := range peers {
					unix.Write(fd, []byte("a"))
				}
				for _, fd := range ppeers {
					unix.Write(fd, []byte("b"))
				}
				want := round * (ns + np)
				within(t, 20*time.Second, fmt.Sprintf("round %d", round), func() {
					l.Post(func() {})
				}, func() {
					runOn(uvloop.RunOnce, func() bool { return total >= want })
				})
				if total != want {
					t.Fatalf("round %d: read %d bytes, want %d (backend %v)", round, total, want, l.Backend())
				}
			}
			closeLoop(t, l)
		})
	}
}

// TestRingLoopPromiseBodyClosesStuckWrite: on a locked loop an Async body (its own
// goroutine, another thread) closes a stream whose write is stuck in a full socket (the send
// was submitted by the loop's thread), and writes to a second one: the write fails with
// ECANCELED, the second write arrives, the loop does not hang; on both backends alike.
func TestRingLoopPromiseBodyClosesStuckWrite(t *testing.T) {
	checkFds(t)
	l := newLoopWith(t, uvloop.WithLockOSThread())
	hs, peers := ringStreams(t, l, 2)
	var stuckErr error
	stuckDone, closed, wrote := false, false, false
	mustOK(t, hs[0].Write(make([]byte, 8<<20), func(err error) { stuckErr, stuckDone = err, true }))
	promise.Async(l, func() (int, error) {
		promise.Await(promise.New(l, func(resolve func(int), _ func(error)) {
			tm := l.NewTimer(func(tm *uvloop.Timer) { tm.Close(nil); resolve(1) })
			tm.Start(10*time.Millisecond, 0)
		}))
		hs[0].Close(func() { closed = true })
		mustOK(t, hs[1].Write([]byte("body"), func(err error) { wrote = err == nil; hs[1].Close(nil) }))
		return 0, nil
	})
	within(t, 5*time.Second, "Run", func() { unix.Shutdown(peers[0], unix.SHUT_RDWR) }, func() {
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Errorf("run: %v", err)
		}
	})
	buf := make([]byte, 8)
	k, _ := unix.Read(peers[1], buf)
	if !stuckDone || !closed || !wrote || string(buf[:max(k, 0)]) != "body" {
		t.Errorf("stuck write done %v (%v), closed %v, second written %v, peer got %q (backend %v)",
			stuckDone, stuckErr, closed, wrote, buf[:max(k, 0)], l.Backend())
	}
	closeLoop(t, l)
}

// TestRingLoopUnacceptedNoSpin: a listener whose callback does not Accept (libuv then
// stops watching it until Accept) and connections waiting: the loop sleeps until its timer
// rather than spin.
func TestRingLoopUnacceptedNoSpin(t *testing.T) {
	for _, locked := range []bool{false, true} {
		t.Run(fmt.Sprintf("locked=%v", locked), func(t *testing.T) {
			checkFds(t)
			l := newLoopLocked(t, locked)
			calls := 0
			_, addr := listenTCP(t, l, func(*uvloop.TCP, error) { calls++ })
			for range 3 {
				fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
				mustOK(t, err)
				mustOK(t, unix.Connect(fd, &unix.SockaddrInet4{Port: int(addr.Port()), Addr: [4]byte{127, 0, 0, 1}}))
				t.Cleanup(func() { unix.Close(fd) })
			}
			for range 3 {
				mustRunMode(t, l, uvloop.RunNoWait)
			}
			before := l.Metrics().LoopCount
			tm := l.NewTimer(func(tm *uvloop.Timer) { l.Stop() })
			mustOK(t, tm.Start(150*time.Millisecond, 0))
			within(t, 10*time.Second, "Run", func() { l.Post(l.Stop) }, func() {
				if _, err := l.Run(uvloop.RunDefault); err != nil {
					t.Errorf("run: %v", err)
				}
			})
			if n := l.Metrics().LoopCount - before; n > 5 || calls != 1 {
				t.Errorf("%d iterations to a timer 150 ms away, %d connection callbacks (backend %v)", n, calls, l.Backend())
			}
			closeLoop(t, l)
		})
	}
}

// TestRingLoopRunOnceAfterChange: a prepare callback changes what the kernel watches just
// before the poll phase (a stream stops reading, a Poll stops or changes interest, a stream
// closes); the one RunOnce that follows still sleeps until its timer and runs it, as libuv's
// poll, woken with nothing to report, goes on waiting for the rest of its timeout.
// (A stream closed there is no case: a closing handle makes the poll not block, in libuv too.)
func TestRingLoopRunOnceAfterChange(t *testing.T) {
	for _, change := range []string{"readstop", "pollstop", "pollmodify"} {
		for _, locked := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/locked=%v", change, locked), func(t *testing.T) {
				checkFds(t)
				l := newLoopLocked(t, locked)
				listenTCP(t, l, func(*uvloop.TCP, error) {}) // keeps the loop in the kernel
				early := 0
				for round := range 10 {
					hs, _ := ringStreams(t, l, 1)
					mustOK(t, hs[0].ReadStart(func([]byte, error) {}))
					pa, pb := rawSocketpair(t)
					t.Cleanup(func() { unix.Close(pb) })
					p, err := l.NewPoll(pa, func(*uvloop.Poll, uvloop.Events, error) {})
					mustOK(t, err)
					mustOK(t, p.Start(uvloop.Readable))
					mustRunMode(t, l, uvloop.RunNoWait)
					mustRunMode(t, l, uvloop.RunNoWait)
					fired := false
					tm := l.NewTimer(func(tm *uvloop.Timer) { fired = true; tm.Close(nil) })
					mustOK(t, tm.Start(40*time.Millisecond, 0))
					pr := l.NewPrepare(func(pr *uvloop.Prepare) {
						pr.Stop() // not Close: a closing handle makes the poll not block
						switch change {
						case "readstop":
							hs[0].ReadStop()
						case "pollstop":
							p.Stop()
						case "pollmodify":
							p.Start(uvloop.Readable | uvloop.Writable&0)
							p.Stop()
							p.Start(uvloop.Readable)
						}
					})
					mustOK(t, pr.Start())
					within(t, 5*time.Second, fmt.Sprintf("round %d", round), func() { l.Post(func() {}) }, func() {
						if _, err := l.Run(uvloop.RunOnce); err != nil {
							t.Errorf("run: %v", err)
						}
					})
					for i := 0; !fired && i < 100; i++ {
						early++
						mustRunMode(t, l, uvloop.RunOnce)
					}
					if !hs[0].IsClosing() {
						hs[0].Close(nil)
					}
					p.Close(func() { unix.Close(pa) })
					pr.Close(nil)
					mustRunMode(t, l, uvloop.RunNoWait)
				}
				if early > 0 {
					t.Errorf("%d of 10 RunOnce returned before their timer with nothing done (backend %v)", early, l.Backend())
				}
				closeLoop(t, l)
			})
		}
	}
}

// TestRingLoopAliveBusyWithRequests: a file read, a write and a stream's close in flight
// keep the loop alive and make Close fail with ErrBusy, on both backends; RunOnce reports
// alive while they are, and false once they are done.
func TestRingLoopAliveBusyWithRequests(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	path := filepath.Join(t.TempDir(), "f")
	mustOK(t, os.WriteFile(path, []byte("abc"), 0o600))
	f, err := os.Open(path)
	mustOK(t, err)
	defer f.Close()
	var req uvloop.FSReq
	buf := make([]byte, 8)
	readDone := false
	mustOK(t, l.FSRead(&req, int(f.Fd()), buf, 0, func(*uvloop.FSReq) { readDone = true }))
	hs, _ := ringStreams(t, l, 1)
	mustOK(t, hs[0].Write([]byte("w"), nil))
	if !l.Alive() {
		t.Error("not alive with a file read and a write in flight")
	}
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Errorf("Close with requests in flight: %v, want ErrBusy", err)
	}
	hs[0].Close(nil)
	alive := true
	for i := 0; alive && i < 100; i++ {
		alive = mustRunMode(t, l, uvloop.RunOnce)
	}
	if alive || !readDone || l.Alive() {
		t.Errorf("alive %v after the requests, read done %v (backend %v)", alive, readDone, l.Backend())
	}
	mustOK(t, l.Close())
}
