package uvloop_test

import (
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// TestAsyncOnLockedLoop: Async bodies on a loop WithLockOSThread. The runtime lets a
// coroutine run only with the thread-lock state it was made with, and such a loop's goroutine
// is locked only while Run runs, on another thread at each Run; so promise runs the bodies on
// goroutines (promise.ThreadLocker). Here a body starts before Run and resumes in it, one
// suspends across two Runs on two threads, and one suspended at Close is unwound. (On
// coroutines the first resumption was a fatal error: "coro: OS thread locking must match
// locking at coroutine creation".)
func TestAsyncOnLockedLoop(t *testing.T) {
	l := newLoopWith(t, uvloop.WithLockOSThread())
	if !l.LocksOSThread() && os.Getenv(uvloop.OwnThreadEnv) != "1" { // (a loop of its own thread runs them on coroutines: the same scenario)
		t.Fatal("LocksOSThread false WithLockOSThread")
	}
	var log []string
	// after resolves with v from a timer of l, d milliseconds after it is made.
	after := func(ms int, v string) *promise.Promise[string] {
		return promise.New(l, func(resolve func(string), _ func(error)) {
			tm := l.NewTimer(func(tm *uvloop.Timer) { tm.Close(nil); resolve(v) })
			mustOK(t, tm.Start(time.Duration(ms)*time.Millisecond, 0))
		})
	}
	// Before Run, unlocked: the body runs up to its Await now, and resumes in Run.
	first := promise.Async(l, func() (string, error) {
		log = append(log, "first starts")
		v, err := promise.Await(after(1, "a"))
		log = append(log, "first resumes with "+v)
		return v, err
	})
	var resolveGate func(string)
	gate := promise.New(l, func(resolve func(string), _ func(error)) { resolveGate = resolve })
	var second *promise.Promise[string]
	// The first Run, on a thread that stays locked after it (so the second Run is on another).
	ran := make(chan error)
	release := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		l.SetImmediate(func() {
			second = promise.Async(l, func() (string, error) {
				log = append(log, "second starts")
				v, err := promise.Await(gate)
				log = append(log, "second resumes with "+v)
				return v, err
			})
		})
		stop := l.NewTimer(func(tm *uvloop.Timer) { tm.Close(nil); l.Stop() })
		mustOK(t, stop.Start(20*time.Millisecond, 0))
		_, err := l.Run(uvloop.RunDefault)
		ran <- err
		<-release
	}()
	mustOK(t, <-ran)
	// The second Run resolves the gate; a third body is left suspended for Close.
	unwound := false
	go func() {
		l.SetImmediate(func() {
			resolveGate("b")
			promise.Async(l, func() (string, error) {
				defer func() { unwound = true }()
				return promise.Await(promise.New(l, func(func(string), func(error)) {}))
			})
		})
		_, err := l.Run(uvloop.RunDefault)
		ran <- err
	}()
	mustOK(t, <-ran)
	close(release)
	// Each body's steps in order (the first one's timer and the second one's immediate may
	// come in either order, by how long the first Run took to start).
	firstLog := slices.DeleteFunc(slices.Clone(log), func(s string) bool { return s[0] != 'f' })
	secondLog := slices.DeleteFunc(slices.Clone(log), func(s string) bool { return s[0] != 's' })
	if !slices.Equal(firstLog, []string{"first starts", "first resumes with a"}) ||
		!slices.Equal(secondLog, []string{"second starts", "second resumes with b"}) || len(log) != 4 {
		t.Errorf("log %q", log)
	}
	for _, p := range []*promise.Promise[string]{first, second} {
		if v, err := p.Result(); err != nil || v == "" {
			t.Errorf("result %q, %v", v, err)
		}
	}
	closeLoop(t, l)
	if !unwound {
		t.Error("the body suspended at Close was not unwound")
	}
}

// TestAsyncOnLockedLoopCallsLoop: bodies of a locked loop use the loop from their own
// goroutines, as coroutines do, also where the goroutine was made by another one than the
// loop's (a body started before Run, a body started by a body); under the
// uvgo_checkgoroutine tag the owner check must accept them (the loop's goroutine then waits
// "[chan receive, locked to thread]").
func TestAsyncOnLockedLoopCallsLoop(t *testing.T) {
	l := newLoopWith(t, uvloop.WithLockOSThread())
	ran := 0
	before := promise.Async(l, func() (int, error) {
		v, err := promise.Await(promise.New(l, func(resolve func(int), _ func(error)) {
			tm := l.NewTimer(func(tm *uvloop.Timer) { tm.Close(nil); resolve(1) })
			mustOK(t, tm.Start(time.Millisecond, 0))
		}))
		l.SetImmediate(func() { ran++ })
		return v, err
	})
	l.SetImmediate(func() {
		promise.Async(l, func() (int, error) {
			promise.Async(l, func() (int, error) {
				l.SetImmediate(func() { ran++ })
				return 0, nil
			})
			return 0, nil
		})
	})
	done := make(chan error)
	go func() { _, err := l.Run(uvloop.RunDefault); done <- err }()
	mustOK(t, <-done)
	if _, err := before.Result(); err != nil || ran != 2 {
		t.Errorf("result %v, immediates run %d, want 2", err, ran)
	}
	closeLoop(t, l)
}
