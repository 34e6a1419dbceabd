package conformance

import (
	"fmt"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of uvgo's own scenarios (100-...), which pin rules the corpus does not cover. Their
// expected.txt was recorded with node and checked for determinism (30 idle runs, 15 with a
// busy loop on the other core).

// 100: ticks and microtasks queued by a timeout callback run right after it, before the
// next timeout of the same list and before the next list; a timeout set from a timeout
// callback waits for the next timers phase even if it is due before this one ends.
func nextTickFromTimeoutBeforeNextTimeout(l *uvloop.Loop, out func(string)) func() {
	l.SetTimeout(func() {
		out("a (5 ms list)")
		l.NextTick(func() { out("  tick from a") })
		l.QueueMicrotask(func() { out("  microtask from a") })
		l.SetTimeout(func() { out("e (1 ms, set by a)") }, 1*ms)
		busyWait(5 * ms)
	}, 5*ms)
	l.SetTimeout(func() {
		out("b (5 ms list)")
		l.QueueMicrotask(func() { out("  microtask from b") })
		l.NextTick(func() {
			out("  tick from b")
			l.NextTick(func() { out("  tick from the tick from b") })
		})
	}, 5*ms)
	l.SetTimeout(func() { out("c (10 ms list)") }, 10*ms)
	busyWait(20 * ms)
	out("main end")
	return nil
}

// 101: an immediate queued by an immediate waits for the next iteration, and a timeout that
// became due in between runs first. Immediate 1 busy-waits 30 ms, so its 10 ms timeout is
// due when the check phase ends.
func immediateFromImmediateWaitsForTimers(l *uvloop.Loop, out func(string)) func() {
	l.SetImmediate(func() {
		out("immediate 1")
		l.SetTimeout(func() { out("timeout 10 ms (set by immediate 1)") }, 10*ms)
		l.SetImmediate(func() {
			out("immediate 3 (queued by immediate 1)")
			l.SetImmediate(func() { out("immediate 4 (queued by immediate 3)") })
		})
		busyWait(30 * ms)
	})
	l.SetImmediate(func() { out("immediate 2") })
	out("main end")
	return nil
}

// 102: a timeout clears an interval that ran (and was re-armed) earlier in the same timers
// phase, and another timeout clears a second interval, behind it in the same list, before
// its first run; cleared intervals do not keep the loop alive. The 30 ms busy-wait makes
// the 5, 6 and 20 ms timers due when the loop starts.
func setIntervalClearedByAnotherTimeout(l *uvloop.Loop, out func(string)) func() {
	runs, runs2 := 0, 0
	var iv2 *uvloop.Timeout
	iv := l.SetInterval(func() {
		runs++
		out(logLine("interval run", runs))
	}, 5*ms)
	l.SetTimeout(func() {
		l.ClearInterval(iv)
		out("6 ms timeout clears the interval")
	}, 6*ms)
	l.SetTimeout(func() {
		l.ClearInterval(iv2)
		out("20 ms timeout clears the second interval")
	}, 20*ms)
	iv2 = l.SetInterval(func() { runs2++ }, 20*ms)
	l.SetTimeout(func() {
		out(logLine("40 ms timeout: interval runs =", runs, ", second interval runs =", runs2))
	}, 40*ms)
	busyWait(30 * ms)
	out("main end")
	return nil
}

// 103: Unref then Ref makes a timeout keep the loop alive again, also when Ref comes later
// from another callback; an unref'd timeout runs while something else keeps the loop alive,
// and one due after everything else never runs.
func unrefThenRefTimeout(l *uvloop.Loop, out func(string)) func() {
	var lines []string // printed once every timeout is set, as the script does
	a := l.SetTimeout(func() { out("a: unref then ref, runs at 30 ms") }, 30*ms)
	a.Unref()
	lines = append(lines, fmt.Sprint("a hasRef after unref: ", a.HasRef()))
	a.Ref()
	lines = append(lines, fmt.Sprint("a hasRef after ref: ", a.HasRef()))

	b := l.SetTimeout(func() { out("b: ref again by the 10 ms timeout, runs at 60 ms") }, 60*ms)
	b.Unref()
	l.SetTimeout(func() {
		b.Ref()
		out(logLine("10 ms timeout refs b; b hasRef:", b.HasRef()))
	}, 10*ms)

	d := l.SetTimeout(func() { out("d: unref, runs at 20 ms since a keeps the loop alive") }, 20*ms)
	d.Unref().Ref().Unref()
	lines = append(lines, fmt.Sprint("d hasRef after unref/ref/unref: ", d.HasRef()))

	l.SetTimeout(func() { out("c (must not run)") }, 200*ms).Unref()
	for _, line := range lines {
		out(line)
	}
	out("main end")
	return func() { out("exit event") }
}

// 104: Refresh inside its own callback schedules the timeout again, counting from now with
// its delay, and keeps the loop alive; the 30 ms timeout runs between the first run (20 ms)
// and the second (40 ms or later).
func refreshInOwnCallback(l *uvloop.Loop, out func(string)) func() {
	runs := 0
	var t *uvloop.Timeout
	t = l.SetTimeout(func() {
		runs++
		out(logLine("t run", runs, "hasRef", t.HasRef()))
		if runs < 3 {
			t.Refresh()
		}
	}, 20*ms)
	l.SetTimeout(func() { out("30 ms timeout") }, 30*ms)
	out("main end")
	return nil
}
