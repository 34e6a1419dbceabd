package uvloop

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"runtime"
	"runtime/trace"
	"time"
)

// This file is the optional part of seeing the loop: time per phase (WithPhaseTiming), long
// tasks (WithLongTasks), runtime/trace regions, and the loop's logger. While all of it is off
// (and no execution trace runs), each phase boundary and each callback pays one predictable
// branch on obs.on; the work is in the functions below, out of the hot path.

// DefaultLongTask is the threshold of WithLongTasks when it is given 0: the HTML standard's
// long-task threshold.
const DefaultLongTask = 50 * time.Millisecond

// WithPhaseTiming makes the loop time each phase (Metrics' Phases[p].Time). It costs a read
// of the monotonic clock at every phase boundary, about eight per iteration.
func WithPhaseTiming() Option { return func(o *options) { o.phaseTiming = true } }

// WithLongTasks makes the loop report every callback that held it for threshold or longer
// (0 means DefaultLongTask), its nextTick/microtask drain included, as the HTML standard's
// long tasks count a task with its microtask checkpoint. report runs on the loop goroutine
// right after the callback; if report is nil, the report goes to the loop's logger (WithLogger)
// at level Warn. It costs a clock read after every callback.
func WithLongTasks(threshold time.Duration, report func(LongTask)) Option {
	return func(o *options) {
		if threshold <= 0 {
			threshold = DefaultLongTask
		}
		o.longTask, o.longTaskReport = threshold, report
	}
}

// WithLogger sets the logger of the loop's warnings (long tasks, and the warnings of the
// packages on the loop that ask Loop.Logger). nil, or no WithLogger, means slog.Default().
func WithLogger(lg *slog.Logger) Option { return func(o *options) { o.logger = lg } }

// Logger returns the logger set by WithLogger, or slog.Default().
func (l *Loop) Logger() *slog.Logger {
	if l.obs.logger != nil {
		return l.obs.logger
	}
	return slog.Default()
}

// LongTask is one callback that held the loop for the long-task threshold or longer.
type LongTask struct {
	Phase    Phase
	Start    time.Duration // when it started, in loop time (Now's clock)
	Duration time.Duration // the callback and its nextTick/microtask drain
	// Func, File and Line name the callback the loop called, from its func value: the
	// function's name ("main.handler.func1"), the file and line of its declaration. They
	// are known for timers and timeouts, immediates, idle, prepare and check handles, idle
	// callbacks, stream reads, posted functions, work completions, pending and close
	// callbacks; for the others (writes, connects, UDP, Poll, signals, FSEvent, Async)
	// they are empty.
	Func string
	File string
	Line int
}

// String formats the report on one line.
func (t LongTask) String() string {
	fn := t.Func
	if fn == "" {
		fn = "?"
	}
	return fmt.Sprintf("long task: %v in %s phase, %s (%s:%d)", t.Duration, t.Phase, fn, t.File, t.Line)
}

// observer holds the optional observation state. Loop goroutine only.
type observer struct {
	on       bool // timing, long tasks or tracing: the slow path of enter and afterCallback runs
	timing   bool
	longTask int64 // ns; 0: off
	report   func(LongTask)
	logger   *slog.Logger

	tracing   bool          // an execution trace was running when this iteration began
	region    *trace.Region // the open phase region, while tracing
	phaseMark int64         // ns since epoch: start of the current phase (timing)
	idleMark  int64         // metrics.idle at phaseMark
	mark      int64         // ns since epoch: start of the current callback (long tasks)
	fn        any           // the callback that runs, when the site knows it (afterTask)
	cur       Phase         // the phase observePhase last started
}

func (o *observer) init(opts *options) {
	o.timing = opts.phaseTiming
	o.longTask = int64(opts.longTask)
	o.report = opts.longTaskReport
	o.logger = opts.logger
	o.on = o.timing || o.longTask > 0
}

// enterPoll starts the poll phase, which every iteration runs. It is also where an execution
// trace that started since the last iteration is noticed (and observePhase notices one that
// stopped), so a loop with nothing else on pays one trace.IsEnabled an iteration.
func (l *Loop) enterPoll() {
	l.metrics.phase = PhasePoll
	if l.obs.on || trace.IsEnabled() {
		l.observePhase(PhasePoll)
	}
}

// observePhase is enter's slow path: it ends the last phase (its time, its trace region)
// and starts p. p == NumPhases ends the last phase without starting one (Run's end).
func (l *Loop) observePhase(p Phase) {
	o := &l.obs
	if t := trace.IsEnabled(); t != o.tracing {
		o.tracing = t
		o.on = t || o.timing || o.longTask > 0
	}
	if o.timing || o.longTask > 0 || o.tracing {
		now := int64(time.Since(l.epoch))
		if o.timing {
			if o.phaseMark != 0 {
				last := &l.metrics.phases[o.cur%NumPhases]
				d := now - o.phaseMark - (l.metrics.idle - o.idleMark)
				last.Time += time.Duration(max(d, 0))
			}
			o.phaseMark, o.idleMark = now, l.metrics.idle
		}
		o.mark = now
	}
	if o.region != nil {
		o.region.End()
		o.region = nil
	}
	if p < NumPhases && o.tracing {
		o.region = trace.StartRegion(context.Background(), traceRegions[p])
	}
	o.cur = p
}

var traceRegions = [NumPhases]string{
	"uvloop.timers", "uvloop.pending", "uvloop.idle", "uvloop.prepare", "uvloop.idle-callbacks",
	"uvloop.poll", "uvloop.check", "uvloop.close",
}

// leavePhases ends the last phase's timing and trace region when Run returns.
func (l *Loop) leavePhases() {
	if l.obs.on || l.obs.region != nil {
		l.observePhase(NumPhases)
		l.obs.phaseMark = 0
	}
}

// afterTask is afterCallback for a site that knows the callback it called, so that a long
// task can be named.
func (l *Loop) afterTask(fn any) {
	if l.obs.on {
		l.obs.fn = fn
	}
	l.afterCallback()
}

// observeCallback is afterCallback's slow path: a long callback is reported.
func (l *Loop) observeCallback() {
	o := &l.obs
	fn := o.fn
	o.fn = nil
	threshold := o.longTask
	if threshold == 0 {
		if !o.tracing {
			return // timing alone
		}
		threshold = int64(DefaultLongTask) // a trace logs long callbacks even without WithLongTasks
	}
	now := int64(time.Since(l.epoch))
	d := now - o.mark
	o.mark = now
	if d < threshold {
		return
	}
	t := LongTask{Phase: l.metrics.phase, Start: time.Duration(now - d), Duration: time.Duration(d)}
	if fn != nil {
		if v := reflect.ValueOf(fn); v.Kind() == reflect.Func && !v.IsNil() {
			if f := runtime.FuncForPC(v.Pointer()); f != nil {
				t.Func = f.Name()
				t.File, t.Line = f.FileLine(f.Entry())
			}
		}
	}
	if o.tracing {
		trace.Log(context.Background(), "uvloop.longtask", t.String())
	}
	switch {
	case o.longTask == 0: // traced only
	case o.report != nil:
		o.report(t)
	default:
		l.Logger().Warn("uvloop: long task", "phase", t.Phase.String(), "duration", t.Duration,
			"func", t.Func, "file", t.File, "line", t.Line)
	}
	o.mark = int64(time.Since(l.epoch)) // the report's own time is nobody's callback
}
