package nodeperf

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// origin is TimeOrigin: when the program started, as near as a package can tell (its
// initialization), as Node's timeOrigin is when the process started.
var origin = time.Now()

// Performance is the clock and the User Timing part of Node's performance object:
// performance.now(), timeOrigin, mark(), measure(), getEntries*() and clear*(). Marks and
// measures are kept in its buffer until cleared, as Node keeps them in its global one.
// Create one per program (Node has one per thread) with New; loop goroutine only.
//
// Times are milliseconds since TimeOrigin, as float64. A detail is kept as given: Go cannot
// structuredClone it, so a caller that changes it later changes the entry's.
type Performance struct {
	loop    *uvloop.Loop
	marks   map[string]float64 // the last startTime of each mark name (Node's markTimings)
	entries []*Entry           // the buffer, in the order the entries were made
	count   [2]int             // marks, measures in the buffer
	warned  [2]bool            // MaxPerformanceEntryBufferExceededWarning given (since the last clear)
}

// Entry is a PerformanceMark or PerformanceMeasure (its toJSON() fields).
type Entry struct {
	Name      string
	EntryType string  // "mark" or "measure"
	StartTime float64 // ms since TimeOrigin
	Duration  float64 // ms; 0 for a mark
	Detail    any     // nil is Node's null
}

// MarkOptions are mark()'s options. StartTime is nil (now) or a number (any Go integer or
// float type) of milliseconds since TimeOrigin.
type MarkOptions struct {
	StartTime any
	Detail    any
}

// MeasureOptions are measure()'s options object. Start and End are a mark name (string) or a
// timestamp (a number); Duration is a number; nil is undefined.
type MeasureOptions struct {
	Start, End, Duration any
	Detail               any
}

// maxBuffered is the number of marks (or measures) past which Node warns of a leak
// (kPerformanceEntryBufferWarnSize).
var maxBuffered = 1_000_000

// nodeTiming are the names of performance.nodeTiming's milestones: mark() refuses them, and
// measure() reads them as marks.
var nodeTiming = []string{"nodeStart", "v8Start", "environment", "loopStart", "loopExit", "bootstrapComplete"}

// New returns an empty Performance whose nodeTiming milestones come from l: loopStart is when
// l first ran (-1 before), loopExit is -1, and the others (nodeStart, v8Start, environment,
// bootstrapComplete) are 0, TimeOrigin, where the program began.
func New(l *uvloop.Loop) *Performance {
	return &Performance{loop: l, marks: map[string]float64{}}
}

// Now is performance.now(): milliseconds since TimeOrigin, with the monotonic clock's
// resolution.
func (p *Performance) Now() float64 { return ms(time.Since(origin)) }

// TimeOrigin is performance.timeOrigin: when the program started, in milliseconds since the
// Unix epoch.
func (p *Performance) TimeOrigin() float64 { return float64(origin.UnixMicro()) / 1e3 }

// Mark is performance.mark(name[, options]): it records a mark at options.StartTime (now by
// default) and returns it. A nodeTiming milestone's name fails with ERR_INVALID_ARG_VALUE, a
// StartTime that is not a number with ERR_INVALID_ARG_TYPE, a negative one with
// ERR_PERFORMANCE_INVALID_TIMESTAMP; nothing is recorded then.
func (p *Performance) Mark(name string, opts *MarkOptions) (*Entry, error) {
	if slices.Contains(nodeTiming, name) {
		return nil, invalidName(name)
	}
	var start float64
	var detail any
	if opts != nil {
		detail = opts.Detail
	}
	if opts == nil || opts.StartTime == nil {
		start = p.Now()
	} else {
		t, ok := number(opts.StartTime)
		switch {
		case !ok:
			return nil, &Error{Name: "TypeError", Code: "ERR_INVALID_ARG_TYPE", Message: fmt.Sprintf(
				`The "startTime" argument must be of type number. Received %s`, received(opts.StartTime))}
		case t < 0:
			return nil, invalidTimestamp(t)
		}
		start = t
	}
	p.marks[name] = start
	return p.add(&Entry{Name: name, EntryType: "mark", StartTime: start, Detail: detail}), nil
}

// Measure is performance.measure(name[, startMarkOrOptions[, endMark]]), with Node's rules:
// startOrOptions is a mark name (string), a *MeasureOptions (or MeasureOptions), or nil; a
// number or any other value there counts as no start (0). endMark is a mark name or a
// timestamp. The end is endMark, else options.End, else options.Start + options.Duration,
// else now; the start is the mark named by startOrOptions, else options.Start, else the end
// minus options.Duration, else 0. A nodeTiming milestone's name reads as a mark. An unknown
// mark fails with a SyntaxError, a negative timestamp with ERR_PERFORMANCE_INVALID_TIMESTAMP,
// and options with neither Start nor End are no options (their Detail still counts);
// options with both and a Duration, or with an endMark too, fail with
// ERR_PERFORMANCE_MEASURE_INVALID_OPTIONS. Nothing is recorded when it fails.
func (p *Performance) Measure(name string, startOrOptions any, endMark ...any) (*Entry, error) {
	var end0 any
	if len(endMark) > 0 {
		end0 = endMark[0]
	}
	var o MeasureOptions
	switch v := startOrOptions.(type) {
	case *MeasureOptions:
		if v != nil {
			o = *v
		}
	case MeasureOptions:
		o = v
	}
	valid := o.Start != nil || o.End != nil
	if valid {
		switch {
		case end0 != nil:
			return nil, invalidOptions("endMark must not be specified")
		case o.Start != nil && o.End != nil && o.Duration != nil:
			return nil, invalidOptions("Must not have options.start, options.end, and options.duration specified")
		}
	}
	var start, end float64
	var err error
	switch {
	case end0 != nil:
		end, err = p.mark(end0)
	case valid && o.End != nil:
		end, err = p.mark(o.End)
	case valid && o.Start != nil && o.Duration != nil:
		var s, d float64
		if s, err = p.mark(o.Start); err == nil {
			d, err = p.mark(o.Duration)
			end = s + d
		}
	default:
		end = p.Now()
	}
	if err != nil {
		return nil, err
	}
	switch s, isName := startOrOptions.(string); {
	case isName:
		start, err = p.mark(s)
	case valid && o.Start != nil:
		start, err = p.mark(o.Start)
	case valid && o.Duration != nil:
		var d float64
		d, err = p.mark(o.Duration)
		start = end - d
	}
	if err != nil {
		return nil, err
	}
	return p.add(&Entry{Name: name, EntryType: "measure", StartTime: start, Duration: end - start, Detail: o.Detail}), nil
}

// mark is Node's getMark: a timestamp as it is, a milestone's time, or a mark's last time.
func (p *Performance) mark(v any) (float64, error) {
	if t, ok := number(v); ok {
		if t < 0 {
			return 0, invalidTimestamp(t)
		}
		return t, nil
	}
	name := fmt.Sprint(v)
	switch name {
	case "nodeStart", "v8Start", "environment", "bootstrapComplete":
		return 0, nil
	case "loopExit":
		return -1, nil
	case "loopStart":
		elu := p.loop.EventLoopUtilization()
		if elu == (uvloop.ELU{}) {
			return -1, nil
		}
		return ms(time.Since(origin) - elu.Idle - elu.Active), nil
	}
	if t, ok := p.marks[name]; ok {
		return t, nil
	}
	return 0, &Error{Name: "SyntaxError", Code: "12",
		Message: fmt.Sprintf("The %q performance mark has not been set", name)}
}

// add buffers e, warning once through the loop's logger when a kind passes maxBuffered, as
// Node warns with MaxPerformanceEntryBufferExceededWarning.
func (p *Performance) add(e *Entry) *Entry {
	p.entries = append(p.entries, e)
	k, clear := 0, "clearMarks"
	if e.EntryType == "measure" {
		k, clear = 1, "clearMeasures"
	}
	p.count[k]++
	if p.count[k] > maxBuffered && !p.warned[k] {
		p.warned[k] = true
		p.loop.Logger().Warn(fmt.Sprintf("Possible perf_hooks memory leak detected. %d %s entries added to the global "+
			"performance entry buffer. Use performance.%s to clear the buffer.", p.count[k], e.EntryType, clear),
			"name", "MaxPerformanceEntryBufferExceededWarning")
	}
	return e
}

// GetEntries is performance.getEntries(): the buffered marks and measures by StartTime;
// where it is the same, marks before measures (Node sorts its mark buffer followed by its
// measure buffer with a stable sort), each kind in the order made.
func (p *Performance) GetEntries() []*Entry { return p.filter(func(*Entry) bool { return true }) }

// GetEntriesByName is performance.getEntriesByName(name[, type]).
func (p *Performance) GetEntriesByName(name string, entryType ...string) []*Entry {
	return p.filter(func(e *Entry) bool {
		return e.Name == name && (len(entryType) == 0 || e.EntryType == entryType[0])
	})
}

// GetEntriesByType is performance.getEntriesByType(type): "mark" or "measure" (any other type
// has none here).
func (p *Performance) GetEntriesByType(entryType string) []*Entry {
	return p.filter(func(e *Entry) bool { return e.EntryType == entryType })
}

func (p *Performance) filter(keep func(*Entry) bool) []*Entry {
	out := []*Entry{}
	for _, e := range p.entries {
		if keep(e) {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b *Entry) int {
		switch {
		case a.StartTime < b.StartTime:
			return -1
		case a.StartTime > b.StartTime:
			return 1
		}
		return strings.Compare(a.EntryType, b.EntryType) // "mark" < "measure"
	})
	return out
}

// ClearMarks is performance.clearMarks([name]): the marks named name, or all, leave the buffer
// and can no longer be measured from. A nodeTiming milestone's name fails with
// ERR_INVALID_ARG_VALUE.
func (p *Performance) ClearMarks(name ...string) error {
	if len(name) > 0 {
		if slices.Contains(nodeTiming, name[0]) {
			return invalidName(name[0])
		}
		delete(p.marks, name[0])
	} else {
		clear(p.marks)
	}
	p.clear("mark", name)
	return nil
}

// ClearMeasures is performance.clearMeasures([name]).
func (p *Performance) ClearMeasures(name ...string) { p.clear("measure", name) }

func (p *Performance) clear(entryType string, name []string) {
	k := 0
	if entryType == "measure" {
		k = 1
	}
	p.entries = slices.DeleteFunc(p.entries, func(e *Entry) bool {
		drop := e.EntryType == entryType && (len(name) == 0 || e.Name == name[0])
		if drop {
			p.count[k]--
		}
		return drop
	})
	p.warned[k] = p.count[k] > maxBuffered
}

// number reports v as a float64 if it is a Go number.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int8:
		return float64(n), true
	case int16:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint:
		return float64(n), true
	case uint8:
		return float64(n), true
	case uint16:
		return float64(n), true
	case uint32:
		return float64(n), true
	case uint64:
		return float64(n), true
	}
	return 0, false
}

// jsNumber formats f as JavaScript prints a number.
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == math.Trunc(f) && math.Abs(f) < 1e21:
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// received is how Node's ERR_INVALID_ARG_TYPE names the value it got.
func received(v any) string {
	switch x := v.(type) {
	case string:
		if len(x) > 28 {
			x = x[:25] + "..."
		}
		return fmt.Sprintf("type string ('%s')", x)
	case bool:
		return fmt.Sprintf("type boolean (%v)", x)
	}
	return fmt.Sprintf("an instance of %T", v)
}

func invalidTimestamp(t float64) error {
	return &Error{Name: "TypeError", Code: "ERR_PERFORMANCE_INVALID_TIMESTAMP", Message: jsNumber(t) + " is not a valid timestamp"}
}

func invalidName(name string) error {
	return &Error{Name: "TypeError", Code: "ERR_INVALID_ARG_VALUE", Message: fmt.Sprintf("The argument 'name' is invalid. Received '%s'", name)}
}

func invalidOptions(msg string) error {
	return &Error{Name: "TypeError", Code: "ERR_PERFORMANCE_MEASURE_INVALID_OPTIONS", Message: msg}
}
