package uvloop_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Stopping the last handle of a signal gives the signal its default action back, as libuv's
// uv__signal_unregister_handler sets SIG_DFL: a delivery after it ends the process as the
// signal's default does. The child of the test watches sig, raises it (the callback runs and
// closes the handle), raises it again, and must die of it. For SIGTERM Go's own default does
// that. For SIGUSR2 and SIGALRM (and SIGIO, SIGPWR, SIGXCPU, ...) it does not: Go's runtime
// keeps its handler after signal.Stop and does nothing with a signal nobody is notified of,
// so uvgo's child survives and prints "survived" where libuv's (and node's) dies. That is a
// known fault: os/signal has no way to give a signal SIG_DFL back, and setting it behind the
// runtime's back breaks a later signal.Notify of the program's own.
//
// A signal of the kind that kills the process ends it at once; the sleep is a deadlock guard.
func TestRev9SignalStopRestoresDefault(t *testing.T) {
	if name := os.Getenv("UVGO_REV9_SIGDFL_CHILD"); name != "" {
		rev9SigDflChild(t, name)
		return
	}
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
	}{{"SIGTERM", syscall.SIGTERM}, {"SIGUSR2", syscall.SIGUSR2}, {"SIGALRM", syscall.SIGALRM}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.sig != syscall.SIGTERM {
				t.Skip("KNOWN: after the last Signal handle of " + tc.name + " stops, Go's runtime catches and drops it; libuv restores SIG_DFL and the process dies")
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestRev9SignalStopRestoresDefault$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), "UVGO_REV9_SIGDFL_CHILD="+tc.name)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("the child did not die: %v\n%s", err, out)
			}
			ws := ee.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != tc.sig {
				t.Errorf("the child ended with %v, want death by %v\n%s", ws, tc.sig, out)
			}
		})
	}
}

func rev9SigDflChild(t *testing.T, name string) {
	sig := map[string]syscall.Signal{"SIGTERM": syscall.SIGTERM, "SIGUSR2": syscall.SIGUSR2, "SIGALRM": syscall.SIGALRM}[name]
	l := newLoop(t)
	s, err := l.NewSignal(func(s *uvloop.Signal, signum syscall.Signal) {
		fmt.Println("got", signum)
		s.Close(nil)
	})
	mustOK(t, err)
	mustOK(t, s.Start(sig))
	raise(t, sig)
	mustRunMode(t, l, uvloop.RunDefault)
	mustOK(t, l.Close())
	raise(t, sig)
	time.Sleep(2 * time.Second) // a deadlock guard only: the signal ends the process at once
	fmt.Println("survived")
}

// A Signal handle of SIGCHLD beside children (libuv's own SIGCHLD handler and a user's
// handle both see it): each child's exit is reported, with its status, and the handle's
// callback runs (at least once: the kernel merges close deliveries); on both backends,
// plain and own thread. The handle is closed once both have happened, which ends the loop;
// a guard timer (unref'd, 10 s, a deadlock guard only) fails the test if SIGCHLD never came.
func TestRev9SignalSIGCHLDBesideProcessesDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var log []string
		chld, left := 0, 3
		var s *uvloop.Signal
		guard := l.SetTimeout(func() { t.Error("no SIGCHLD in 10 s"); s.Close(nil) }, 10*time.Second)
		guard.Unref()
		maybeDone := func() {
			if left == 0 && chld > 0 && !s.IsClosing() {
				s.Close(nil)
				l.ClearTimeout(guard)
			}
		}
		s, err := l.NewSignal(func(*uvloop.Signal, syscall.Signal) { chld++; maybeDone() })
		mustOK(t, err)
		mustOK(t, s.Start(syscall.SIGCHLD))
		for i := range 3 {
			_, err := l.Spawn(&uvloop.ProcessOptions{File: "/bin/sh", Args: []string{"sh", "-c", fmt.Sprintf("exit %d", i+4)},
				OnExit: func(p *uvloop.Process, status int64, sig syscall.Signal) {
					log = append(log, fmt.Sprintf("exit %d %d", status, sig))
					p.Close(nil)
					left--
					maybeDone()
				}})
			mustOK(t, err)
		}
		mustRunMode(t, l, uvloop.RunDefault)
		slices.Sort(log)
		return log
	})
}

// One signal watched by loops of every mode at once, each run by a goroutine of its own:
// one delivery runs each loop's handle once (uv_signal_t on several loops), whatever its
// backend and thread. Each handle closes itself, which ends its loop; a guard timer
// (unref'd, 10 s, a deadlock guard only) fails the test for a loop that never heard it.
func TestRev9SignalEveryModeAtOnce(t *testing.T) {
	type run struct {
		name string
		l    *uvloop.Loop
		got  int
	}
	var runs []*run
	for _, m := range []struct {
		name string
		opts []uvloop.Option
	}{
		{"epoll", []uvloop.Option{uvloop.WithBackend(uvloop.BackendEpoll)}},
		{"io_uring", []uvloop.Option{uvloop.WithBackend(uvloop.BackendIOURing)}},
		{"epoll+own", []uvloop.Option{uvloop.WithBackend(uvloop.BackendEpoll), uvloop.WithOwnThread()}},
		{"io_uring+own", []uvloop.Option{uvloop.WithBackend(uvloop.BackendIOURing), uvloop.WithOwnThread()}},
	} {
		l, err := uvloop.New(m.opts...)
		if errors.Is(err, errors.ErrUnsupported) {
			continue
		}
		mustOK(t, err)
		r := &run{name: m.name, l: l}
		s, err := l.NewSignal(func(s *uvloop.Signal, _ syscall.Signal) { r.got++; s.Close(nil) })
		mustOK(t, err)
		mustOK(t, s.Start(syscall.SIGUSR1))
		g := l.SetTimeout(func() { t.Errorf("%s: no SIGUSR1 in 10 s", r.name); s.Close(nil) }, 10*time.Second)
		g.Unref()
		runs = append(runs, r)
	}
	done := make(chan *run)
	for _, r := range runs {
		go func() {
			if _, err := r.l.Run(uvloop.RunDefault); err != nil {
				t.Errorf("%s: %v", r.name, err)
			}
			done <- r
		}()
	}
	raise(t, syscall.SIGUSR1)
	for range runs {
		r := <-done
		if r.got != 1 {
			t.Errorf("%s: the handle ran %d times", r.name, r.got)
		}
		mustOK(t, r.l.Close())
	}
}
