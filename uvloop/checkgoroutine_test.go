package uvloop_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// panicFromAnotherGoroutine runs call on a new goroutine while l runs, and returns what it
// panicked with ("" if it did not).
func panicFromAnotherGoroutine(t *testing.T, l *uvloop.Loop, call func()) string {
	t.Helper()
	var got string
	a := l.NewAsync(func(a *uvloop.Async) { a.Close(nil) })
	l.SetImmediate(func() {
		go func() {
			defer a.Send()
			defer func() {
				if r := recover(); r != nil {
					got = fmt.Sprint(r)
				}
			}()
			call()
		}()
	})
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestCheckGoroutineMisplacedCalls(t *testing.T) {
	if !uvloop.CheckingGoroutines {
		t.Skip("needs the uvgo_checkgoroutine build tag (TestCheckGoroutineBuild runs it)")
	}
	if !uvloop.CheckingGoroutines {
		t.Fatal("CheckingGoroutines is false with the uvgo_checkgoroutine tag")
	}
	tests := []struct {
		name string
		op   string // named in the message
		call func(l *uvloop.Loop, tm *uvloop.Timer)
	}{
		{"SetTimeout", "SetTimeout", func(l *uvloop.Loop, _ *uvloop.Timer) { l.SetTimeout(func() {}, time.Millisecond) }},
		{"NextTick", "NextTick", func(l *uvloop.Loop, _ *uvloop.Timer) { l.NextTick(func() {}) }},
		{"QueueMicrotask", "QueueMicrotask", func(l *uvloop.Loop, _ *uvloop.Timer) { l.QueueMicrotask(func() {}) }},
		{"SetImmediate", "SetImmediate", func(l *uvloop.Loop, _ *uvloop.Timer) { l.SetImmediate(func() {}) }},
		{"NewTimer", "New", func(l *uvloop.Loop, _ *uvloop.Timer) { l.NewTimer(func(*uvloop.Timer) {}) }},
		{"Timer.Start", "handle method", func(_ *uvloop.Loop, tm *uvloop.Timer) { tm.Start(time.Hour, 0) }},
		{"Timer.Stop", "Stop", func(_ *uvloop.Loop, tm *uvloop.Timer) { tm.Stop() }},
		{"Close", "Close", func(_ *uvloop.Loop, tm *uvloop.Timer) { tm.Close(nil) }},
		{"Stop", "Stop", func(l *uvloop.Loop, _ *uvloop.Timer) { l.Stop() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLoop(t)
			tm := l.NewTimer(func(*uvloop.Timer) {})
			got := panicFromAnotherGoroutine(t, l, func() { tt.call(l, tm) })
			for _, want := range []string{tt.op, "only Post and Async.Send", "uvgo_checkgoroutine"} {
				if !strings.Contains(got, want) {
					t.Errorf("panic %q does not say %q", got, want)
				}
			}
			tm.Close(nil)
			closeLoop(t, l)
		})
	}
}

// Post and Async.Send are for other goroutines; between runs any goroutine may set up.
func TestCheckGoroutineAllowed(t *testing.T) {
	if !uvloop.CheckingGoroutines {
		t.Skip("needs the uvgo_checkgoroutine build tag (TestCheckGoroutineBuild runs it)")
	}
	l := newLoop(t)
	if got := panicFromAnotherGoroutine(t, l, func() { l.Post(func() {}) }); got != "" {
		t.Fatalf("Post panicked: %s", got)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.SetTimeout(func() {}, time.Millisecond)
		l.NextTick(func() {})
	}()
	<-done
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	closeLoop(t, l)
}

// Async bodies run on coroutines that the loop goroutine switches to: they count as the
// loop goroutine, also when their coroutine was made in an earlier run.
func TestCheckGoroutineAsyncBodies(t *testing.T) {
	if !uvloop.CheckingGoroutines {
		t.Skip("needs the uvgo_checkgoroutine build tag (TestCheckGoroutineBuild runs it)")
	}
	l := newLoop(t)
	var got []string
	for run := range 3 {
		promise.Async(l, func() (int, error) {
			l.NextTick(func() { got = append(got, fmt.Sprint("tick ", run)) })
			p, r := promise.WithResolvers[int](l)
			l.SetTimeout(func() { r.Resolve(run) }, time.Millisecond)
			v, err := promise.Await(p)
			l.SetImmediate(func() { got = append(got, fmt.Sprint("immediate ", v)) })
			return v, err
		})
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 6 {
		t.Fatalf("got %q", got)
	}
	closeLoop(t, l)
}
