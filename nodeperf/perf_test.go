package nodeperf_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodeperf"
	"github.com/uvgo/uvgo/uvloop"
)

func newLoop(t *testing.T) *uvloop.Loop {
	t.Helper()
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Error(err)
		}
	})
	return l
}

func TestEventLoopUtilization(t *testing.T) {
	l := newLoop(t)
	if e := nodeperf.EventLoopUtilization(l); e != (nodeperf.ELU{}) {
		t.Fatalf("before the loop ran: %+v", e)
	}
	var u1, u2 nodeperf.ELU
	l.SetTimeout(func() { u1 = nodeperf.EventLoopUtilization(l) }, time.Millisecond)
	l.SetTimeout(func() { u2 = nodeperf.EventLoopUtilization(l) }, 20*time.Millisecond)
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if u2.Idle <= u1.Idle || u2.Active < u1.Active || u2.Utilization <= 0 || u2.Utilization >= 1 {
		t.Errorf("u1 %+v u2 %+v", u1, u2)
	}
	d := nodeperf.EventLoopUtilization(l, u2, u1)
	if math.Abs(d.Idle-(u2.Idle-u1.Idle)) > 1e-9 || math.Abs(d.Utilization-d.Active/(d.Idle+d.Active)) > 1e-12 {
		t.Errorf("two-argument form %+v", d)
	}
	since := nodeperf.EventLoopUtilization(l, u2)
	if since.Idle != 0 || since.Active <= 0 {
		t.Errorf("since u2 without running: %+v", since)
	}
	if same := nodeperf.EventLoopUtilization(l, u1, u1); !math.IsNaN(same.Utilization) {
		t.Errorf("u1 - u1 = %+v, want NaN utilization", same)
	}
}

func TestMonitorEventLoopDelay(t *testing.T) {
	l := newLoop(t)
	_, err := nodeperf.MonitorEventLoopDelay(l, nodeperf.MonitorOptions{Resolution: -1})
	var ne *nodeperf.Error
	if !errors.As(err, &ne) || ne.Code != "ERR_OUT_OF_RANGE" {
		t.Fatalf("resolution -1: %v", err)
	}
	h, err := nodeperf.MonitorEventLoopDelay(l, nodeperf.MonitorOptions{Resolution: 1})
	if err != nil {
		t.Fatal(err)
	}
	if h.Min() != math.MaxInt64 || h.Max() != 0 || !math.IsNaN(h.Mean()) || h.Count() != 0 {
		t.Errorf("empty: min %d max %d mean %v", h.Min(), h.Max(), h.Mean())
	}
	if ps := h.Percentiles(); len(ps) != 1 || ps[100] != 0 {
		t.Errorf("empty percentiles %v", ps)
	}
	if _, err := h.Percentile(0); !errors.As(err, &ne) {
		t.Errorf("percentile 0: %v", err)
	}
	if !h.Enable() || h.Enable() {
		t.Error("enable")
	}
	slept := false
	var tick func()
	tick = func() { // keep the loop alive until 3 samples, sleeping once after the first
		if h.Count() >= 1 && !slept {
			slept = true
			time.Sleep(5 * time.Millisecond)
		}
		if !slept || h.Count() < 3 {
			l.SetTimeout(tick, time.Millisecond)
		}
	}
	l.SetTimeout(tick, time.Millisecond)
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if !h.Disable() || h.Disable() {
		t.Error("disable")
	}
	p100, err := h.Percentile(100)
	// Min is not checked against the resolution: the timer repeats from the loop's cached time
	// (libuv's repeat), so a sample taken late is followed by a shorter one.
	if err != nil || h.Count() < 3 || h.Min() <= 0 || h.Max() < int64(5*time.Millisecond) || p100 != h.Max() {
		t.Errorf("count %d min %d max %d p100 %d (%v)", h.Count(), h.Min(), h.Max(), p100, err)
	}
	if ps := h.Percentiles(); ps[0] != h.Min() || ps[100] > h.Max() || ps[100] < h.Max()*999/1000 {
		t.Errorf("percentiles %v (min %d max %d)", ps, h.Min(), h.Max())
	}
}
