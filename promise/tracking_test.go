package promise_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

func newLoop(t *testing.T) *uvloop.Loop {
	t.Helper()
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func closeLoop(t *testing.T, l *uvloop.Loop) {
	t.Helper()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

// The order of node's 'unhandledRejection' and 'rejectionHandled' (checked with node v20):
// sync, caught y, unhandled x, timer, caught x, handled.
func TestRejectionEvents(t *testing.T) {
	l := newLoop(t)
	lg := &logger{}
	promise.SetRejectionHook(l, func(ev promise.RejectionEvent) {
		if ev.Kind == promise.Unhandled {
			lg.log("unhandled", ev.Reason.Error())
		} else {
			lg.log("handled")
		}
	})
	p := promise.Reject[int](l, errors.New("x"))
	promise.Reject[int](l, errors.New("y")).Catch(func(error) (int, error) { lg.log("caught y"); return 0, nil })
	l.SetTimeout(func() {
		p.Catch(func(error) (int, error) { lg.log("caught x"); return 0, nil })
		lg.log("timer")
	}, 0)
	lg.log("sync")
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	closeLoop(t, l)
	want := "sync,caught y,unhandled x,timer,caught x,handled"
	if got := strings.Join(lg.lines, ","); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// In ModeThrow without a hook, Run returns the rejection at once, as node exits with it; a
// timer due later does not run.
func TestRejectionThrowEndsRun(t *testing.T) {
	l := newLoop(t)
	boom := errors.New("boom")
	ran := false
	tm := l.SetTimeout(func() { ran = true }, 10*time.Millisecond)
	l.SetTimeout(func() { promise.Reject[int](l, boom) }, 0) // no microtask queued: the checkpoint still runs
	_, err := l.Run(uvloop.RunDefault)
	var ue *promise.UnhandledRejectionError
	if !errors.As(err, &ue) || !errors.Is(err, boom) {
		t.Fatalf("Run: %v, want an UnhandledRejectionError wrapping boom", err)
	}
	if ran {
		t.Error("a later timer ran after the unhandled rejection")
	}
	l.ClearTimeout(tm)
	closeLoop(t, l)
}

func TestRejectionModes(t *testing.T) {
	for _, tc := range []struct {
		mode             promise.Mode
		hook, fail, warn bool
	}{
		{promise.ModeThrow, true, false, false},
		{promise.ModeStrict, true, true, false},
		{promise.ModeWarn, true, false, true},
		{promise.ModeWarn, false, false, true},
		{promise.ModeNone, false, false, false},
	} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			l := newLoop(t)
			rt := promise.RuntimeOf(l)
			rt.SetRejectionMode(tc.mode)
			var w strings.Builder
			rt.SetWarningOutput(&w)
			events := 0
			if tc.hook {
				rt.SetRejectionHook(func(promise.RejectionEvent) { events++ })
			}
			promise.Reject[int](l, errors.New("r"))
			_, err := l.Run(uvloop.RunDefault)
			if (err != nil) != tc.fail {
				t.Errorf("Run error %v, want failure %v", err, tc.fail)
			}
			if (w.Len() > 0) != tc.warn {
				t.Errorf("warning %q, want one: %v", w.String(), tc.warn)
			}
			if tc.hook && !tc.fail && events != 1 {
				t.Errorf("%d events, want 1", events)
			}
			closeLoop(t, l)
		})
	}
}

// A loop closed while async bodies are suspended unwinds them: their deferred functions run
// and no goroutine is left (goleak checks it in TestMain).
func TestCloseUnwindsSuspendedBodies(t *testing.T) {
	l := newLoop(t)
	unwound := 0
	for range 3 {
		never, _ := promise.WithResolvers[int](l)
		promise.Async(l, func() (int, error) {
			defer func() { unwound++ }()
			promise.Await(never)
			t.Error("resumed after Close")
			return 0, nil
		})
	}
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	closeLoop(t, l)
	if unwound != 3 {
		t.Errorf("%d bodies unwound, want 3", unwound)
	}
}

func TestAwaitOutsideAsync(t *testing.T) {
	l := newLoop(t)
	if _, err := promise.Await(promise.Resolve(l, 1)); !errors.Is(err, promise.ErrNotInAsync) {
		t.Errorf("got %v", err)
	}
	closeLoop(t, l)
}

func TestExecutorPanicAndCycle(t *testing.T) {
	l := newLoop(t)
	promise.SetRejectionMode(l, promise.ModeNone)
	p := promise.New(l, func(func(int), func(error)) { panic("oops") })
	var ve *promise.ValueError
	if !errors.As(p.Err(), &ve) || ve.Value != "oops" {
		t.Errorf("executor panic: %v", p.Err())
	}
	q := promise.New(l, func(resolve func(int), _ func(error)) { resolve(1); panic("ignored") })
	var self *promise.Promise[int]
	self = promise.Chain(q, func(int) promise.Thenable[int] { return self }, nil)
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if q.Value() != 1 || !errors.Is(self.Err(), promise.ErrCycle) {
		t.Errorf("q=%v self=%v", q, self)
	}
	closeLoop(t, l)
}

// A Remote keeps the loop alive until another goroutine settles it; Wait waits from outside.
func TestRemoteAndWait(t *testing.T) {
	l := newLoop(t)
	p, rem, err := promise.WithRemote[string](l)
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	promise.Then(p, func(s string) (int, error) { got = s; return 0, nil }, nil)
	go func() {
		time.Sleep(5 * time.Millisecond)
		rem.Resolve("from afar")
	}()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if got != "from afar" {
		t.Errorf("got %q", got)
	}

	q, rem2, _ := promise.WithRemote[int](l)
	res := make(chan error, 1)
	go func() {
		v, err := q.Wait(context.Background())
		if err == nil && v != 42 {
			err = errors.New("wrong value")
		}
		res <- err
	}()
	go func() { time.Sleep(5 * time.Millisecond); rem2.Resolve(42) }()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if err := <-res; err != nil {
		t.Error(err)
	}
	closeLoop(t, l)
}

func TestRejectOnDone(t *testing.T) {
	l := newLoop(t)
	p, rem, _ := promise.WithRemote[int](l)
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := promise.RejectOnDone(ctx, p); err != nil {
		t.Fatal(err)
	}
	p.Catch(func(error) (int, error) { return 0, nil })
	cancel()
	l.SetTimeout(func() { rem.Resolve(1) }, 20*time.Millisecond) // too late: it does nothing
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(p.Err(), context.Canceled) {
		t.Errorf("p = %v, want rejected with context.Canceled", p)
	}
	closeLoop(t, l)
}

// Without SetWarningOutput, warnings go to the loop's logger (uvloop.WithLogger), or to
// SetLogger's.
func TestWarningsLogged(t *testing.T) {
	var buf strings.Builder
	l, err := uvloop.New(uvloop.WithLogger(slog.New(slog.NewTextHandler(&buf, nil))))
	if err != nil {
		t.Fatal(err)
	}
	rt := promise.RuntimeOf(l)
	rt.SetRejectionMode(promise.ModeWarn)
	promise.Reject[int](l, errors.New("nobody listens"))
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); !strings.Contains(s, "level=WARN") || !strings.Contains(s, "UnhandledPromiseRejectionWarning: nobody listens") {
		t.Errorf("loop's log %q", s)
	}
	var own strings.Builder
	rt.SetLogger(slog.New(slog.NewTextHandler(&own, nil)))
	promise.Reject[int](l, errors.New("again"))
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(own.String(), "again") || strings.Contains(buf.String(), "again") {
		t.Errorf("SetLogger's log %q; loop's %q", own.String(), buf.String())
	}
	closeLoop(t, l)
}
