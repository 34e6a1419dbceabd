package uvloop

import (
	"time"

	"github.com/uvgo/uvgo/timers"
)

// Timer runs its callback in the timers phase once its timeout has elapsed, and then every
// repeat if repeat is non-zero (uv_timer_t). Timers due in the same phase run in order of
// deadline, then of Start. Timeouts count from the cached loop time (Now), so a timer started
// from a callback counts from the start of the iteration. Loop goroutine only.
type Timer struct {
	handle
	entry timers.Entry // loop goroutine only, as every field
	cb    func(*Timer)
}

// NewTimer creates a timer; Start arms it.
func (l *Loop) NewTimer(cb func(*Timer)) *Timer {
	t := &Timer{cb: cb}
	t.handle.init(l, t, KindTimer)
	t.entry.Handler = (*timerFire)(t) // not the method value t.fire: that would be a second allocation
	return t
}

// timerFire is a Timer seen as the timers.Handler of its entry; the unexported name keeps
// OnTimer out of Timer's API.
type timerFire Timer

func (t *timerFire) OnTimer() { (*Timer)(t).fire() }

func (t *Timer) fire() {
	if !t.entry.Active() { // a one-shot timer is stopped before its callback, as in libuv
		t.handle.stop()
	}
	t.loop.enterTimers()
	t.cb(t)
	t.loop.afterTask(t.cb)
}

// Start arms the timer: its callback runs timeout after the loop time, then every repeat if
// repeat is non-zero. Both are time.Duration (nanoseconds, kept as such), where
// uv_timer_start takes milliseconds: libuv's uv_timer_start(t, cb, 500, 0) is
// Start(500*time.Millisecond, 0). Starting an armed timer re-arms it. Fails with ErrClosed on a closing
// timer, ErrNilCallback without a callback and ErrNegativeDuration for a negative duration,
// leaving the timer as it was.
func (t *Timer) Start(timeout, repeat time.Duration) error {
	if err := t.usable(); err != nil {
		return err
	}
	if t.cb == nil {
		return ErrNilCallback
	}
	if timeout < 0 || repeat < 0 {
		return errorf(ErrNegativeDuration, "timeout %v, repeat %v", timeout, repeat)
	}
	if err := t.loop.timers.Start(&t.entry, t.loop.now, int64(timeout), int64(repeat)); err != nil {
		return err
	}
	t.handle.start()
	return nil
}

// Stop disarms the timer; its callback will not run. Stopping a stopped timer does nothing.
func (t *Timer) Stop() error {
	t.stopTimer()
	return nil
}

func (t *Timer) stopTimer() {
	t.loop.timers.Stop(&t.entry)
	t.handle.stop()
}

func (t *Timer) closeStart()  { t.stopTimer() }
func (t *Timer) closeFinish() {}

// Again re-arms a repeating timer with its repeat as the timeout (uv_timer_again); for a timer
// whose repeat is zero it does nothing. It fails with ErrNeverStarted if the timer was never
// started, and ErrClosed on a closing timer.
func (t *Timer) Again() error {
	if err := t.usable(); err != nil {
		return err
	}
	if err := t.loop.timers.Again(&t.entry, t.loop.now); err != nil {
		return errorf(ErrNeverStarted, "Again")
	}
	if t.entry.Active() {
		t.handle.start()
	}
	return nil
}

// SetRepeat sets the repeat interval used from the next time the timer is re-armed. A
// negative value is treated as zero.
func (t *Timer) SetRepeat(repeat time.Duration) {
	t.entry.SetRepeat(int64(max(repeat, 0)))
}

// Repeat returns the repeat interval.
func (t *Timer) Repeat() time.Duration { return time.Duration(t.entry.Repeat()) }

// DueIn returns how long until the timer fires, relative to the loop time; 0 if it is due or
// not armed.
func (t *Timer) DueIn() time.Duration {
	if !t.entry.Active() {
		return 0
	}
	return time.Duration(max(t.entry.Deadline()-t.loop.now, 0))
}
