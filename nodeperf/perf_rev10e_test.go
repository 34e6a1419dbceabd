package nodeperf_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodeperf"
	"github.com/uvgo/uvgo/uvloop"
)

// jsNum prints f as JavaScript prints a number (enough of it for these scenarios).
func jsNum(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case f == math.Trunc(f) && math.Abs(f) < 1e21:
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprint(f)
}

func eluString(e nodeperf.ELU) string {
	return fmt.Sprintf("%s %s %s", jsNum(e.Idle), jsNum(e.Active), jsNum(e.Utilization))
}

// errString prints a nodeperf error as the twins print node's: name, code, message.
func errString(err error) string {
	var pe *nodeperf.Error
	if !errors.As(err, &pe) {
		return "not a nodeperf.Error: " + err.Error()
	}
	return fmt.Sprintf("%s %s %s", pe.Name, pe.Code, pe.Message)
}

// eventLoopUtilization before the loop has started is all zeros whatever its arguments: node
// returns { idle: 0, active: 0, utilization: 0 } while loopStart <= 0, before it looks at
// them (its top level runs before the loop starts; ours is a loop that has not run). Once
// the loop runs, the two-argument form is the difference of its arguments.
const eluJS = `
const { performance } = require('perf_hooks');
const log = (...a) => console.log(a.join(' '));
const a = { idle: 5, active: 7, utilization: 7 / 12 }, b = { idle: 1, active: 3, utilization: 0.75 };
const show = (e) => [e.idle, e.active, e.utilization].join(' ');
log('before, none', show(performance.eventLoopUtilization()));
log('before, one', show(performance.eventLoopUtilization(a)));
log('before, two', show(performance.eventLoopUtilization(a, b)));
setImmediate(() => log('running, two', show(performance.eventLoopUtilization(a, b))));
`

func TestRev10eELUBeforeRun(t *testing.T) {
	want := looptest.NodeLines(t, eluJS)
	a := nodeperf.ELU{Idle: 5, Active: 7, Utilization: 7.0 / 12}
	b := nodeperf.ELU{Idle: 1, Active: 3, Utilization: 0.75}
	var ref []string
	for _, m := range looptest.Modes {
		t.Run(m.Name, func(t *testing.T) {
			l, ok := m.New(t)
			if !ok {
				t.Skip(m.Name + ": not available")
			}
			var got []string
			got = append(got, "before, none "+eluString(nodeperf.EventLoopUtilization(l)))
			got = append(got, "before, one "+eluString(nodeperf.EventLoopUtilization(l, a)))
			got = append(got, "before, two "+eluString(nodeperf.EventLoopUtilization(l, a, b)))
			l.SetImmediate(func() { got = append(got, "running, two "+eluString(nodeperf.EventLoopUtilization(l, a, b))) })
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				t.Fatal(err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			looptest.Compare(t, m, got, want, &ref)
		})
	}
}

// getEntries() lists node's mark buffer, then its measure buffer, sorted by startTime with a
// stable sort: at one startTime, marks come before measures whatever the order they were
// made in; getEntriesByName too.
const entriesJS = `
const { performance } = require('perf_hooks');
const log = (...a) => console.log(a.join(' '));
const names = (list) => list.map((e) => e.name + ':' + e.entryType + '@' + e.startTime).join(' ');
setTimeout(() => {
  performance.measure('m', { start: 5, end: 10 });
  performance.mark('a', { startTime: 5 });
  performance.measure('x', { start: 3, duration: 2 });
  performance.mark('x', { startTime: 5 });
  performance.measure('n', { start: 4, end: 6 });
  performance.mark('b', { startTime: 4 });
  performance.mark('x', { startTime: 3 });
  log('entries', names(performance.getEntries()));
  log('byName x', names(performance.getEntriesByName('x')));
  log('byType', names(performance.getEntriesByType('measure')), '|', names(performance.getEntriesByType('mark')));
}, 0);
`

func TestRev10eEntriesOrder(t *testing.T) {
	want := looptest.NodeLines(t, entriesJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		p := nodeperf.New(l)
		names := func(es []*nodeperf.Entry) string {
			s := make([]string, len(es))
			for i, e := range es {
				s[i] = fmt.Sprintf("%s:%s@%s", e.Name, e.EntryType, jsNum(e.StartTime))
			}
			return strings.Join(s, " ")
		}
		must := func(_ *nodeperf.Entry, err error) {
			if err != nil {
				log("error", err)
			}
		}
		must(p.Measure("m", &nodeperf.MeasureOptions{Start: 5, End: 10}))
		must(p.Mark("a", &nodeperf.MarkOptions{StartTime: 5}))
		must(p.Measure("x", &nodeperf.MeasureOptions{Start: 3, Duration: 2}))
		must(p.Mark("x", &nodeperf.MarkOptions{StartTime: 5}))
		must(p.Measure("n", &nodeperf.MeasureOptions{Start: 4, End: 6}))
		must(p.Mark("b", &nodeperf.MarkOptions{StartTime: 4}))
		must(p.Mark("x", &nodeperf.MarkOptions{StartTime: 3}))
		log("entries", names(p.GetEntries()))
		log("byName x", names(p.GetEntriesByName("x")))
		log("byType", names(p.GetEntriesByType("measure")), "|", names(p.GetEntriesByType("mark")))
	})
}

// monitorEventLoopDelay's validation and an empty histogram, as node v20 reports them: a
// negative resolution and a percentile out of (0, 100] are ERR_OUT_OF_RANGE RangeErrors with
// node's messages; an empty histogram's min is 2^63-1 (node prints 9223372036854776000, the
// nearest double), its max 0, mean and stddev NaN, and its percentiles {100: 0}.
const delayJS = `
const { monitorEventLoopDelay } = require('perf_hooks');
const log = (...a) => console.log(a.join(' '));
setTimeout(() => {
  try { monitorEventLoopDelay({ resolution: -1 }); log('no throw'); } catch (e) { log(e.name, e.code, e.message); }
  const h = monitorEventLoopDelay({ resolution: 20 });
  for (const p of [0, -1, 100.5, NaN, 100, 50]) {
    try { log('percentile', p, h.percentile(p)); } catch (e) { log(e.name, e.code, e.message); }
  }
  log('empty', BigInt(h.min) > 9223372036854775000n, h.max, h.mean, h.stddev, h.count, h.exceeds, JSON.stringify([...h.percentiles]));
  log('enable', h.enable(), h.enable(), 'disable', h.disable(), h.disable());
}, 0);
`

func TestRev10eDelayMonitorValidation(t *testing.T) {
	want := looptest.NodeLines(t, delayJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		if _, err := nodeperf.MonitorEventLoopDelay(l, nodeperf.MonitorOptions{Resolution: -1}); err != nil {
			log(errString(err))
		} else {
			log("no throw")
		}
		h, err := nodeperf.MonitorEventLoopDelay(l, nodeperf.MonitorOptions{Resolution: 20})
		if err != nil {
			log(err)
			return
		}
		for _, p := range []float64{0, -1, 100.5, math.NaN(), 100, 50} {
			if v, err := h.Percentile(p); err != nil {
				log(errString(err))
			} else {
				log("percentile", jsNum(p), v)
			}
		}
		ps := h.Percentiles()
		keys := slices.Sorted(func(yield func(float64) bool) {
			for k := range ps {
				if !yield(k) {
					return
				}
			}
		})
		var pj []string
		for _, k := range keys {
			pj = append(pj, fmt.Sprintf("[%s,%d]", jsNum(k), ps[k]))
		}
		log("empty", h.Min() == math.MaxInt64, h.Max(), jsNum(h.Mean()), jsNum(h.Stddev()), h.Count(), h.Exceeds(),
			"["+strings.Join(pj, ",")+"]")
		log("enable", h.Enable(), h.Enable(), "disable", h.Disable(), h.Disable())
	})
}
