package nodeperf_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nodeperf"
	"github.com/uvgo/uvgo/uvloop"
)

// The leak warning comes once per kind when its count passes the threshold, through the
// loop's logger, and again after a clear brought the count back under it (conformance 403
// has the rest of User Timing against node).
func TestUserTimingLeakWarning(t *testing.T) {
	defer nodeperf.SetMaxBuffered(3)()
	var log bytes.Buffer
	l, err := uvloop.New(uvloop.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p := nodeperf.New(l)
	warnings := func() int { return strings.Count(log.String(), "MaxPerformanceEntryBufferExceededWarning") }
	for i := range 5 {
		if _, err := p.Mark("m", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Measure("x", "m"); err != nil {
			t.Fatal(err)
		}
		if want := min(max(i-2, 0), 1) * 2; warnings() != want {
			t.Fatalf("after %d marks and measures: %d warnings, want %d:\n%s", i+1, warnings(), want, log.String())
		}
	}
	if !strings.Contains(log.String(), "4 mark entries added to the global performance entry buffer. Use performance.clearMarks") ||
		!strings.Contains(log.String(), "4 measure entries added to the global performance entry buffer. Use performance.clearMeasures") {
		t.Errorf("the warnings:\n%s", log.String())
	}
	if err := p.ClearMarks(); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		p.Mark("m", nil)
	}
	if warnings() != 3 {
		t.Errorf("%d warnings after a clear and 4 marks, want 3", warnings())
	}
	if n := len(p.GetEntriesByType("measure")); n != 5 {
		t.Errorf("%d measures, want 5 (clearMarks keeps them)", n)
	}
}

// loopStart reads as -1 before the loop ran and as when it first ran after; the other
// milestones are TimeOrigin (0).
func TestUserTimingMilestones(t *testing.T) {
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p := nodeperf.New(l)
	before, err := p.Measure("before", "loopStart", 10)
	if err != nil || before.StartTime != -1 {
		t.Fatalf("before Run: %+v, %v; want a start of -1", before, err)
	}
	t0 := p.Now()
	l.SetTimeout(func() {}, 0)
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	after, err := p.Measure("after", "loopStart", "nodeStart")
	if err != nil || after.StartTime < t0 || after.StartTime > p.Now() || after.Duration != -after.StartTime {
		t.Fatalf("after Run: %+v, %v; want a start in [%v, now] and an end at 0", after, err, t0)
	}
	if _, err := p.Measure("exit", "loopExit"); err != nil {
		t.Fatal(err)
	}
}

// Bad arguments fail with Node's errors and record nothing.
func TestUserTimingErrors(t *testing.T) {
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p := nodeperf.New(l)
	for _, tc := range []struct {
		f    func() error
		code string
		msg  string
	}{
		{func() error { _, err := p.Mark("a", &nodeperf.MarkOptions{StartTime: true}); return err },
			"ERR_INVALID_ARG_TYPE", `The "startTime" argument must be of type number. Received type boolean (true)`},
		{func() error { _, err := p.Mark("bootstrapComplete", nil); return err },
			"ERR_INVALID_ARG_VALUE", `The argument 'name' is invalid. Received 'bootstrapComplete'`},
		{func() error { _, err := p.Measure("m", &nodeperf.MeasureOptions{End: 1.5}, nil, 7); return err },
			"", ""}, // a nil endMark is undefined
		{func() error { _, err := p.Measure("m", "missing"); return err },
			"12", `The "missing" performance mark has not been set`},
	} {
		err := tc.f()
		var pe *nodeperf.Error
		switch {
		case tc.code == "" && err != nil:
			t.Errorf("got %v, want no error", err)
		case tc.code == "":
		case !errors.As(err, &pe) || pe.Code != tc.code || pe.Message != tc.msg:
			t.Errorf("got %#v, want %s %q", err, tc.code, tc.msg)
		}
	}
	if n := len(p.GetEntriesByType("mark")); n != 0 {
		t.Errorf("%d marks recorded by failed calls", n)
	}
}
