package uvloop_test

// Tests of WithOwnThread from review rev4-own. Each scenario runs on a loop of its own thread and,
// as the reference, on a plain WithLockOSThread loop, on io_uring and on epoll. Scenarios that
// may end the process (a fatal runtime error) run in a child process.

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/uvgo/uvgo/poller"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

var rev4ModeNames = []string{"io_uring-locked", "io_uring-own", "epoll-locked", "epoll-own"}

// modeOpts is New's options for a mode named "<backend>-<thread>": the backend epoll or
// io_uring (the test is skipped where it is refused), the thread "own" (WithOwnThread),
// "locked" (WithLockOSThread) or anything else (neither).
func modeOpts(t *testing.T, mode string) []uvloop.Option {
	b := uvloop.BackendEpoll
	if strings.HasPrefix(mode, "io_uring") {
		b = uvloop.BackendIOURing
	}
	if err := poller.Available(b); err != nil {
		t.Skipf("%v is refused here: %v", b, err)
	}
	opts := []uvloop.Option{uvloop.WithBackend(b)}
	switch {
	case strings.HasSuffix(mode, "-own"):
		opts = append(opts, uvloop.WithOwnThread())
	case strings.HasSuffix(mode, "-locked"):
		opts = append(opts, uvloop.WithLockOSThread())
	}
	return opts
}

// rev4Modes runs f in-process on each mode (UVGO_OWN_THREAD cleared, so that the reference
// is a plain locked loop).
func rev4Modes(t *testing.T, f func(t *testing.T, opts ...uvloop.Option)) {
	t.Setenv(uvloop.OwnThreadEnv, "0")
	for _, m := range rev4ModeNames {
		t.Run(m, func(t *testing.T) { f(t, modeOpts(t, m)...) })
	}
}

// rev4InChild runs f, for each mode, in a child process (the test binary again, running only
// this test), and fails the subtest if the child fails or dies.
func rev4InChild(t *testing.T, f func(t *testing.T, opts ...uvloop.Option)) {
	if m := os.Getenv("REV4_CHILD"); m != "" {
		f(t, modeOpts(t, m)...)
		return
	}
	for _, m := range rev4ModeNames {
		t.Run(m, func(t *testing.T) {
			modeOpts(t, m) // skip what is refused here
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+t.Name()[:strings.IndexByte(t.Name(), '/')]+"$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), "REV4_CHILD="+m, uvloop.OwnThreadEnv+"=0")
			out, err := cmd.CombinedOutput()
			if ctx.Err() != nil {
				t.Errorf("%s: the child hung (killed after 20 s)\n%s", m, rev4Tail(out))
			} else if err != nil {
				t.Errorf("%s: the child failed: %v\n%s", m, err, rev4Tail(out))
			}
		})
	}
}

func rev4Tail(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) > 12 {
		lines = lines[:12]
	}
	return strings.Join(lines, "\n")
}

// TestOwnRuntimeCloseFromOwner: the owner unwinds the suspended Async bodies with
// Runtime.Close between runs (a public method, "safe to call twice"). On the reference the
// body's goroutine is unwound; on a loop of its own thread the unwinding switches, from the
// owner's unlocked goroutine, to a coroutine made on the locked thread: fatal.
func TestOwnRuntimeCloseFromOwner(t *testing.T) {
	rev4InChild(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		p, _ := promise.WithResolvers[int](l)
		unwound := false
		promise.Async(l, func() (int, error) {
			defer func() { unwound = true }()
			return promise.Await(p)
		})
		promise.RuntimeOf(l).Close()
		if !unwound {
			t.Error("the suspended body was not unwound")
		}
		closeLoop(t, l)
	})
}

// TestOwnGoexitInBody: runtime.Goexit in an Async body resumed in Run (t.FailNow in a
// body) ends the caller of Run; the loop is then run again, a new body started and awaited,
// and the loop closed, with no goroutine left.
func TestOwnGoexitInBody(t *testing.T) {
	rev4InChild(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		p, res := promise.WithResolvers[int](l)
		promise.Async(l, func() (int, error) {
			promise.Await(p)
			runtime.Goexit()
			return 0, nil
		})
		l.SetTimeout(func() { res.Resolve(1) }, 0)
		var wg sync.WaitGroup
		returned := false
		wg.Add(1)
		go func() { defer wg.Done(); l.Run(uvloop.RunDefault); returned = true }()
		wg.Wait()
		if returned {
			t.Error("Run returned after a Goexit in a body")
		}
		// The body that ended is not current any more: outside a body, Await refuses.
		if _, err := promise.Await(promise.Resolve(l, 1)); !errors.Is(err, promise.ErrNotInAsync) {
			t.Errorf("Await outside a body after the Goexit: %v, want ErrNotInAsync", err)
		}
		body := promise.Async(l, func() (int, error) { return promise.Await(promise.Resolve(l, 5)) })
		mustRunMode(t, l, uvloop.RunDefault)
		if v, err := body.Result(); v != 5 || err != nil {
			t.Errorf("the body after the Goexit: %v, %v", v, err)
		}
		closeLoop(t, l)
	})
}

// TestOwnNewFailsNoLeak: a New that fails (a backend name refused) leaves no goroutine.
func TestOwnNewFailsNoLeak(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Setenv(uvloop.BackendEnv, "bogus")
	for i := 0; i < 3; i++ {
		if l, err := uvloop.New(uvloop.WithOwnThread()); err == nil {
			l.Close()
			t.Fatal("New with a bogus backend succeeded")
		}
	}
	if err := goleak.Find(ignore); err != nil {
		t.Error(err)
	}
}

// TestOwnCloseBusyThenAgain: Close fails with ErrBusy while a handle is open; after the
// handle's close, Close succeeds, a third Close says ErrClosed, and no goroutine is left. A
// loop never run is closed too.
func TestOwnCloseBusyThenAgain(t *testing.T) {
	rev4Modes(t, func(t *testing.T, opts ...uvloop.Option) {
		ignore := goleak.IgnoreCurrent()
		checkFds(t)
		l := newLoopWith(t, opts...)
		tm := l.NewTimer(func(*uvloop.Timer) {})
		if err := l.Close(); err == nil {
			t.Fatal("Close with a handle open succeeded")
		}
		tm.Close(nil)
		mustRunMode(t, l, uvloop.RunDefault)
		mustOK(t, l.Close())
		if err := l.Close(); err == nil {
			t.Error("a second Close succeeded")
		}
		never := newLoopWith(t, opts...)
		mustOK(t, never.Close())
		if err := goleak.Find(ignore); err != nil {
			t.Error(err)
		}
	})
}

// TestOwnTimersNeverEarly: no timer runs before its time (in loop time, which Now caches at
// each iteration, as uv_now does; a wall clock read in the callback is later), while other goroutines wake the
// loop all the while (Async.Send: each wake-up ends a wait early).
func TestOwnTimersNeverEarly(t *testing.T) {
	rev4Modes(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		a := l.NewAsync(func(*uvloop.Async) {})
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
						a.Send()
						time.Sleep(50 * time.Microsecond)
					}
				}
			}()
		}
		const rounds = 150
		n := 0
		var start, want time.Duration // loop time (Now), as timers count it: cached at each iteration
		var tm *uvloop.Timer
		tm = l.NewTimer(func(*uvloop.Timer) {
			if got := l.Now() - start; got < want {
				t.Errorf("round %d: the timer of %v ran after %v of loop time", n, want, got)
			}
			n++
			if n == rounds {
				tm.Close(nil)
				a.Close(nil)
				return
			}
			want = time.Duration(n%4) * time.Millisecond
			start = l.Now()
			mustOK(t, tm.Start(want, 0))
		})
		start = l.Now()
		mustOK(t, tm.Start(0, 0))
		mustRunMode(t, l, uvloop.RunDefault)
		close(stop)
		wg.Wait()
		if n != rounds {
			t.Errorf("%d rounds, want %d", n, rounds)
		}
		closeLoop(t, l)
	})
}

// TestOwnSendsWithRunNoWait: Async.Send from many goroutines reaches a loop run with
// RunNoWait (and with RunOnce) in a spin: after the last Send, the callback runs once more.
func TestOwnSendsWithRunNoWait(t *testing.T) {
	for _, mode := range []uvloop.RunMode{uvloop.RunNoWait, uvloop.RunOnce} {
		rev4Modes(t, func(t *testing.T, opts ...uvloop.Option) { rev4Sends(t, mode, opts...) })
	}
}

// TestOwnRunNoWaitSpinGOMAXPROCS1: the same with GOMAXPROCS=1 and RunNoWait. The reference
// passes at once. A loop of its own thread starves every other goroutine: each Run is an
// unbuffered hand-off to the locked thread and back, the partner is always in the P's runnext,
// and the locked-M hand-off (execute with inheritTime=false) advances schedtick, so that
// sysmon never preempts; the senders in the local run queue never run again (the callback
// sees 300 of 2,400 sends after 5 s, 3 runs of 3).
func TestOwnRunNoWaitSpinGOMAXPROCS1(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	rev4Modes(t, func(t *testing.T, opts ...uvloop.Option) { rev4Sends(t, uvloop.RunNoWait, opts...) })
}

func rev4Sends(t *testing.T, mode uvloop.RunMode, opts ...uvloop.Option) {
	l := newLoopWith(t, opts...)
	var mu sync.Mutex
	sent, seen := 0, -1
	a := l.NewAsync(func(*uvloop.Async) {
		mu.Lock()
		seen = sent
		mu.Unlock()
	})
	const senders, each = 8, 300
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := 0; g < senders; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				select {
				case <-stop:
					return
				default:
				}
				mu.Lock()
				sent++
				mu.Unlock()
				mustOK(t, a.Send())
			}
		}()
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mustRunMode(t, l, mode)
		mu.Lock()
		ok := seen == senders*each
		mu.Unlock()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			close(stop)
			wg.Wait()
			t.Errorf("after 5 s of Run(%d) in a spin, the callback saw %d sends of %d", mode, seen, senders*each)
			break
		}
	}
	wg.Wait()
	closeLoop(t, l)
}

// TestOwnFullRingBetweenRuns: the owner queues more file reads between runs than the
// submission ring holds (1,024): the full ring is submitted by the owner's goroutine, handed
// to the thread on a pinned ring; all complete.
func TestOwnFullRingBetweenRuns(t *testing.T) {
	rev4Modes(t, func(t *testing.T, opts ...uvloop.Option) {
		f, err := os.CreateTemp(t.TempDir(), "r")
		mustOK(t, err)
		defer f.Close()
		_, err = f.Write([]byte("0123456789"))
		mustOK(t, err)
		l := newLoopWith(t, opts...)
		const n = 3000
		done := 0
		reqs := make([]uvloop.FSReq, n)
		bufs := make([]byte, n*4)
		for i := range reqs {
			mustOK(t, l.FSRead(&reqs[i], int(f.Fd()), bufs[i*4:i*4+4], int64(i%7), func(r *uvloop.FSReq) {
				if r.Result() != 4 || r.Err() != nil {
					t.Errorf("read: %v, %v", r.Result(), r.Err())
				}
				done++
			}))
		}
		mustRunMode(t, l, uvloop.RunDefault)
		if done != n {
			t.Errorf("%d reads done, want %d", done, n)
		}
		closeLoop(t, l)
	})
}

// TestOwnRunInBodyBetweenRuns: the owner starts an Async body between runs that runs the
// loop itself (RunDefault) until a timer has resolved a promise that another body awaits.
func TestOwnRunInBodyBetweenRuns(t *testing.T) {
	rev4InChild(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		p, res := promise.WithResolvers[int](l)
		other := promise.Async(l, func() (int, error) { return promise.Await(p) })
		l.SetTimeout(func() { res.Resolve(3) }, 1)
		var rerr error
		promise.Async(l, func() (int, error) {
			_, rerr = l.Run(uvloop.RunDefault)
			return 0, nil
		})
		if rerr != nil {
			t.Errorf("Run in the body: %v", rerr)
		}
		mustRunMode(t, l, uvloop.RunDefault)
		if v, err := other.Result(); v != 3 || err != nil {
			t.Errorf("the other body: %v, %v", v, err)
		}
		closeLoop(t, l)
	})
}

// TestOwnNestedOwnLoop: a callback of one loop makes, runs and closes another loop of its
// own thread.
func TestOwnNestedOwnLoop(t *testing.T) {
	rev4Modes(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		ran := false
		l.SetTimeout(func() {
			inner, err := uvloop.New(opts...)
			mustOK(t, err)
			inner.SetTimeout(func() { ran = true }, 1)
			body := promise.Async(inner, func() (int, error) { return promise.Await(promise.Resolve(inner, 1)) })
			if _, err := inner.Run(uvloop.RunDefault); err != nil {
				t.Errorf("inner Run: %v", err)
			}
			if v, _ := body.Result(); v != 1 {
				t.Errorf("inner body: %v", v)
			}
			mustOK(t, inner.Close())
		}, 0)
		mustRunMode(t, l, uvloop.RunDefault)
		if !ran {
			t.Error("the inner loop's timer did not run")
		}
		closeLoop(t, l)
	})
}
