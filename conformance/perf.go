package conformance

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/uvgo/uvgo/nodeperf"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the perf_hooks scenarios (400-...), on package nodeperf: performance.
// eventLoopUtilization is nodeperf.EventLoopUtilization, monitorEventLoopDelay is
// nodeperf.MonitorEventLoopDelay. They print shapes, booleans and errors, never a time.

// eluJSON is JSON.stringify of an ELU.
func eluJSON(e nodeperf.ELU) string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return `{"idle":` + f(e.Idle) + `,"active":` + f(e.Active) + `,"utilization":` + f(e.Utilization) + `}`
}

// 400: eventLoopUtilization is all zero in the main script, has three fields, and its delta
// forms: inside one callback no idle time passes, a busy wait is active time, two arguments
// give their difference, a result minus itself is 0, 0, NaN.
func perfEventLoopUtilization(l *uvloop.Loop, out func(string)) func() {
	elu := func(u ...nodeperf.ELU) nodeperf.ELU { return nodeperf.EventLoopUtilization(l, u...) }
	e0 := elu()
	out("main: " + eluJSON(e0))
	out("main, delta from itself: " + eluJSON(elu(e0)))
	l.SetTimeout(func() {
		e1 := elu()
		out("fields: idle, active, utilization")
		out(logLine("utilization in [0, 1]:", e1.Utilization >= 0 && e1.Utilization <= 1))
		busyWait(20 * ms)
		d := elu(e1)
		out(logLine("delta over a 20 ms busy wait: idle 0:", d.Idle == 0, "active >= 20:", d.Active >= 20,
			"utilization 1:", d.Utilization == 1))
		e2 := elu()
		two := elu(e2, e1)
		out(logLine("two arguments are their difference:", two.Idle == e2.Idle-e1.Idle && two.Active == e2.Active-e1.Active))
		same := elu(e1, e1)
		out(logLine("a result minus itself:", same.Idle, same.Active, same.Utilization))
		l.SetImmediate(func() {
			e3 := elu()
			out(logLine("later: idle and active never shrink:", e3.Idle >= e2.Idle && e3.Active >= e2.Active))
		})
	}, 5*ms)
	out("main end")
	return nil
}

// 401: monitorEventLoopDelay: the empty histogram (min is the int64 maximum, mean and stddev
// NaN, percentiles {100: 0}), Node's range errors, enable and disable report a change, a 25
// ms busy callback is a sample of at least 25 ms, the percentiles run from 0 to 100, reset
// empties the histogram.
func perfMonitorEventLoopDelay(l *uvloop.Loop, out func(string)) func() {
	h, err := nodeperf.MonitorEventLoopDelay(l, nodeperf.MonitorOptions{Resolution: 10})
	if err != nil {
		panic(err)
	}
	percentiles := func() (keys []float64, js string) {
		ps := h.Percentiles()
		for k := range ps {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		pairs := make([][2]float64, 0, len(keys))
		for _, k := range keys {
			pairs = append(pairs, [2]float64{k, float64(ps[k])})
		}
		b, _ := json.Marshal(pairs)
		return keys, string(b)
	}
	_, js := percentiles()
	out(logLine("empty: count", h.Count(), "min is the int64 maximum", h.Min() == math.MaxInt64, "max", h.Max(),
		"mean", h.Mean(), "stddev", h.Stddev(), "exceeds", h.Exceeds(), "percentiles", js))
	for _, f := range []func() error{
		func() error {
			_, err := nodeperf.MonitorEventLoopDelay(l, nodeperf.MonitorOptions{Resolution: -1})
			return err
		},
		func() error { _, err := h.Percentile(0); return err },
		func() error { _, err := h.Percentile(101); return err },
	} {
		var e *nodeperf.Error
		if err := f(); errors.As(err, &e) {
			out(logLine(e.Code, e.Message))
		}
	}
	out(logLine("enable:", h.Enable(), h.Enable()))
	l.SetTimeout(func() { busyWait(25 * ms) }, 50*ms)
	l.SetTimeout(func() {
		out(logLine("disable:", h.Disable(), h.Disable()))
		p100, _ := h.Percentile(100)
		mean := h.Mean()
		out(logLine("sampled:", h.Count() > 0, "max >= 25 ms:", h.Max() >= 25e6,
			"min <= mean <= max:", float64(h.Min()) <= mean && mean <= float64(h.Max()),
			"percentile(100) is max:", p100 == h.Max(), "exceeds", h.Exceeds()))
		keys, _ := percentiles()
		asc := slices.IsSorted(keys) && len(slices.Compact(slices.Clone(keys))) == len(keys)
		out(logLine("percentiles from", keys[0], "to", keys[len(keys)-1], "ascending:", asc))
		h.Reset()
		out(logLine("reset: count", h.Count(), "max", h.Max(), "min is the int64 maximum", h.Min() == math.MaxInt64, "mean", h.Mean()))
	}, 100*ms)
	out("main end")
	return nil
}

// 402: the delay monitor's timer is unref'd, so an enabled histogram alone does not keep the
// loop alive; disabled and enabled again, a histogram keeps its samples until reset.
func perfMonitorUnrefAndReenable(l *uvloop.Loop, out func(string)) func() {
	idle, err := nodeperf.MonitorEventLoopDelay(l, nodeperf.MonitorOptions{Resolution: 1})
	if err != nil {
		panic(err)
	}
	idle.Enable()
	h, err := nodeperf.MonitorEventLoopDelay(l, nodeperf.MonitorOptions{Resolution: 5})
	if err != nil {
		panic(err)
	}
	h.Enable()
	l.SetTimeout(func() {
		out(logLine("disable:", h.Disable()))
		c := h.Count() // how many depends on timing: never printed
		out(logLine("enable again:", h.Enable()))
		l.SetTimeout(func() {
			h.Disable()
			out(logLine("the samples are kept:", h.Count() >= c))
			h.Reset()
			out(logLine("reset: count", h.Count()))
		}, 30*ms)
	}, 50*ms)
	out("main end")
	return func() {
		out(logLine("exit: the enabled monitor did not keep the loop alive:", !idle.Enable()))
		idle.Disable()
	}
}

// 403: User Timing on a nodeperf.Performance: marks, measures, their errors, and the buffer.
func perfUserTiming(l *uvloop.Loop, out func(string)) func() {
	perf := nodeperf.New(l)
	show := func(label string, f func() (any, error)) {
		r, err := f()
		var pe *nodeperf.Error
		switch {
		case errors.As(err, &pe):
			out(logLine(label, "throws", pe.Name, pe.Code, pe.Message))
		case err != nil:
			out(logLine(label, "throws", err))
		default:
			if r == nil {
				out(logLine(label, "undefined")) // JSON.stringify(undefined)
			} else if e, ok := r.(*nodeperf.Entry); ok {
				d, _ := json.Marshal(e.Detail)
				out(logLine(label, e.Name, e.EntryType, e.StartTime, e.Duration, string(d)))
			} else {
				j, _ := json.Marshal(r)
				out(logLine(label, string(j)))
			}
		}
	}
	entry := func(e *nodeperf.Entry, err error) (any, error) { return e, err }
	names := func(list []*nodeperf.Entry) string {
		var s []string
		for _, e := range list {
			s = append(s, e.Name+":"+e.EntryType)
		}
		return strings.Join(s, " ")
	}
	opts := func(start, detail any) *nodeperf.MarkOptions {
		return &nodeperf.MarkOptions{StartTime: start, Detail: detail}
	}
	show("mark a", func() (any, error) { return entry(perf.Mark("a", opts(5, map[string]any{"x": 1}))) })
	show("mark b", func() (any, error) { return entry(perf.Mark("b", opts(9, nil))) })
	show("mark c", func() (any, error) { return entry(perf.Mark("c", opts(9.5, "d"))) })
	show("mark negative", func() (any, error) { return entry(perf.Mark("n", opts(-1, nil))) })
	show("mark string time", func() (any, error) { return entry(perf.Mark("n", opts("x", nil))) })
	show("mark milestone", func() (any, error) { return entry(perf.Mark("loopStart", nil)) })
	show("measure a..b", func() (any, error) { return entry(perf.Measure("m1", "a", "b")) })
	show("measure b..a", func() (any, error) { return entry(perf.Measure("m2", "b", "a")) })
	show("measure unknown", func() (any, error) { return entry(perf.Measure("m3", "zz")) })
	show("measure unknown end", func() (any, error) { return entry(perf.Measure("m3", "a", "zz")) })
	show("measure options", func() (any, error) {
		return entry(perf.Measure("m4", &nodeperf.MeasureOptions{Start: "a", End: "c", Detail: []int{1, 2}}))
	})
	show("measure start+duration", func() (any, error) {
		return entry(perf.Measure("m5", &nodeperf.MeasureOptions{Start: 2, Duration: 3}))
	})
	show("measure end+duration", func() (any, error) {
		return entry(perf.Measure("m6", &nodeperf.MeasureOptions{End: "b", Duration: 1}))
	})
	show("measure all three", func() (any, error) {
		return entry(perf.Measure("m7", &nodeperf.MeasureOptions{Start: 2, End: 4, Duration: 3}))
	})
	show("measure options+endMark", func() (any, error) {
		return entry(perf.Measure("m7", &nodeperf.MeasureOptions{Start: "a"}, "b"))
	})
	show("measure a..12", func() (any, error) { return entry(perf.Measure("m8", "a", 12)) })
	show("measure negative end", func() (any, error) { return entry(perf.Measure("m8", "a", -3)) })
	show("measure negative start option", func() (any, error) {
		return entry(perf.Measure("m8", &nodeperf.MeasureOptions{Start: -2, End: 4}))
	})
	show("measure number start ignored", func() (any, error) { return entry(perf.Measure("m9", 3, "b")) })
	show("measure nodeStart..a", func() (any, error) {
		e, err := perf.Measure("m10", "nodeStart", "a")
		if err != nil {
			return nil, err
		}
		return e.Name, nil
	})
	open, _ := perf.Measure("m11", &nodeperf.MeasureOptions{Detail: "no start or end"})
	d, _ := json.Marshal(open.Detail)
	out(logLine("measure without start or end:", open.StartTime, open.Duration > 0, string(d)))
	tillNow, _ := perf.Measure("m12", "a")
	out(logLine("measure a..now:", tillNow.StartTime, tillNow.Duration > 0))
	show("mark a again", func() (any, error) { return entry(perf.Mark("a", opts(1, nil))) })
	show("measure a(new)..b", func() (any, error) { return entry(perf.Measure("m13", "a", "b")) })
	show("byName a", func() (any, error) {
		var ts []float64
		for _, e := range perf.GetEntriesByName("a") {
			ts = append(ts, e.StartTime)
		}
		return ts, nil
	})
	show("byName m1 as mark", func() (any, error) { return len(perf.GetEntriesByName("m1", "mark")), nil })
	show("byType mark", func() (any, error) { return names(perf.GetEntriesByType("mark")), nil })
	show("byType other", func() (any, error) { return len(perf.GetEntriesByType("resource")), nil })
	show("entries", func() (any, error) {
		var list []*nodeperf.Entry
		for _, e := range perf.GetEntries() {
			if e.Name != "m10" {
				list = append(list, e)
			}
		}
		return names(list), nil
	})
	undefined := func(err error) (any, error) { return nil, err }
	show("clear milestone", func() (any, error) { return undefined(perf.ClearMarks("loopStart")) })
	show("clearMarks a", func() (any, error) { return undefined(perf.ClearMarks("a")) })
	show("after clearing a", func() (any, error) { return names(perf.GetEntriesByType("mark")), nil })
	show("measure from a", func() (any, error) { return entry(perf.Measure("m14", "a")) })
	show("clearMeasures m1", func() (any, error) { perf.ClearMeasures("m1"); return nil, nil })
	show("measures", func() (any, error) { return len(perf.GetEntriesByType("measure")), nil })
	show("clearMeasures", func() (any, error) { perf.ClearMeasures(); return nil, nil })
	show("clearMarks", func() (any, error) { return undefined(perf.ClearMarks()) })
	show("entries", func() (any, error) { return len(perf.GetEntries()), nil })
	t0 := perf.Now()
	out(logLine("now is a number that grows:", "number", perf.Now() >= t0))
	out(logLine("timeOrigin after 2020:", perf.TimeOrigin() > float64(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli())))
	return nil
}
