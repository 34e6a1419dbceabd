package conformance

import (
	"fmt"
	"strings"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the seed scenarios (001-020) that need nothing but timers, immediates and ticks.

// 006: a 0 ms timeout (1 ms) and an immediate set by the main script race: the timeout runs
// first only if 1 ms has passed when the loop starts. Either order is allowed.
func timeoutVsImmediateMain(l *uvloop.Loop, out func(string)) func() {
	l.SetTimeout(func() { out("timeout") }, 0)
	l.SetImmediate(func() { out("immediate") })
	return nil
}

// jsValue prints v as console.log would print a JS variable that may be unset.
func jsValue(v any) string {
	if v == nil {
		return "undefined"
	}
	return fmt.Sprint(v)
}

// 008: a callback deferred with NextTick runs after the rest of the main script, so it sees
// bar already set; the timeout/immediate pair is 006's race.
func nextTickBarTimeoutImmediate(l *uvloop.Loop, out func(string)) func() {
	var bar any
	l.SetTimeout(func() { out("setTimeout") }, 0)
	l.SetImmediate(func() { out("setImmediate") })
	someAsyncAPICall := func(callback func()) { l.NextTick(callback) }
	someAsyncAPICall(func() { out(logLine("bar", jsValue(bar))) })
	bar = 1
	return nil
}

// typeError stands for the JS TypeError that apiCall hands to its callback.
type typeError struct{ message string }

func (e *typeError) Error() string { return e.message }

// 009: apiCall reports a bad argument through a NextTick'ed callback (after the main script)
// and a good one synchronously.
func apiCallNextTickError(l *uvloop.Loop, out func(string)) func() {
	apiCall := func(arg any, callback func(err *typeError, value string)) {
		s, ok := arg.(string)
		if !ok {
			err := &typeError{"argument should be string"}
			l.NextTick(func() { callback(err, "") })
			return
		}
		callback(nil, strings.ToUpper(s))
	}
	apiCall(42, func(err *typeError, _ string) {
		out(logLine("callback 1:", "TypeError", err.message))
	})
	apiCall("abc", func(err *typeError, value string) {
		errText := "null"
		if err != nil {
			errText = err.Error()
		}
		out(logLine("callback 2:", errText, value))
	})
	out("after both apiCall calls")
	return nil
}

// 010: a callback called synchronously runs before the assignment that follows the call.
func syncCallbackBarUndefined(l *uvloop.Loop, out func(string)) func() {
	var bar any
	someAsyncAPICall := func(callback func()) { callback() }
	someAsyncAPICall(func() { out(logLine("bar", jsValue(bar))) })
	bar = 1
	return nil
}

// 011: the same callback deferred with NextTick runs after the assignment.
func nextTickCallbackBar1(l *uvloop.Loop, out func(string)) func() {
	var bar any
	someAsyncAPICall := func(callback func()) { l.NextTick(callback) }
	someAsyncAPICall(func() { out(logLine("bar", jsValue(bar))) })
	bar = 1
	return nil
}

// 018: 006's race with a synchronous log after it; either order is allowed.
func timeoutImmediateAfterSyncCode(l *uvloop.Loop, out func(string)) func() {
	l.SetTimeout(func() { out("timeout") }, 0)
	l.SetImmediate(func() { out("immediate") })
	out("主线程代码")
	return nil
}

// 019: a NextTick callback that queues the next one keeps the loop out of every phase: the
// 1000 ticks all run before the (1 ms) timeout set first.
func nextTickRecursion(l *uvloop.Loop, out func(string)) func() {
	start := time.Now()
	l.SetTimeout(func() {
		out(logLine("finish reading time >= 0: ", time.Since(start) >= 0))
	}, 0)
	index := 0
	var handler func()
	handler = func() {
		if index >= 1000 {
			return
		}
		index++
		out(fmt.Sprintf("nextTick %d", index))
		l.NextTick(handler)
	}
	handler()
	return nil
}

// logCost stands in for what a console.log costs Node (a synchronous write, some
// microseconds), where the scenario relies on the loop not being much faster than that.
const logCost = 20 * time.Microsecond

// 020: an immediate queued by an immediate waits for the next iteration, so the 1 ms timeout
// gets its timers phase in between. In Node the 1000 iterations take well over 1 ms because
// each prints; a bare Go iteration can be faster than that, so each handler also spends
// logCost (20 ms in all), which keeps the timeout due well before the last immediate.
func setImmediateRecursion(l *uvloop.Loop, out func(string)) func() {
	index := 0
	timerFiredAt := 0
	l.SetTimeout(func() { timerFiredAt = index }, 0)
	var handler func()
	handler = func() {
		if index >= 1000 {
			out(logLine("timer fired before the last immediate:", timerFiredAt > 0 && timerFiredAt <= 1000))
			return
		}
		index++
		out(fmt.Sprintf("setImmediate %d", index))
		busyWait(logCost)
		l.SetImmediate(handler)
	}
	handler()
	return nil
}
