package uvloop_test

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Signals on both backends (review rev8-pollsig), plain and own thread (rev7Diff): the
// order against I/O in one iteration, handles stopped or closed by other callbacks, and the
// wait in the kernel (io_uring: the ring's io_uring_enter) that a signal or a child's exit
// ends.

// rev8Signal makes and starts a handle for sig that logs "name signum".
func rev8Signal(t *testing.T, l *uvloop.Loop, sig syscall.Signal, name string, log *[]string, then func(s *uvloop.Signal)) *uvloop.Signal {
	t.Helper()
	s, err := l.NewSignal(func(s *uvloop.Signal, signum syscall.Signal) {
		*log = append(*log, fmt.Sprintf("%s %d", name, signum))
		if then != nil {
			then(s)
		}
	})
	mustOK(t, err)
	mustOK(t, s.Start(sig))
	return s
}

// rev8RaiseCounted raises sig and waits until l has counted its delivery (the hub's
// goroutine counts it), so that the next iteration runs it.
func rev8RaiseCounted(t *testing.T, l *uvloop.Loop, sig syscall.Signal) {
	t.Helper()
	before := l.SignalPending(sig)
	raise(t, sig)
	// Counted, and its wake-up queued: the hub counts, then sends the loop's Async, and a
	// wake-up queued only while the next poll phase's I/O callbacks run waits for the
	// phase after (as libuv's signal pipe written then).
	for l.SignalPending(sig) == before || !l.WakeupsQueued() {
		runtime.Gosched()
	}
}

// TestRev8SignalAfterIODiff: a delivery counted before an iteration whose poll phase also
// has I/O runs after the I/O callbacks of that phase, and before its check phase.
func TestRev8SignalAfterIODiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, b := newSocketpair(t)
		_, err := unix.Write(b, []byte("x"))
		mustOK(t, err)
		var log []string
		p := rev8Poll(t, l, a, "poll", &log, nil)
		mustOK(t, p.Start(uvloop.Readable))
		s := rev8Signal(t, l, syscall.SIGUSR1, "signal", &log, nil)
		c := l.NewCheck(func(*uvloop.Check) { log = append(log, "check") })
		mustOK(t, c.Start())
		rev8Iter(t, l, &log, 0)
		rev8RaiseCounted(t, l, syscall.SIGUSR1)
		rev8Iter(t, l, &log, 1)
		mustOK(t, p.Close(nil))
		mustOK(t, s.Close(nil))
		mustOK(t, c.Close(nil))
		return log
	})
}

// TestRev8SignalStoppedByOthersDiff: a Poll callback stops a handle whose delivery is
// counted (it does not run: the count goes with its last handle); a signal handle closes
// another of the same signal before its turn (it does not run, the third does).
func TestRev8SignalStoppedByOthersDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, b := newSocketpair(t)
		_, err := unix.Write(b, []byte("x"))
		mustOK(t, err)
		var log []string
		var s2, s4 *uvloop.Signal
		p := rev8Poll(t, l, a, "poll", &log, func(p *uvloop.Poll, _ uvloop.Events) {
			mustOK(t, s4.Stop())
			mustOK(t, p.Stop())
		})
		s1 := rev8Signal(t, l, syscall.SIGUSR1, "s1", &log, func(*uvloop.Signal) {
			if !s2.IsClosing() {
				mustOK(t, s2.Close(nil))
			}
		})
		s2 = rev8Signal(t, l, syscall.SIGUSR1, "s2", &log, nil)
		s3 := rev8Signal(t, l, syscall.SIGUSR1, "s3", &log, nil)
		s4 = rev8Signal(t, l, syscall.SIGUSR2, "s4", &log, nil)
		rev8RaiseCounted(t, l, syscall.SIGUSR1)
		rev8RaiseCounted(t, l, syscall.SIGUSR2)
		mustOK(t, p.Start(uvloop.Readable))
		rev8Iter(t, l, &log, 0)
		log = append(log, fmt.Sprintf("s2 closing %v, s4 active %v", s2.IsClosing(), s4.IsActive()))
		rev8RaiseCounted(t, l, syscall.SIGUSR1)
		rev8Iter(t, l, &log, 1)
		for _, h := range []uvloop.Handle{p, s1, s3, s4} {
			mustOK(t, h.Close(nil))
		}
		return log
	})
}

// TestRev8SignalWakesKernelWaitDiff: the loop waits in the kernel (a Poll handle is
// registered, nothing is ready); a signal raised by another goroutine ends the wait and its
// callback runs in that iteration or a later one; then a child's exit ends the next wait.
func TestRev8SignalWakesKernelWaitDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, _ := newSocketpair(t)
		var log []string
		p := rev8Poll(t, l, a, "poll", &log, nil)
		mustOK(t, p.Start(uvloop.Readable))
		p.Unref()
		s := rev8Signal(t, l, syscall.SIGUSR1, "signal", &log, func(s *uvloop.Signal) { mustOK(t, s.Stop()) })
		go syscall.Kill(os.Getpid(), syscall.SIGUSR1)
		for s.IsActive() {
			mustRunMode(t, l, uvloop.RunOnce)
		}
		exited := false
		_, err := l.Spawn(&uvloop.ProcessOptions{File: "/bin/sh", Args: []string{"sh", "-c", "exit 3"},
			OnExit: func(c *uvloop.Process, status int64, sig syscall.Signal) {
				log = append(log, fmt.Sprintf("exit %d %d", status, sig))
				exited = true
				c.Close(nil)
			}})
		mustOK(t, err)
		for !exited {
			mustRunMode(t, l, uvloop.RunOnce)
		}
		mustOK(t, p.Close(nil))
		mustOK(t, s.Close(nil))
		log = append(log, fmt.Sprintf("alive %v", mustRunMode(t, l, uvloop.RunDefault)))
		return log
	})
}
