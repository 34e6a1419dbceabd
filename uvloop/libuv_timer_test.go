package uvloop_test

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test/test-timer.c, test-timer-again.c and test-timer-from-check.c.

// TestTimer ports libuv's "timer": ten one-shot timers spread over 45ms, each closing itself;
// a repeating timer that closes itself on its fifth call; and a timer that is started, stopped
// and unref'd, and so never fires. The run ends when all of them are closed, and lasts at
// least as long as the five repeats.
func TestTimer(t *testing.T) {
	l := newLoop(t)
	l.UpdateTime()
	start := l.Now()

	var onceCalls, onceCloses, repeatCalls, repeatCloses int
	for i := range 10 {
		once := l.NewTimer(func(tm *uvloop.Timer) {
			if tm.IsActive() {
				t.Error("a one-shot timer is still active in its callback")
			}
			onceCalls++
			mustOK(t, tm.Close(func() {
				if tm.IsActive() {
					t.Error("a closed timer is active in its close callback")
				}
				onceCloses++
			}))
			l.UpdateTime() // allowed from a callback
		})
		mustOK(t, once.Start(time.Duration(i)*5*time.Millisecond, 0))
	}

	repeat := l.NewTimer(func(tm *uvloop.Timer) {
		if !tm.IsActive() {
			t.Error("a repeating timer is not active in its callback")
		}
		repeatCalls++
		if repeatCalls == 5 {
			mustOK(t, tm.Close(func() { repeatCloses++ }))
		}
	})
	mustOK(t, repeat.Start(10*time.Millisecond, 10*time.Millisecond))

	never := l.NewTimer(func(*uvloop.Timer) { t.Error("a stopped timer fired") })
	mustOK(t, never.Start(10*time.Millisecond, 10*time.Millisecond))
	mustOK(t, never.Stop())
	never.Unref()

	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after every active timer was closed")
	}
	if onceCalls != 10 || onceCloses != 10 {
		t.Errorf("one-shot timers: %d calls, %d close callbacks; want 10 and 10", onceCalls, onceCloses)
	}
	if repeatCalls != 5 || repeatCloses != 1 {
		t.Errorf("repeating timer: %d calls, %d close callbacks; want 5 and 1", repeatCalls, repeatCloses)
	}
	if elapsed := l.Now() - start; elapsed < 50*time.Millisecond {
		t.Errorf("five 10ms repeats took %v of loop time", elapsed)
	}
	closeLoop(t, l)
}

// TestTimerStartTwice ports libuv's "timer_start_twice": starting an armed timer again
// re-arms it, so only the second timeout counts. uvgo binds the callback at NewTimer, not at
// Start, so the port checks the single call and its time instead of which callback ran.
func TestTimerStartTwice(t *testing.T) {
	l := newLoop(t)
	calls := 0
	tm := l.NewTimer(func(tm *uvloop.Timer) {
		calls++
		mustOK(t, tm.Close(nil))
	})
	l.UpdateTime()
	begin := l.Now()
	mustOK(t, tm.Start(24*time.Hour, 0))
	mustOK(t, tm.Start(10*time.Millisecond, 0))
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive")
	}
	if calls != 1 {
		t.Errorf("timer called %d times, want 1", calls)
	}
	if d := l.Now() - begin; d < 10*time.Millisecond {
		t.Errorf("timer fired after %v of loop time, before its 10ms", d)
	}
	closeLoop(t, l)
}

// TestTimerInit ports libuv's "timer_init": a new timer does not repeat, is not due and is
// not active.
func TestTimerInit(t *testing.T) {
	l := newLoop(t)
	tm := l.NewTimer(func(*uvloop.Timer) {})
	if tm.Repeat() != 0 || tm.DueIn() != 0 || tm.IsActive() || tm.IsClosing() {
		t.Errorf("new timer: repeat %v, due in %v, active %v, closing %v",
			tm.Repeat(), tm.DueIn(), tm.IsActive(), tm.IsClosing())
	}
	if tm.Kind() != uvloop.KindTimer || tm.Loop() != l {
		t.Errorf("new timer: kind %v, loop %p", tm.Kind(), tm.Loop())
	}
	closeLoop(t, l)
}

// TestTimerOrder ports libuv's "timer_order": timers with the same timeout run in the order
// they were started, whichever was created first.
func TestTimerOrder(t *testing.T) {
	l := newLoop(t)
	var order []string
	a := l.NewTimer(func(*uvloop.Timer) { order = append(order, "a") })
	b := l.NewTimer(func(*uvloop.Timer) { order = append(order, "b") })

	mustOK(t, a.Start(0, 0))
	mustOK(t, b.Start(0, 0))
	mustRunMode(t, l, uvloop.RunDefault)
	if !slices.Equal(order, []string{"a", "b"}) {
		t.Errorf("started a then b: ran %v", order)
	}

	mustOK(t, a.Stop())
	mustOK(t, b.Stop())
	order = nil
	mustOK(t, b.Start(0, 0))
	mustOK(t, a.Start(0, 0))
	mustRunMode(t, l, uvloop.RunDefault)
	if !slices.Equal(order, []string{"b", "a"}) {
		t.Errorf("started b then a: ran %v", order)
	}
	closeLoop(t, l)
}

// TestTimerZeroTimeout ports libuv's "timer_zero_timeout": a 0ms timer that restarts itself
// with 0ms and stops the loop runs once; Run returns alive because of Stop; after the timer
// is closed the loop runs out and the timer did not run again.
func TestTimerZeroTimeout(t *testing.T) {
	l := newLoop(t)
	calls := 0
	tm := l.NewTimer(func(tm *uvloop.Timer) {
		mustOK(t, tm.Start(0, 0))
		l.Stop()
		calls++
	})
	mustOK(t, tm.Start(0, 0))
	if !mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run after Stop reports the loop not alive, with a timer armed")
	}
	if calls != 1 {
		t.Fatalf("timer called %d times, want 1", calls)
	}
	mustOK(t, tm.Close(nil))
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after the timer was closed")
	}
	if calls != 1 {
		t.Errorf("timer called %d times after close, want 1", calls)
	}
	closeLoop(t, l)
}

// TestTimerHugeTimeout ports libuv's "timer_huge_timeout": timeouts far beyond any real wait,
// up to the largest Duration, are accepted, report their due time, and do not disturb a 1ms
// timer, whose callback closes all three. (libuv's 2^48-1 ms does not fit in a Duration; 2^62
// ns stands for it, and math.MaxInt64 for libuv's (uint64_t)-1, whose deadline saturates.)
func TestTimerHugeTimeout(t *testing.T) {
	l := newLoop(t)
	var tiny, huge1, huge2 *uvloop.Timer
	calls := 0
	cb := func(tm *uvloop.Timer) {
		if tm != tiny {
			t.Error("a huge timer fired")
		}
		calls++
		for _, h := range []*uvloop.Timer{tiny, huge1, huge2} {
			mustOK(t, h.Close(nil))
		}
	}
	tiny, huge1, huge2 = l.NewTimer(cb), l.NewTimer(cb), l.NewTimer(cb)
	mustOK(t, tiny.Start(time.Millisecond, 0))
	mustOK(t, huge1.Start(1<<62, 0))
	mustOK(t, huge2.Start(math.MaxInt64, 0))
	if d := tiny.DueIn(); d != time.Millisecond {
		t.Errorf("tiny timer due in %v, want 1ms", d)
	}
	if d := huge1.DueIn(); d != 1<<62 {
		t.Errorf("huge timer due in %v, want %v", d, time.Duration(1<<62))
	}
	if d := huge2.DueIn(); d <= 1<<62 {
		t.Errorf("largest timer due in %v, want more than %v", d, time.Duration(1<<62))
	}
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive")
	}
	if calls != 1 {
		t.Errorf("tiny timer called %d times, want 1", calls)
	}
	closeLoop(t, l)
}

// TestTimerHugeRepeat ports libuv's "timer_huge_repeat": a timer whose repeat is the largest
// Duration fires once, first, and is never due again, while a 2ms repeating timer runs the
// other nine calls.
func TestTimerHugeRepeat(t *testing.T) {
	l := newLoop(t)
	var tiny, huge *uvloop.Timer
	calls := 0
	cb := func(tm *uvloop.Timer) {
		if calls == 0 && tm != huge {
			t.Error("first call is not the huge timer's")
		}
		if calls > 0 && tm != tiny {
			t.Errorf("call %d is not the tiny timer's", calls+1)
		}
		if calls++; calls == 10 {
			mustOK(t, tiny.Close(nil))
			mustOK(t, huge.Close(nil))
		}
	}
	tiny, huge = l.NewTimer(cb), l.NewTimer(cb)
	mustOK(t, tiny.Start(2*time.Millisecond, 2*time.Millisecond))
	mustOK(t, huge.Start(time.Millisecond, math.MaxInt64))
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive")
	}
	if calls != 10 {
		t.Errorf("%d calls, want 10", calls)
	}
	closeLoop(t, l)
}

// TestTimerRunOnce ports libuv's "timer_run_once": RunOnce fires a due 0ms timer, waits for
// a 1ms one, and runs a close callback; each time it returns false, as nothing is left.
func TestTimerRunOnce(t *testing.T) {
	l := newLoop(t)
	calls := 0
	tm := l.NewTimer(func(*uvloop.Timer) { calls++ })
	mustOK(t, tm.Start(0, 0))
	if mustRunMode(t, l, uvloop.RunOnce) {
		t.Error("RunOnce reports the loop alive after the only timer fired")
	}
	if calls != 1 {
		t.Fatalf("%d calls after the first RunOnce, want 1", calls)
	}
	mustOK(t, tm.Start(time.Millisecond, 0))
	if mustRunMode(t, l, uvloop.RunOnce) {
		t.Error("RunOnce reports the loop alive after the only timer fired")
	}
	if calls != 2 {
		t.Fatalf("%d calls after the second RunOnce, want 2", calls)
	}
	closed := 0
	closeHandle(t, tm, &closed)
	if mustRunMode(t, l, uvloop.RunOnce) {
		t.Error("RunOnce reports the loop alive after the close callback")
	}
	if closed != 1 {
		t.Errorf("%d close callbacks, want 1", closed)
	}
	closeLoop(t, l)
}

// TestTimerIsClosing ports libuv's "timer_is_closing": starting a closing timer fails (libuv
// says EINVAL, uvgo ErrClosed) and leaves it inactive.
func TestTimerIsClosing(t *testing.T) {
	l := newLoop(t)
	tm := l.NewTimer(func(*uvloop.Timer) { t.Error("a closed timer fired") })
	mustOK(t, tm.Close(nil))
	if err := tm.Start(100*time.Millisecond, 100*time.Millisecond); !errors.Is(err, uvloop.ErrClosed) {
		t.Errorf("Start of a closing timer: %v, want ErrClosed", err)
	}
	if tm.IsActive() {
		t.Error("a closing timer became active")
	}
	closeLoop(t, l)
}

// TestTimerNullCallback ports libuv's "timer_null_callback": a timer without a callback
// cannot start (libuv says EINVAL, uvgo ErrNilCallback; uvgo takes the callback at NewTimer).
func TestTimerNullCallback(t *testing.T) {
	l := newLoop(t)
	tm := l.NewTimer(nil)
	if err := tm.Start(100*time.Millisecond, 100*time.Millisecond); !errors.Is(err, uvloop.ErrNilCallback) {
		t.Errorf("Start without a callback: %v, want ErrNilCallback", err)
	}
	if tm.IsActive() {
		t.Error("a timer without a callback became active")
	}
	closeLoop(t, l)
}

// TestTimerEarlyCheck ports libuv's "timer_early_check": a 10ms timer never fires before
// 10ms have passed, on the monotonic clock and in loop time.
func TestTimerEarlyCheck(t *testing.T) {
	l := newLoop(t)
	const timeout = 10 * time.Millisecond
	begin := time.Now()
	l.UpdateTime()
	due := l.Now() + timeout
	calls := 0
	tm := l.NewTimer(func(*uvloop.Timer) {
		calls++
		if d := time.Since(begin); d < timeout {
			t.Errorf("timer fired after %v, before its %v", d, timeout)
		}
		if l.Now() < due {
			t.Errorf("timer fired at loop time %v, before %v", l.Now(), due)
		}
	})
	mustOK(t, tm.Start(timeout, 0))
	mustRunMode(t, l, uvloop.RunDefault)
	if calls != 1 {
		t.Errorf("%d calls, want 1", calls)
	}
	mustOK(t, tm.Close(nil))
	mustRunMode(t, l, uvloop.RunDefault)
	closeLoop(t, l)
}

// testTimerNoDoubleCall is libuv's "timer_no_double_call_*": a repeating 10ms timer that is
// already two periods late when the loop runs fires once in one iteration, not once per
// missed period, and the loop stays alive.
func testTimerNoDoubleCall(t *testing.T, mode uvloop.RunMode) {
	l := newLoop(t)
	const period = 10 * time.Millisecond
	calls := 0
	tm := l.NewTimer(func(*uvloop.Timer) { calls++ })
	mustOK(t, tm.Start(period, period))
	time.Sleep(2 * period)
	if !mustRunMode(t, l, mode) {
		t.Error("Run reports the loop not alive with a repeating timer")
	}
	if calls != 1 {
		t.Errorf("%d calls in one iteration, want 1", calls)
	}
	closeLoop(t, l)
}

// TestTimerNoDoubleCallOnce ports libuv's "timer_no_double_call_once".
func TestTimerNoDoubleCallOnce(t *testing.T) { testTimerNoDoubleCall(t, uvloop.RunOnce) }

// TestTimerNoDoubleCallNowait ports libuv's "timer_no_double_call_nowait".
func TestTimerNoDoubleCallNowait(t *testing.T) { testTimerNoDoubleCall(t, uvloop.RunNoWait) }

// TestTimerNoRunOnUnref ports libuv's "timer_no_run_on_unref": a due timer that is unref'd
// does not keep the loop alive, so RunDefault returns without running it.
func TestTimerNoRunOnUnref(t *testing.T) {
	l := newLoop(t)
	tm := l.NewTimer(func(*uvloop.Timer) { t.Error("an unref'd timer fired") })
	mustOK(t, tm.Start(0, 0))
	tm.Unref()
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive with only an unref'd timer")
	}
	closeLoop(t, l)
}

// TestTimerAgain ports libuv's "timer_again": Again on a never-started timer fails; SetRepeat
// on a one-shot timer makes it repeat from its next expiry; a timer that another one keeps
// re-arming with Again never fires until that stops; and SetRepeat(0) in a repeating timer's
// callback takes effect only at the next expiry, after which the timer is inactive.
// (libuv's periods are 50ms and 100ms; 10ms and 20ms keep their ratio.)
func TestTimerAgain(t *testing.T) {
	const p1, p2 = 10 * time.Millisecond, 20 * time.Millisecond
	l := newLoop(t)
	l.UpdateTime()
	start := l.Now()

	dummy := l.NewTimer(func(*uvloop.Timer) { t.Error("the dummy timer fired") })
	if err := dummy.Again(); !errors.Is(err, uvloop.ErrNeverStarted) {
		t.Errorf("Again of a never-started timer: %v, want ErrNeverStarted", err)
	}
	dummy.Unref()

	var r1, r2 *uvloop.Timer
	var r1Calls, r2Calls, closes int
	r2Allowed := false
	r1 = l.NewTimer(func(tm *uvloop.Timer) {
		if tm != r1 {
			t.Error("repeat_1's callback got another timer")
		}
		if tm.Repeat() != p1 {
			t.Errorf("repeat_1's repeat is %v, want %v", tm.Repeat(), p1)
		}
		r1Calls++
		mustOK(t, r2.Again())
		if r1Calls == 10 {
			mustOK(t, tm.Close(func() { closes++ }))
			r2Allowed = true // nobody re-arms repeat_2 any more
		}
	})
	r2 = l.NewTimer(func(tm *uvloop.Timer) {
		if !r2Allowed {
			t.Error("repeat_2 fired while repeat_1 kept re-arming it")
		}
		r2Calls++
		if tm.Repeat() == 0 {
			if tm.IsActive() {
				t.Error("a timer whose repeat became 0 is still active at its expiry")
			}
			mustOK(t, tm.Close(func() { closes++ }))
			return
		}
		if tm.Repeat() != p2 {
			t.Errorf("repeat_2's repeat is %v, want %v", tm.Repeat(), p2)
		}
		tm.SetRepeat(0) // not for this expiry, which re-armed it already
	})

	mustOK(t, r1.Start(p1, 0))
	if r1.Repeat() != 0 {
		t.Errorf("repeat of a one-shot timer: %v", r1.Repeat())
	}
	r1.SetRepeat(p1)
	if r1.Repeat() != p1 {
		t.Errorf("repeat after SetRepeat: %v, want %v", r1.Repeat(), p1)
	}
	mustOK(t, r2.Start(p2, p2))
	if r2.Repeat() != p2 {
		t.Errorf("repeat_2's repeat is %v, want %v", r2.Repeat(), p2)
	}

	mustRunMode(t, l, uvloop.RunDefault)
	if r1Calls != 10 || r2Calls != 2 || closes != 2 {
		t.Errorf("repeat_1 %d calls, repeat_2 %d calls, %d close callbacks; want 10, 2, 2",
			r1Calls, r2Calls, closes)
	}
	if d := l.Now() - start; d < 10*p1+2*p2 {
		t.Errorf("test took %v of loop time, less than %v", d, 10*p1+2*p2)
	}
	closeLoop(t, l)
}

// TestTimerFromCheck ports libuv's "timer_from_check": a check callback that stops a timer
// before the timers phase could run it, restarts it and starts a prepare handle sees the
// prepare callback in the next iteration, before the timer fires.
func TestTimerFromCheck(t *testing.T) {
	l := newLoop(t)
	var prepareCalls, checkCalls, timerCalls int
	var prepare *uvloop.Prepare
	var check *uvloop.Check
	var tm *uvloop.Timer
	prepare = l.NewPrepare(func(*uvloop.Prepare) {
		mustOK(t, prepare.Stop())
		if prepareCalls != 0 || checkCalls != 1 || timerCalls != 0 {
			t.Errorf("prepare: prepare %d, check %d, timer %d; want 0, 1, 0", prepareCalls, checkCalls, timerCalls)
		}
		prepareCalls++
	})
	tm = l.NewTimer(func(*uvloop.Timer) {
		mustOK(t, tm.Stop())
		if prepareCalls != 1 || checkCalls != 1 || timerCalls != 0 {
			t.Errorf("timer: prepare %d, check %d, timer %d; want 1, 1, 0", prepareCalls, checkCalls, timerCalls)
		}
		timerCalls++
	})
	check = l.NewCheck(func(*uvloop.Check) {
		mustOK(t, check.Stop())
		mustOK(t, tm.Stop()) // the check phase comes before the timers phase
		// libuv restarts it with 50ms; a longer timeout keeps a stall of the test process
		// between here and this iteration's timers phase from firing it before prepare.
		mustOK(t, tm.Start(200*time.Millisecond, 0))
		mustOK(t, prepare.Start())
		if prepareCalls != 0 || checkCalls != 0 || timerCalls != 0 {
			t.Errorf("check: prepare %d, check %d, timer %d; want 0, 0, 0", prepareCalls, checkCalls, timerCalls)
		}
		checkCalls++
	})
	mustOK(t, check.Start())
	mustOK(t, tm.Start(50*time.Millisecond, 0))
	mustRunMode(t, l, uvloop.RunDefault)
	if prepareCalls != 1 || checkCalls != 1 || timerCalls != 1 {
		t.Errorf("prepare %d, check %d, timer %d; want 1 each", prepareCalls, checkCalls, timerCalls)
	}
	for _, h := range []uvloop.Handle{prepare, check, tm} {
		mustOK(t, h.Close(nil))
	}
	mustRunMode(t, l, uvloop.RunOnce)
	closeLoop(t, l)
}

// TestTimerCloseDue has no libuv counterpart; it is queue_foreach_delete for timers: of three
// timers due in one timers phase, the first closes the second and stops the third, and neither
// of those is called.
func TestTimerCloseDue(t *testing.T) {
	l := newLoop(t)
	var t1, t2, t3 *uvloop.Timer
	var order []string
	t1 = l.NewTimer(func(h *uvloop.Timer) {
		order = append(order, "t1")
		mustOK(t, t2.Close(nil))
		mustOK(t, t3.Stop())
		mustOK(t, h.Close(nil))
	})
	t2 = l.NewTimer(func(*uvloop.Timer) { order = append(order, "t2") })
	t3 = l.NewTimer(func(*uvloop.Timer) { order = append(order, "t3") })
	for _, h := range []*uvloop.Timer{t1, t2, t3} {
		mustOK(t, h.Start(0, 0))
	}
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive")
	}
	if !slices.Equal(order, []string{"t1"}) {
		t.Errorf("ran %v, want [t1]", order)
	}
	if t3.IsActive() {
		t.Error("a timer stopped while due is active")
	}
	closeLoop(t, l)
}
