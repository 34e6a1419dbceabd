package uvloop_test

import (
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

func newLoop(t testing.TB) *uvloop.Loop {
	t.Helper()
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// closeLoop closes every handle, runs the loop until their close callbacks ran, and closes it.
func closeLoop(t testing.TB, l *uvloop.Loop) {
	t.Helper()
	l.Walk(func(h uvloop.Handle) {
		if !h.IsClosing() {
			h.Close(nil)
		}
	})
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatalf("run to close: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
}

func TestSmokeOrder(t *testing.T) {
	l := newLoop(t)
	var log []string
	p := func(s string) { log = append(log, s) }
	l.SetTimeout(func() { p("timeout") }, 0)
	l.SetImmediate(func() { p("immediate") })
	l.NextTick(func() { p("tick") })
	l.QueueMicrotask(func() { p("micro") })
	tm := l.NewTimer(func(*uvloop.Timer) { p("uvtimer") })
	tm.Start(5*time.Millisecond, 0)
	p("main")
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(log, " ")
	if got != "main tick micro timeout immediate uvtimer" && got != "main tick micro immediate timeout uvtimer" {
		t.Fatalf("got %q", got)
	}
	closeLoop(t, l)
}

func TestSmokeAsyncPost(t *testing.T) {
	l := newLoop(t)
	n := 0
	var a *uvloop.Async
	a = l.NewAsync(func(*uvloop.Async) {
		n++
		a.Close(nil)
	})
	go a.Send()
	done := false
	go l.Post(func() { done = true })
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	for !done {
		l.Run(uvloop.RunOnce)
	}
	if n != 1 {
		t.Fatalf("async callback ran %d times, want 1", n)
	}
	closeLoop(t, l)
}
