package conformance

import (
	"fmt"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the basic scenarios (021-033) that need nothing but timers, immediates and ticks.

// 023: timeouts run by due time, not by creation.
func timeoutsFireInDelayOrder(l *uvloop.Loop, out func(string)) func() {
	for _, d := range []int{60, 20, 40, 1} {
		l.SetTimeout(func() { out(fmt.Sprintf("timeout %dms", d)) }, time.Duration(d)*ms)
	}
	out("main end")
	return nil
}

// 024: timeouts of equal delay run in creation order.
func equalDelayFIFO(l *uvloop.Loop, out func(string)) func() {
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		l.SetTimeout(func() { out(logLine("timeout", name)) }, 10*ms)
	}
	out("main end")
	return nil
}

// 025: an interval repeats until its third run clears it; a timeout set then shows that the
// loop goes on to its end normally.
func setIntervalThreeRuns(l *uvloop.Loop, out func(string)) func() {
	n := 0
	var iv *uvloop.Timeout
	iv = l.SetInterval(func() {
		n++
		out(logLine("interval run", n))
		if n == 3 {
			l.ClearInterval(iv)
			out("interval cleared")
			l.SetTimeout(func() { out(logLine("timeout after clear, runs =", n)) }, 30*ms)
		}
	}, 10*ms)
	out("main end")
	return nil
}

// 026: cleared timeouts and immediates never run; clearing twice or clearing nil does
// nothing. The 10 ms busy-wait makes the 5 ms timeouts due when the loop starts, so the
// timeout runs before the immediate.
func clearTimeoutAndClearImmediate(l *uvloop.Loop, out func(string)) func() {
	t1 := l.SetTimeout(func() { out("t1 (cleared, must not run)") }, 5*ms)
	l.SetTimeout(func() { out("t2 runs") }, 5*ms)
	i1 := l.SetImmediate(func() { out("i1 (cleared, must not run)") })
	l.SetImmediate(func() { out("i2 runs") })
	l.ClearTimeout(t1)
	l.ClearTimeout(t1)
	l.ClearImmediate(i1)
	l.ClearTimeout(nil)
	l.ClearImmediate(nil)
	busyWait(10 * ms)
	out("main end")
	return nil
}

// 027: Node passes extra arguments to the callbacks; in Go the closures capture them. The
// tick, the immediate, the 50 ms timeout and the 100 ms interval (which clears itself) run
// in that order.
func callbackArguments(l *uvloop.Loop, out func(string)) func() {
	withArgs := func(fn func(args ...any), args ...any) func() { return func() { fn(args...) } }
	l.NextTick(withArgs(func(a ...any) { out(logLine(append([]any{"nextTick args:"}, a...)...)) }, "x", 2))
	l.SetImmediate(withArgs(func(a ...any) { out(logLine(append([]any{"setImmediate args:"}, a...)...)) }, 1, "two", 3))
	l.SetTimeout(withArgs(func(a ...any) { out(logLine("setTimeout arg:", a[0])) }, "late"), 50*ms)
	var iv *uvloop.Timeout
	iv = l.SetInterval(withArgs(func(a ...any) {
		out(logLine("setInterval arg:", a[0]))
		l.ClearInterval(iv)
	}, "iv"), 100*ms)
	out("main end")
	return nil
}

// 032: an unref'd timeout does not keep the loop alive: the loop ends after the 10 ms
// timeout, and the 500 ms one never runs.
func unrefTimerDoesNotKeepAlive(l *uvloop.Loop, out func(string)) func() {
	t := l.SetTimeout(func() { out("unref timer (must not run)") }, 500*ms)
	t.Unref()
	out(logLine("hasRef after unref:", t.HasRef()))
	l.SetTimeout(func() { out("ref timer 10ms runs") }, 10*ms)
	out("main end")
	return func() { out("exit event") }
}
