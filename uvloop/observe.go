package uvloop

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"runtime"
	"runtime/trace"
	"sync/atomic"
	"time"
)

// This file is the optional part of seeing the loop: time per phase (WithPhaseTiming), long
// tasks (WithLongTasks), runtime/trace regions, and the loop's logger. While all of it is off
// (and no execution trace runs), each phase boundary and each callback pays one predictable
// branch (a check of observer.due); the work is in the functions below, out of the hot path.

// DefaultLongTask is the threshold of WithLongTasks when it is given 0: the HTML standard's
// long-task threshold.
const DefaultLongTask = 50 * time.Millisecond

// WithPhaseTiming makes the loop time each phase (Metrics' Phases[p].Time). The clock is read
// about once a millisecond, not at every phase boundary: a goroutine ticks every millisecond
// while the loop runs and is awake, and the time between two reads goes to the phase that ran
// when the tick was noticed. A phase that runs longer than a tick is timed to about a tick;
// shorter ones get their share on average over many ticks, as a sampling profiler's functions
// do; the sum over the phases is the loop's active time (Run's time minus IdleTime). If the
// goroutine could not run in time (a loaded machine), the loop's own clock read at the end of
// each iteration gives the time to the phase that ran last.
func WithPhaseTiming() Option { return func(o *options) { o.phaseTiming = true } }

// WithLongTasks makes the loop report every callback that held it for threshold or longer
// (0 means DefaultLongTask), its nextTick/microtask drain included, as the HTML standard's
// long tasks count a task with its microtask checkpoint. report runs on the loop goroutine
// right after the callback; if report is nil, the report goes to the loop's logger (WithLogger)
// at level Warn. Like WithPhaseTiming it reads the clock only after a tick of a goroutine
// that ticks every threshold/16 (but not more often than every 100 µs, and at least every
// millisecond) while the loop runs and is awake; the report's Duration is from the last clock
// read before the callback, which may add up to about a tick (see LongTask). A callback is
// seen only if a tick came while it ran: one that the goroutine could not tick through (a
// machine so loaded that it did not run for the whole callback) is not reported.
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
	Phase Phase
	Start time.Duration // when it started, in loop time (Now's clock)
	// Duration is the callback and its nextTick/microtask drain, measured from the last clock
	// read before it: it can include up to about a tick (threshold/16, at most 1 ms) of the
	// loop's own work before the callback, never the time blocked waiting.
	Duration time.Duration
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

// observer holds the optional observation state. Loop goroutine only, but for the fields
// marked otherwise.
//
// Time is read from the monotonic clock only at a "slow" check. Every phase boundary and
// every callback's end is a check, and its fast path loads one flag, due, which a ticker
// goroutine sets every tick (WithPhaseTiming or WithLongTasks) and the slow path clears.
// While nothing is on it stays false; while an execution trace runs it stays true, so every
// check reads the clock, as the regions need. So a loop reads the clock
// about once per tick, not once per callback: the time since the last read goes to the phase
// that was running when the tick was noticed (a sampling profiler's rule, exact for a phase
// that lasts longer than a tick, and right on average for shorter ones; the sum over the
// phases is the loop's active time), and a callback that held the loop for the threshold
// spans several ticks, so its end is a slow check that measures it.
type observer struct {
	// due is set (1) by the ticker every tick, and by the loop while tracing or while a
	// checkpoint is requested (RequestCheckpoint: the check after a callback runs its drain,
	// afterSlow); a slow check clears it. A check is atomic.LoadUint32(&l.obs.due) != 0
	// written out at each site: a method, however inlined, would cost each check an
	// instruction for its inline mark.
	due uint32

	timing   bool
	longTask int64 // ns; 0: off
	report   func(LongTask)
	logger   *slog.Logger

	tracing  bool          // an execution trace was running at the last check
	region   *trace.Region // the open phase region, while tracing
	mark     int64         // ns since epoch: the last clock read of a slow check (0: none yet)
	idleMark int64         // metrics.idle at mark
	lateAt   int64         // when observeLate looks next: mark + tick while a ticker runs, else the last look + traceLook

	tick   time.Duration // the ticker's period; 0: no ticker
	ticker *obsTicker    // started by the first Run, stopped by Close
}

func (o *observer) init(opts *options) {
	o.timing = opts.phaseTiming
	o.longTask = int64(opts.longTask)
	o.report = opts.longTaskReport
	o.logger = opts.logger
	switch {
	case o.longTask > 0:
		// A long task spans at least 16 ticks: it is noticed even if a few are late.
		o.tick = min(max(time.Duration(o.longTask)/16, 100*time.Microsecond), time.Millisecond)
	case o.timing:
		o.tick = time.Millisecond
	}
}

// enterPoll counts an iteration that reaches the poll phase and enters the phase: enter(PhasePoll)
// written out so that it inlines in Run, right before poll (inside poll, the fast path paid
// reloads of poll's arguments for the slow path's call).
func (l *Loop) enterPoll() {
	l.metrics.loopCount++
	if atomic.LoadUint32(&l.obs.due) != 0 {
		l.observePhase(PhasePoll)
	}
	l.metrics.phase = PhasePoll
}

// traceLook is how often, in loop time, a loop with nothing observed looks whether an
// execution trace started (observeLate); Run looks when it starts, and every slow check looks.
const traceLook = int64(100 * time.Millisecond)

// observePhase is enter's slow path: it reads the clock, gives the time since the last read
// to the phase that ran, ends that phase's trace region and starts p's. p == NumPhases ends
// the last phase without starting one (Run's end).
func (l *Loop) observePhase(p Phase) {
	o := &l.obs
	l.observeTime()
	if o.region != nil {
		o.region.End()
		o.region = nil
	}
	if p < NumPhases && o.tracing {
		o.region = trace.StartRegion(context.Background(), traceRegions[p])
	}
}

// observeTime is what every slow check does: it notices a trace that started or stopped,
// reads the clock and gives the active time since the last read to the current phase. It
// returns that time and the clock.
func (l *Loop) observeTime() (active, now int64) {
	o := &l.obs
	if t := trace.IsEnabled(); t != o.tracing {
		o.tracing = t
	}
	atomic.StoreUint32(&o.due, b2u(o.tracing || l.promise.checkpointDue))
	now = int64(time.Since(l.epoch))
	m := &l.metrics
	if o.mark != 0 {
		active = max(now-o.mark-(m.idle-o.idleMark), 0)
		if o.timing {
			m.phases[m.phase%NumPhases].Time += time.Duration(active)
		}
	}
	o.setMark(now, m.idle)
	return active, now
}

var traceRegions = [NumPhases]string{
	"uvloop.timers", "uvloop.pending", "uvloop.idle", "uvloop.prepare", "uvloop.idle-callbacks",
	"uvloop.poll", "uvloop.check", "uvloop.close",
}

// leavePhases ends the last phase's timing and trace region when Run returns.
func (l *Loop) leavePhases() {
	if l.obs.mark != 0 || l.obs.region != nil {
		l.observePhase(NumPhases)
		l.obs.setMark(0, 0) // the time between runs is nobody's
	}
	l.metrics.phase = NumPhases // none: the next timers phase is entered
	if t := l.obs.ticker; t != nil {
		t.running.Store(false)
	}
}

// setMark records a clock read at now, with the idle time then.
func (o *observer) setMark(now, idle int64) {
	o.mark, o.idleMark, o.lateAt = now, idle, now+traceLook
	if o.tick > 0 && now != 0 {
		o.lateAt = now + int64(o.tick)
	}
}

// observeCallback is the slow path of the check after a callback: the time since the last
// clock read goes to the phase, and if it reaches the threshold the callback is reported as
// a long task, named by fn (nil when the site does not know its callback).
//
// The time measured runs from the last clock read, which a long callback's own start may
// not be: it is at most about a tick earlier (the time the loop ran between the last tick it
// noticed and the callback's start). So Duration can exceed the callback's own time by up to
// a tick (1 ms for a threshold of 16 ms or more), and a callback just under the threshold can
// be reported; a callback over it is reported unless the ticker goroutine was held off for
// the whole callback, and then its time goes to the phase all the same.
func (l *Loop) observeCallback(fn any) {
	o := &l.obs
	d, now := l.observeTime()
	threshold := o.longTask
	if threshold == 0 {
		if !o.tracing {
			return // timing alone
		}
		threshold = int64(DefaultLongTask) // a trace logs long callbacks even without WithLongTasks
	}
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
	l.observeTime() // the report's own time goes to the phase, but to no callback
}

// obsTicker is the goroutine that sets observer.due every tick while the loop runs and
// is awake: it parks while the loop sleeps in the poll phase's wait or is outside Run, so an
// idle loop is not woken by it.
type obsTicker struct {
	running atomic.Bool   // inside Run (set by the loop)
	asleep  atomic.Bool   // in the poll phase's blocking wait (set by the loop)
	parked  atomic.Bool   // the goroutine waits on resume
	resume  chan struct{} // one token wakes a parked ticker
	stop    chan struct{} // closed by Close
	done    chan struct{} // closed when the goroutine returns
}

// startTicker starts the ticker goroutine on the first Run (it lives until Close) and tells
// it that the loop runs.
func (l *Loop) startTicker() {
	o := &l.obs
	t := o.ticker
	if t == nil {
		t = &obsTicker{resume: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
		o.ticker = t
		t.running.Store(true)
		go t.loop(&o.due, o.tick)
		l.OnClose(func() {
			close(t.stop)
			<-t.done
		})
		return
	}
	t.running.Store(true)
	t.wake()
}

// wake unparks the ticker if it is parked. Loop goroutine only.
func (t *obsTicker) wake() {
	if t.parked.Load() && t.parked.CompareAndSwap(true, false) {
		t.resume <- struct{}{}
	}
}

// idle reports whether the loop needs no ticks now.
func (t *obsTicker) idle() bool { return !t.running.Load() || t.asleep.Load() }

func (t *obsTicker) loop(due *uint32, period time.Duration) {
	defer close(t.done)
	tk := time.NewTicker(period)
	defer tk.Stop()
	for {
		select {
		case <-t.stop:
			return
		case <-tk.C:
		}
		if t.idle() {
			t.parked.Store(true)
			// The loop may have woken between idle and the Store, and seen parked false: look
			// again, and take the parking back if so (the loop's CompareAndSwap then fails).
			if !t.idle() && t.parked.CompareAndSwap(true, false) {
				atomic.StoreUint32(due, 1)
				continue
			}
			select {
			case <-t.stop:
				return
			case <-t.resume:
			}
			tk.Reset(period)
		}
		atomic.StoreUint32(due, 1)
	}
}

// b2u is 1 for true.
func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
