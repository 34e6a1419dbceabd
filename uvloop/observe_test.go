package uvloop_test

import (
	"bytes"
	"errors"
	"log/slog"
	"math"
	"runtime/trace"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

func newLoopWith(t testing.TB, opts ...uvloop.Option) *uvloop.Loop {
	t.Helper()
	l, err := uvloop.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Callbacks count in the phase that ran them; the drain after a callback is part of it.
func TestMetricsCallbacksPerPhase(t *testing.T) {
	l := newLoop(t)
	l.SetImmediate(func() { l.NextTick(func() {}) })
	l.SetImmediate(func() {})
	l.SetTimeout(func() {}, 0)
	idle := l.NewIdle(func(h *uvloop.Idle) { h.Stop() })
	mustOK(t, idle.Start())
	l.Post(func() {})
	runLoop(t, l)
	m := l.Metrics()
	for _, c := range []struct {
		phase uvloop.Phase
		min   uint64
	}{{uvloop.PhaseCheck, 2}, {uvloop.PhaseTimers, 1}, {uvloop.PhaseIdle, 1}, {uvloop.PhasePoll, 1}} {
		if got := m.Phases[c.phase].Callbacks; got < c.min {
			t.Errorf("%s: %d callbacks, want at least %d", c.phase, got, c.min)
		}
	}
	if m.Phases[uvloop.PhaseCheck].Callbacks != 2 {
		t.Errorf("check: %d callbacks, want 2 (ticks are not callbacks)", m.Phases[uvloop.PhaseCheck].Callbacks)
	}
	if m.LoopCount == 0 {
		t.Error("no iteration counted")
	}
	if m.Phases[uvloop.PhaseCheck].Time != 0 {
		t.Error("time measured without WithPhaseTiming")
	}
	closeLoop(t, l)
}

func TestMetricsQueueDepths(t *testing.T) {
	l := newLoop(t)
	l.NextTick(func() {})
	l.QueueMicrotask(func() {})
	l.QueueMicrotask(func() {})
	l.SetImmediate(func() {})
	l.SetTimeout(func() {}, time.Hour).Unref()
	iv := l.SetInterval(func() {}, time.Hour)
	tm := l.NewTimer(func(*uvloop.Timer) {})
	mustOK(t, tm.Start(time.Hour, 0))
	l.Post(func() {})
	l.RequestIdleCallback(func(uvloop.IdleDeadline) {}, 0)
	release := make(chan struct{})
	started := make(chan struct{})
	_, err := l.QueueWork(func() { close(started); <-release }, func(error) {})
	mustOK(t, err)
	<-started // the first worker is busy; the next item waits in the queue
	_, err = l.QueueWork(func() {}, func(error) {})
	mustOK(t, err)
	_, err = l.QueueWork(func() {}, func(error) {})
	mustOK(t, err)
	got := l.Metrics().Queues
	want := uvloop.QueueDepths{Ticks: 1, Microtasks: 2, Immediates: 1, Timeouts: 2, Timers: 1, Posted: 1, IdleCallbacks: 1}
	pool := got.PoolQueue
	got.PoolQueue = 0
	if got != want {
		t.Errorf("depths %+v, want %+v", got, want)
	}
	if pool > 2 { // the other workers may already have taken them
		t.Errorf("pool queue %d, want at most 2", pool)
	}
	res := l.ActiveResources()
	if res.Handles[uvloop.KindTimer] != 1 || res.Requests[uvloop.ReqWork] != 3 {
		t.Errorf("resources %+v", res)
	}
	close(release)
	l.ClearInterval(iv)
	tm.Close(nil)
	runLoop(t, l)
	if q := l.Metrics().Queues; q != (uvloop.QueueDepths{Timeouts: 1}) { // the unref'd hour
		t.Errorf("after the run: %+v", q)
	}
	if res := l.ActiveResources(); len(res.Handles) != 0 || len(res.Requests) != 0 || res.Refed != 0 {
		t.Errorf("after the run: %+v", res)
	}
	closeLoop(t, l)
}

// A wait that blocks counts as idle time; utilization follows Node's formulas.
func TestEventLoopUtilization(t *testing.T) {
	l := newLoop(t)
	if e := l.EventLoopUtilization(); e != (uvloop.ELU{}) {
		t.Fatalf("before Run: %+v", e)
	}
	l.SetTimeout(func() {}, 5*time.Millisecond)
	runLoop(t, l)
	m := l.Metrics()
	if m.IdleTime <= 0 {
		t.Fatalf("idle time %v after a 5 ms wait", m.IdleTime)
	}
	e1 := l.EventLoopUtilization()
	if e1.Idle != m.IdleTime || e1.Active <= 0 || e1.Utilization <= 0 || e1.Utilization >= 1 {
		t.Fatalf("elu %+v", e1)
	}
	if d := e1.Sub(e1); !math.IsNaN(d.Utilization) || d.Idle != 0 || d.Active != 0 {
		t.Errorf("e.Sub(e) = %+v, want zero times and NaN", d)
	}
	e2 := l.EventLoopUtilization()
	d := e2.Sub(e1)
	if d.Idle != 0 || d.Active <= 0 || d.Utilization != 1 {
		t.Errorf("delta without running %+v, want all active", d)
	}
	closeLoop(t, l)
}

func TestPhaseTiming(t *testing.T) {
	l := newLoopWith(t, uvloop.WithPhaseTiming())
	l.SetImmediate(func() { time.Sleep(2 * time.Millisecond) })
	l.SetTimeout(func() {}, 3*time.Millisecond)
	runLoop(t, l)
	m := l.Metrics()
	if got := m.Phases[uvloop.PhaseCheck].Time; got < 2*time.Millisecond {
		t.Errorf("check phase %v, want at least the 2 ms sleep (phases %+v)", got, m.Phases)
	}
	var sum time.Duration
	for _, p := range m.Phases {
		sum += p.Time
	}
	if m.Phases[uvloop.PhasePoll].Time < 0 || sum <= 0 {
		t.Errorf("phases %+v", m.Phases)
	}
	closeLoop(t, l)
}

// longSleeper holds the loop 20 ms: many ticks of the observer's goroutine (every 100 µs for
// a 1 ms threshold), so that one comes even on a loaded machine.
func longSleeper() { time.Sleep(20 * time.Millisecond) }

func TestLongTasks(t *testing.T) {
	var got []uvloop.LongTask
	l := newLoopWith(t, uvloop.WithLongTasks(time.Millisecond, func(lt uvloop.LongTask) { got = append(got, lt) }))
	l.SetTimeout(longSleeper, 0)
	l.SetImmediate(func() {
		l.QueueMicrotask(longSleeper) // the drain counts with its callback
	})
	runLoop(t, l)
	if len(got) != 2 {
		t.Fatalf("reports %v, want 2", got)
	}
	byPhase := map[uvloop.Phase]uvloop.LongTask{}
	for _, lt := range got {
		byPhase[lt.Phase] = lt
		if lt.Duration < 20*time.Millisecond {
			t.Errorf("%v: shorter than the sleep", lt)
		}
	}
	tm, ok := byPhase[uvloop.PhaseTimers]
	if !ok || !strings.HasSuffix(tm.Func, ".longSleeper") || !strings.HasSuffix(tm.File, "observe_test.go") || tm.Line == 0 {
		t.Errorf("timer's report %+v", tm)
	}
	im, ok := byPhase[uvloop.PhaseCheck]
	if !ok || !strings.Contains(im.Func, "TestLongTasks.func") {
		t.Errorf("immediate's report %+v", im)
	}
	closeLoop(t, l)
}

// Without a report function, long tasks go to the loop's logger.
func TestLongTasksLogged(t *testing.T) {
	var buf bytes.Buffer
	lg := slog.New(slog.NewTextHandler(&buf, nil))
	l := newLoopWith(t, uvloop.WithLongTasks(time.Millisecond, nil), uvloop.WithLogger(lg))
	l.SetImmediate(longSleeper)
	runLoop(t, l)
	if s := buf.String(); !strings.Contains(s, "level=WARN") || !strings.Contains(s, "long task") ||
		!strings.Contains(s, "phase=check") || !strings.Contains(s, "longSleeper") {
		t.Errorf("log %q", s)
	}
	if l.Logger() != lg {
		t.Error("Logger is not WithLogger's")
	}
	closeLoop(t, l)
}

// With an execution trace running, each phase is a region and a long callback a log event.
func TestTraceRegions(t *testing.T) {
	if trace.IsEnabled() {
		t.Skip("a trace is running already")
	}
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Fatal(err)
	}
	l := newLoop(t)
	l.SetImmediate(func() {})
	l.SetTimeout(func() { time.Sleep(time.Duration(1.2 * float64(uvloop.DefaultLongTask))) }, 0)
	l.Post(func() {})
	l.SetImmediate(func() { l.DeferPending(func() {}) })
	l.NewIdle(nil).Close(nil)
	runLoop(t, l)
	trace.Stop()
	for _, name := range []string{"uvloop.timers", "uvloop.check", "uvloop.poll", "uvloop.close", "uvloop.pending", "uvloop.longtask"} {
		if !bytes.Contains(buf.Bytes(), []byte(name)) {
			t.Errorf("the trace has no %q", name)
		}
	}
	closeLoop(t, l)
}

func TestDelayMonitor(t *testing.T) {
	l := newLoop(t)
	if _, err := l.NewDelayMonitor(-1); !errors.Is(err, uvloop.ErrNegativeDuration) {
		t.Fatalf("negative resolution: %v", err)
	}
	m, err := l.NewDelayMonitor(time.Millisecond)
	mustOK(t, err)
	if !math.IsNaN(m.Mean()) || m.Count() != 0 || m.Min() != 0 {
		t.Fatalf("empty monitor: mean %v count %d min %v", m.Mean(), m.Count(), m.Min())
	}
	if !m.Enable() || m.Enable() {
		t.Fatal("Enable reports wrong")
	}
	n := 0
	var tick func()
	tick = func() { // keep the loop alive for 6 samples or so, one of them delayed
		if n++; n == 3 {
			time.Sleep(5 * time.Millisecond)
		}
		if m.Count() < 6 {
			l.SetTimeout(tick, time.Millisecond)
		}
	}
	l.SetTimeout(tick, time.Millisecond)
	runLoop(t, l) // the monitor's timer is unref'd: the loop ends with tick
	if !m.Disable() || m.Disable() {
		t.Fatal("Disable reports wrong")
	}
	s := m.Snapshot()
	if s.Count < 6 || s.Min < time.Millisecond || s.Max < 5*time.Millisecond || s.Max < s.P99 || s.P50 < s.Min ||
		s.Mean < float64(s.Min) || s.Mean > float64(s.Max) || s.Stddev <= 0 || s.Exceeds != 0 {
		t.Errorf("stats %+v", s)
	}
	ps := m.Percentiles()
	if len(ps) < 2 || ps[0].Percentile != 0 || ps[len(ps)-1].Percentile != 100 || ps[len(ps)-1].Value > m.Max() || ps[len(ps)-1].Value < m.Max()*999/1000 || ps[0].Value != m.Min() {
		t.Errorf("percentiles %+v", ps)
	}
	m.Reset()
	if m.Count() != 0 || m.Max() != 0 {
		t.Errorf("after Reset: count %d max %v", m.Count(), m.Max())
	}
	closeLoop(t, l) // Close stops the monitor's timer: it is the loop's own
}

// An idle callback runs once the loop has nothing else to do, after timers due and
// immediates, with a deadline at the next timer; one requested in an idle period waits for
// the next one.
func TestRequestIdleCallback(t *testing.T) {
	l := newLoop(t)
	var log []string
	p := func(s string) { log = append(log, s) }
	var remaining time.Duration
	l.RequestIdleCallback(func(d uvloop.IdleDeadline) {
		p("idle 1")
		remaining = d.TimeRemaining()
		if d.DidTimeout() {
			p("timed out?")
		}
		l.RequestIdleCallback(func(uvloop.IdleDeadline) { p("idle 3 (from idle 1)") }, 0)
		l.SetImmediate(func() { p("immediate from idle 1") })
	}, 0)
	l.RequestIdleCallback(func(uvloop.IdleDeadline) { p("idle 2") }, 0)
	canceled := l.RequestIdleCallback(func(uvloop.IdleDeadline) { p("canceled") }, time.Millisecond)
	l.CancelIdleCallback(canceled)
	l.CancelIdleCallback(canceled)
	l.SetImmediate(func() { p("immediate") })
	l.SetTimeout(func() { p("timeout 0") }, 0)
	// 200 ms, so that a loaded machine does not reach it before the idle callbacks; the
	// deadline is then the 50 ms cap.
	l.SetTimeout(func() { p("timeout 200 ms") }, 200*time.Millisecond)
	time.Sleep(2 * time.Millisecond) // the 0 (1) ms timeout is due when Run starts
	runLoop(t, l)
	want := "timeout 0,immediate,idle 1,immediate from idle 1,idle 2,idle 3 (from idle 1),timeout 200 ms"
	if got := strings.Join(log, ","); got != want {
		t.Errorf("order\n got %s\nwant %s", got, want)
	}
	if remaining <= 0 || remaining > 50*time.Millisecond {
		t.Errorf("time remaining %v, want in (0, 50ms]", remaining)
	}
	if l.Metrics().Phases[uvloop.PhaseIdleCallbacks].Callbacks != 3 {
		t.Errorf("idle-callback phase counted %d", l.Metrics().Phases[uvloop.PhaseIdleCallbacks].Callbacks)
	}
	closeLoop(t, l)
}

// A loop that never idles runs an idle callback when its timeout elapses.
func TestRequestIdleCallbackTimeout(t *testing.T) {
	l := newLoop(t)
	var got *uvloop.IdleDeadline
	l.RequestIdleCallback(func(d uvloop.IdleDeadline) { got = &d }, 2*time.Millisecond)
	var spin func()
	spin = func() {
		if got == nil {
			l.SetImmediate(spin)
		}
	}
	l.SetImmediate(spin)
	runLoop(t, l)
	if got == nil || !got.DidTimeout() || got.TimeRemaining() != 0 {
		t.Fatalf("deadline %+v", got)
	}
	if l.Metrics().Phases[uvloop.PhaseIdleCallbacks].Callbacks != 0 {
		t.Error("ran in an idle period")
	}
	closeLoop(t, l)
}

// Close drops idle callbacks not yet run; RunNoWait never begins an idle period.
func TestRequestIdleCallbackClose(t *testing.T) {
	l := newLoop(t)
	ran := false
	l.RequestIdleCallback(func(uvloop.IdleDeadline) { ran = true }, time.Hour)
	if alive, err := l.Run(uvloop.RunNoWait); err != nil || !alive || ran {
		t.Fatalf("RunNoWait: alive %v err %v ran %v", alive, err, ran)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if l.RequestIdleCallback(func(uvloop.IdleDeadline) {}, 0) != nil || ran {
		t.Error("idle callback after Close")
	}
}

// With the clamp, timeouts nested deeper than 5 levels wait at least 4 ms, and so do the
// runs of an interval past its fifth; without it, Node's 1 ms stays.
func TestTimerNestingClamp(t *testing.T) {
	for _, clamp := range []bool{false, true} {
		var opts []uvloop.Option
		if clamp {
			opts = append(opts, uvloop.WithTimerNestingClamp())
		}
		l := newLoopWith(t, opts...)
		var delays []time.Duration
		var nest func()
		nest = func() {
			if len(delays) < 8 {
				delays = append(delays, uvloop.TimeoutDelay(l.SetTimeout(nest, 0)))
			}
		}
		nest()
		var ivDelays []time.Duration
		var iv *uvloop.Timeout
		iv = l.SetInterval(func() {
			if ivDelays = append(ivDelays, uvloop.TimeoutDelay(iv)); len(ivDelays) == 8 {
				l.ClearInterval(iv)
			}
		}, 0)
		l.SetImmediate(func() { // an immediate is no timer task: its timeouts start again at level 1
			if d := uvloop.TimeoutDelay(l.SetTimeout(func() {}, 0)); d != time.Millisecond {
				t.Errorf("timeout from an immediate waits %v", d)
			}
		})
		runLoop(t, l)
		ms, four := time.Millisecond, 4*time.Millisecond
		want := []time.Duration{ms, ms, ms, ms, ms, ms, ms, ms}
		wantIv := []time.Duration{ms, ms, ms, ms, ms, ms, ms, ms}
		if clamp {
			want = []time.Duration{ms, ms, ms, ms, ms, ms, four, four} // the 7th is set at level 6
			wantIv = want                                              // run 7 is armed by run 6, at level 6
		}
		if !slicesEqual(delays, want) || !slicesEqual(ivDelays, wantIv) {
			t.Errorf("clamp %v: nested %v, want %v; interval %v, want %v", clamp, delays, want, ivDelays, wantIv)
		}
		closeLoop(t, l)
	}
}

func slicesEqual(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Metrics and the observation hooks allocate nothing on the hot path.
func TestObserveAllocs(t *testing.T) {
	l := newLoopWith(t, uvloop.WithPhaseTiming(), uvloop.WithLongTasks(time.Hour, func(uvloop.LongTask) {}))
	l.NewAsync(nil)
	cb := func() {}
	allocs := testing.AllocsPerRun(100, func() {
		l.SetImmediate(cb)
		if _, err := l.Run(uvloop.RunNoWait); err != nil {
			t.Fatal(err)
		}
		_ = l.EventLoopUtilization()
	})
	if allocs != 0 {
		t.Errorf("%v allocs per iteration", allocs)
	}
	closeLoop(t, l)
}

// The buckets of Node's histogram (values printed by node for the same samples).
func TestDelayBuckets(t *testing.T) {
	for _, c := range []struct{ highest, lowest int64 }{
		{15056895, 15048704}, {7266303, 7262208}, {2047, 2047}, {1, 1}, {4095, 4094},
	} {
		if got := uvloop.LowestEquivalent(c.highest); got != c.lowest {
			t.Errorf("LowestEquivalent(%d) = %d, want %d", c.highest, got, c.lowest)
		}
	}
}

// An idle period ends at the next timer when it is nearer than the 50 ms cap: the time
// remaining is never beyond it (only the upper bound is certain on a loaded machine).
func TestRequestIdleCallbackNextTimer(t *testing.T) {
	l := newLoop(t)
	remaining := time.Duration(-1)
	l.RequestIdleCallback(func(d uvloop.IdleDeadline) { remaining = d.TimeRemaining() }, 0)
	l.SetTimeout(func() {}, 30*time.Millisecond)
	runLoop(t, l)
	if remaining < 0 || remaining > 30*time.Millisecond {
		t.Errorf("time remaining %v, want in [0, 30ms]", remaining)
	}
	closeLoop(t, l)
}

// A checkpoint requested with nothing queued (RequestCheckpoint) runs right after the callback
// that asked for it, once, and not after the callbacks that did not ask; also while phase
// timing or a trace shares the flag that carries the request.
func TestRequestCheckpoint(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []uvloop.Option
	}{
		{name: "plain"},
		{name: "timed", opts: []uvloop.Option{uvloop.WithPhaseTiming(), uvloop.WithLongTasks(time.Hour, func(uvloop.LongTask) {})}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLoopWith(t, tc.opts...)
			var got []string
			l.AddCheckpoint(func() bool { got = append(got, "checkpoint"); return false })
			l.SetImmediate(func() {
				got = append(got, "ask")
				l.RequestCheckpoint()
				// Set here, the timer cannot run before the immediates: set by the main
				// script, it did when the loop started a millisecond late (1 run in 25).
				l.SetTimeout(func() { got = append(got, "timeout"); l.RequestCheckpoint() }, 0)
			})
			l.SetImmediate(func() { got = append(got, "quiet") })
			l.RequestCheckpoint() // before Run: the drain of the main script runs it
			runLoop(t, l)
			want := "checkpoint ask checkpoint quiet timeout checkpoint"
			if s := strings.Join(got, " "); s != want {
				t.Errorf("ran %q, want %q", s, want)
			}
			closeLoop(t, l)
		})
	}
}
