package uvloop_test

import (
	"errors"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test-signal.c, test-signal-multiple-loops.c and
// test-signal-pending-on-close.c. libuv raises a signal every 5 ms and expects one callback
// per raise; the operating system merges deliveries of a signal that arrive before the
// runtime has taken the last one, so these ports raise the next signal only after the last
// one was handled (each timer tick raises at most one), which keeps the count exact without
// depending on timing.

const nSignals = 10

type signalCtx struct {
	stopOrClose int // sigStop, sigClose or sigNoop
	ncalls      int
	h           *uvloop.Signal
	signum      syscall.Signal
	oneShot     bool
}

const (
	sigClose = iota
	sigStop
	sigNoop
)

type timerCtx struct {
	ncalls int
	h      *uvloop.Timer
	signum syscall.Signal
}

func raise(t testing.TB, sig syscall.Signal) {
	t.Helper()
	if err := syscall.Kill(os.Getpid(), sig); err != nil {
		t.Fatal(err)
	}
}

// startWatcher is libuv's start_watcher.
func startWatcher(t *testing.T, l *uvloop.Loop, signum syscall.Signal, sc *signalCtx, oneShot bool) {
	t.Helper()
	sc.ncalls, sc.signum, sc.stopOrClose, sc.oneShot = 0, signum, sigClose, oneShot
	var err error
	sc.h, err = l.NewSignal(func(h *uvloop.Signal, signum syscall.Signal) {
		if signum != sc.signum {
			t.Errorf("signum %d, want %d", signum, sc.signum)
		}
		sc.ncalls++
		if sc.oneShot {
			if sc.ncalls != 1 {
				t.Errorf("one-shot handle called %d times", sc.ncalls)
			}
			if h.IsActive() {
				t.Error("one-shot handle still active in its callback")
			}
			if sc.stopOrClose == sigClose {
				mustOK(t, h.Close(nil))
			}
			return
		}
		if sc.ncalls == nSignals {
			switch sc.stopOrClose {
			case sigStop:
				mustOK(t, h.Stop())
			case sigClose:
				mustOK(t, h.Close(nil))
			default:
				t.Error("unexpected")
			}
		}
	})
	mustOK(t, err)
	if oneShot {
		mustOK(t, sc.h.StartOneShot(signum))
	} else {
		mustOK(t, sc.h.Start(signum))
	}
}

// startTimer is libuv's start_timer: a 1 ms repeating timer that raises signum nSignals
// times, each once the handled count (*handled, all watchers' callbacks of the last raise)
// has caught up.
func startTimer(t *testing.T, l *uvloop.Loop, signum syscall.Signal, tc *timerCtx, handled func() bool) {
	t.Helper()
	tc.ncalls, tc.signum = 0, signum
	tc.h = l.NewTimer(func(h *uvloop.Timer) {
		if tc.ncalls > 0 && !handled() {
			return // the last raise is not handled yet
		}
		raise(t, tc.signum)
		if tc.ncalls++; tc.ncalls == nSignals {
			mustOK(t, h.Close(nil))
		}
	})
	mustOK(t, tc.h.Start(time.Millisecond, time.Millisecond))
}

func TestLibuvWeGetSignal(t *testing.T) {
	l := newLoop(t)
	var sc signalCtx
	var tc timerCtx
	// The last raise is handled once the watcher has seen as many as were raised; after
	// the watcher stops, raises are not watched any more and count as handled.
	handled := func() bool { return sc.ncalls >= tc.ncalls || !sc.h.IsActive() }
	startTimer(t, l, syscall.SIGCHLD, &tc, handled)
	startWatcher(t, l, syscall.SIGCHLD, &sc, false)
	sc.stopOrClose = sigStop // stop, don't close the signal handle
	mustRunMode(t, l, uvloop.RunDefault)
	if tc.ncalls != nSignals || sc.ncalls != nSignals {
		t.Fatalf("timer %d, signal %d calls; want %d", tc.ncalls, sc.ncalls, nSignals)
	}

	startTimer(t, l, syscall.SIGCHLD, &tc, handled)
	mustRunMode(t, l, uvloop.RunDefault)
	if tc.ncalls != nSignals || sc.ncalls != nSignals {
		t.Fatalf("stopped: timer %d, signal %d calls; want %d", tc.ncalls, sc.ncalls, nSignals)
	}

	sc.ncalls = 0
	sc.stopOrClose = sigClose // now close it when it's done
	mustOK(t, sc.h.Start(syscall.SIGCHLD))
	startTimer(t, l, syscall.SIGCHLD, &tc, handled)
	mustRunMode(t, l, uvloop.RunDefault)
	if tc.ncalls != nSignals || sc.ncalls != nSignals {
		t.Fatalf("restarted: timer %d, signal %d calls; want %d", tc.ncalls, sc.ncalls, nSignals)
	}
	mustOK(t, l.Close())
}

func TestLibuvWeGetSignals(t *testing.T) {
	l := newLoop(t)
	var sc [4]signalCtx
	var tc [2]timerCtx
	startWatcher(t, l, syscall.SIGUSR1, &sc[0], false)
	startWatcher(t, l, syscall.SIGUSR1, &sc[1], false)
	startWatcher(t, l, syscall.SIGUSR2, &sc[2], false)
	startWatcher(t, l, syscall.SIGUSR2, &sc[3], false)
	startTimer(t, l, syscall.SIGUSR1, &tc[0], func() bool { return sc[0].ncalls >= tc[0].ncalls && sc[1].ncalls >= tc[0].ncalls })
	startTimer(t, l, syscall.SIGUSR2, &tc[1], func() bool { return sc[2].ncalls >= tc[1].ncalls && sc[3].ncalls >= tc[1].ncalls })
	mustRunMode(t, l, uvloop.RunDefault)
	for i := range sc {
		if sc[i].ncalls != nSignals {
			t.Errorf("watcher %d: %d calls", i, sc[i].ncalls)
		}
	}
	for i := range tc {
		if tc[i].ncalls != nSignals {
			t.Errorf("timer %d: %d calls", i, tc[i].ncalls)
		}
	}
	mustOK(t, l.Close())
}

func TestLibuvWeGetSignalOneShot(t *testing.T) {
	l := newLoop(t)
	var sc signalCtx
	var tc timerCtx
	// With a one-shot watcher only the first raise is watched; the others need not wait.
	handled := func() bool { return sc.ncalls >= 1 }
	startTimer(t, l, syscall.SIGCHLD, &tc, handled)
	startWatcher(t, l, syscall.SIGCHLD, &sc, true)
	sc.stopOrClose = sigNoop
	mustRunMode(t, l, uvloop.RunDefault)
	if tc.ncalls != nSignals || sc.ncalls != 1 {
		t.Fatalf("timer %d, signal %d calls", tc.ncalls, sc.ncalls)
	}

	startTimer(t, l, syscall.SIGCHLD, &tc, handled)
	mustRunMode(t, l, uvloop.RunDefault)
	if sc.ncalls != 1 {
		t.Fatalf("stopped one-shot: %d calls", sc.ncalls)
	}

	sc.ncalls = 0
	sc.stopOrClose = sigClose // now close it when it's done
	mustOK(t, sc.h.StartOneShot(syscall.SIGCHLD))
	startTimer(t, l, syscall.SIGCHLD, &tc, handled)
	mustRunMode(t, l, uvloop.RunDefault)
	if tc.ncalls != nSignals || sc.ncalls != 1 {
		t.Fatalf("restarted: timer %d, signal %d calls", tc.ncalls, sc.ncalls)
	}
	mustOK(t, l.Close())
}

func TestLibuvWeGetSignalsMixed(t *testing.T) {
	l := newLoop(t)
	var sc [4]signalCtx
	var tc timerCtx
	// A raise is handled once every watcher still started has seen it.
	handled := func() bool {
		for i := range sc {
			if sc[i].h != nil && sc[i].h.IsActive() && sc[i].ncalls < tc.ncalls {
				return false
			}
		}
		return true
	}
	run := func(step string, want [4]int) {
		t.Helper()
		mustRunMode(t, l, uvloop.RunDefault)
		if tc.ncalls != nSignals {
			t.Errorf("%s: timer %d calls", step, tc.ncalls)
		}
		for i, w := range want {
			if w >= 0 && sc[i].ncalls != w {
				t.Errorf("%s: watcher %d: %d calls, want %d", step, i, sc[i].ncalls, w)
			}
		}
	}
	reset := func() { sc = [4]signalCtx{} }

	// 2 one-shot
	startTimer(t, l, syscall.SIGCHLD, &tc, handled)
	startWatcher(t, l, syscall.SIGCHLD, &sc[0], true)
	startWatcher(t, l, syscall.SIGCHLD, &sc[1], true)
	run("2 one-shot", [4]int{1, 1, -1, -1})

	// 2 one-shot, 1 normal then remove normal
	reset()
	startTimer(t, l, syscall.SIGCHLD, &tc, handled)
	startWatcher(t, l, syscall.SIGCHLD, &sc[0], true)
	startWatcher(t, l, syscall.SIGCHLD, &sc[1], true)
	startWatcher(t, l, syscall.SIGCHLD, &sc[2], false)
	mustOK(t, sc[2].h.Close(nil))
	run("2 one-shot, 1 normal removed", [4]int{1, 1, 0, -1})

	// 2 normal, 1 one-shot then remove one-shot
	reset()
	startTimer(t, l, syscall.SIGCHLD, &tc, handled)
	startWatcher(t, l, syscall.SIGCHLD, &sc[0], false)
	startWatcher(t, l, syscall.SIGCHLD, &sc[1], false)
	startWatcher(t, l, syscall.SIGCHLD, &sc[2], true)
	mustOK(t, sc[2].h.Close(nil))
	run("2 normal, 1 one-shot removed", [4]int{nSignals, nSignals, 0, -1})

	// 2 normal, 2 one-shot then remove 2 normal
	reset()
	startTimer(t, l, syscall.SIGCHLD, &tc, handled)
	startWatcher(t, l, syscall.SIGCHLD, &sc[0], false)
	startWatcher(t, l, syscall.SIGCHLD, &sc[1], false)
	startWatcher(t, l, syscall.SIGCHLD, &sc[2], true)
	startWatcher(t, l, syscall.SIGCHLD, &sc[3], true)
	mustOK(t, sc[0].h.Close(nil))
	mustOK(t, sc[1].h.Close(nil))
	run("2 normal removed, 2 one-shot", [4]int{0, 0, 1, 1})

	// 1 normal, 1 one-shot, 2 normal then remove 1st normal, 2nd normal
	reset()
	startTimer(t, l, syscall.SIGCHLD, &tc, handled)
	startWatcher(t, l, syscall.SIGCHLD, &sc[0], false)
	startWatcher(t, l, syscall.SIGCHLD, &sc[1], true)
	startWatcher(t, l, syscall.SIGCHLD, &sc[2], false)
	startWatcher(t, l, syscall.SIGCHLD, &sc[3], false)
	sc[1].stopOrClose = sigNoop
	mustOK(t, sc[0].h.Close(nil))
	mustOK(t, sc[2].h.Close(nil))
	run("mixed", [4]int{0, 1, 0, nSignals})
	closeLoop(t, l)
}

// signal_multiple_loops: 24 loops on their own goroutines watch SIGUSR1 (two handles),
// SIGUSR2, or both; each handle stops in its callback. Two rounds of one SIGUSR1 and one
// SIGUSR2 reach every handle, while 10 other goroutines create loops, start and close a
// SIGTERM handle and close the loops, over and over.
func TestLibuvSignalMultipleLoops(t *testing.T) {
	const handlers, creators = 24, 10
	var (
		mu               sync.Mutex
		sig1, sig2, made int
		stop             bool
	)
	ready := make(chan struct{}, handlers)
	errs := make(chan error, handlers+creators)
	var wg sync.WaitGroup

	for i := 0; i < creators; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				l, err := uvloop.New()
				if err != nil {
					errs <- err
					return
				}
				s, _ := l.NewSignal(func(*uvloop.Signal, syscall.Signal) { errs <- errors.New("SIGTERM handle called") })
				if err := s.Start(syscall.SIGTERM); err != nil {
					errs <- err
				}
				s.Close(nil)
				if _, err := l.Run(uvloop.RunDefault); err != nil {
					errs <- err
				}
				if err := l.Close(); err != nil {
					errs <- err
				}
				mu.Lock()
				made++
				done := stop
				mu.Unlock()
				if done {
					return
				}
			}
		}()
	}

	var hwg sync.WaitGroup
	for i := 0; i < handlers; i++ {
		hwg.Add(1)
		go func(action int) {
			defer hwg.Done()
			l, err := uvloop.New()
			if err != nil {
				errs <- err
				return
			}
			count := func(n *int, want syscall.Signal) func(*uvloop.Signal, syscall.Signal) {
				return func(h *uvloop.Signal, signum syscall.Signal) {
					if signum != want {
						errs <- errors.New("wrong signal")
					}
					mu.Lock()
					*n++
					mu.Unlock()
					h.Stop()
				}
			}
			var hs []*uvloop.Signal
			var nums []syscall.Signal
			add := func(n *int, sig syscall.Signal) {
				h, _ := l.NewSignal(count(n, sig))
				hs, nums = append(hs, h), append(nums, sig)
			}
			if action != 1 {
				add(&sig1, syscall.SIGUSR1)
				add(&sig1, syscall.SIGUSR1)
			}
			if action != 0 {
				add(&sig2, syscall.SIGUSR2)
			}
			for round := 0; round < 2; round++ {
				for i, h := range hs {
					if err := h.Start(nums[i]); err != nil {
						errs <- err
					}
				}
				ready <- struct{}{}
				if _, err := l.Run(uvloop.RunDefault); err != nil {
					errs <- err
				}
			}
			for _, h := range hs {
				h.Close(nil)
			}
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				errs <- err
			}
			if err := l.Close(); err != nil {
				errs <- err
			}
		}(i % 3)
	}

	for round := 0; round < 2; round++ {
		for i := 0; i < handlers; i++ {
			<-ready
		}
		raise(t, syscall.SIGUSR1)
		raise(t, syscall.SIGUSR2)
	}
	hwg.Wait()
	mu.Lock()
	stop = true
	mu.Unlock()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if want := 2 * 2 * 2 * handlers / 3; sig1 != want {
		t.Errorf("SIGUSR1 callbacks: %d, want %d", sig1, want)
	}
	if want := 2 * 2 * handlers / 3; sig2 != want {
		t.Errorf("SIGUSR2 callbacks: %d, want %d", sig2, want)
	}
	if made < creators {
		t.Errorf("loops created: %d, want at least %d", made, creators)
	}
}

// signal_close_loop_alive: an unref'd signal handle does not keep the loop alive, but once
// closed it does until its close callback has run.
func TestLibuvSignalCloseLoopAlive(t *testing.T) {
	l := newLoop(t)
	s, err := l.NewSignal(func(h *uvloop.Signal, _ syscall.Signal) { h.Loop().Stop() })
	mustOK(t, err)
	mustOK(t, s.Start(syscall.SIGPIPE))
	s.Unref()
	raise(t, syscall.SIGPIPE)
	mustRunMode(t, l, uvloop.RunDefault)
	closed := 0
	closeHandle(t, s, &closed)
	if !l.Alive() {
		t.Fatal("a closing signal handle does not keep the loop alive")
	}
	mustRunMode(t, l, uvloop.RunDefault)
	if closed != 1 {
		t.Fatalf("close callback ran %d times", closed)
	}
	mustOK(t, l.Close())
}

// signal_pending_on_close: a write that fails with EPIPE closes the pipe and the SIGPIPE
// handle in its callback; the handle's callback never runs after that.
func TestLibuvSignalPendingOnClose(t *testing.T) {
	l := newLoop(t)
	s, err := l.NewSignal(func(*uvloop.Signal, syscall.Signal) { t.Error("signal callback ran") })
	mustOK(t, err)
	mustOK(t, s.Start(syscall.SIGPIPE))
	var fds [2]int
	mustOK(t, syscall.Pipe(fds[:]))
	p, err := l.NewPipe()
	mustOK(t, err)
	mustOK(t, p.Open(fds[1]))
	buf := make([]byte, 1<<24)
	closed := 0
	mustOK(t, p.Write(buf, func(err error) {
		if !errors.Is(err, syscall.EPIPE) {
			t.Errorf("write: %v, want EPIPE", err)
		}
		p.Close(func() { closed++ })
		s.Close(func() { closed++ })
	}))
	syscall.Close(fds[0]) // a SIGPIPE on the next write
	mustRunMode(t, l, uvloop.RunDefault)
	if closed != 2 {
		t.Fatalf("%d close callbacks", closed)
	}
	mustOK(t, l.Close())
}

// kill_invalid_signum, for the handle: a signal number out of range, SIGKILL and SIGSTOP are
// refused with EINVAL, and the handle stays usable.
func TestLibuvSignalInvalidSignum(t *testing.T) {
	l := newLoop(t)
	s, err := l.NewSignal(func(*uvloop.Signal, syscall.Signal) {})
	mustOK(t, err)
	for _, sig := range []syscall.Signal{-1, 0, 4096, 65, syscall.SIGKILL, syscall.SIGSTOP} {
		if err := s.Start(sig); !errors.Is(err, syscall.EINVAL) {
			t.Errorf("Start(%d): %v, want EINVAL", sig, err)
		}
	}
	if s.IsActive() {
		t.Fatal("active after refused starts")
	}
	if _, err := l.NewSignal(nil); !errors.Is(err, uvloop.ErrNilCallback) {
		t.Errorf("NewSignal(nil): %v", err)
	}
	mustOK(t, s.Close(nil))
	if err := s.Start(syscall.SIGUSR1); !errors.Is(err, uvloop.ErrClosed) {
		t.Errorf("Start after Close: %v", err)
	}
	mustRunMode(t, l, uvloop.RunDefault)
	mustOK(t, l.Close())
}
