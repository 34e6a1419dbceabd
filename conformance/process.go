package conformance

import (
	"errors"
	"fmt"
	"slices"

	"github.com/uvgo/uvgo/nodeprocess"
	"github.com/uvgo/uvgo/promise"
)

// Ports of the process scenarios (300-306), which run under nodeprocess: process.on(...)
// is p.On or a typed p.On*, process.exitCode is p.ExitCode/SetExitCode, process.exit is
// p.Exit, and a throw is a panic. err.message is the error itself (fmt prints its Error).

// exitCodeString prints process.exitCode as console.log does: a number or undefined.
func exitCodeString(p *nodeprocess.Process) string {
	if c, ok := p.ExitCode(); ok {
		return fmt.Sprint(c)
	}
	return "undefined"
}

// thenLog queues a promise reaction that prints s: Promise.resolve().then(() => log(s)).
func thenLog(p *nodeprocess.Process, out func(string), s string) {
	promise.Then(promise.Resolve(p.Loop(), 0), func(int) (int, error) { out(s); return 0, nil }, nil)
}

// 300: beforeExit, again while it schedules work, then exit with the exit code.
func processBeforeExitExitSequence(p *nodeprocess.Process, out func(string)) {
	l := p.Loop()
	round := 0
	p.OnBeforeExit(func(code int) {
		round++
		out(logLine("beforeExit", round, "code", code, "exitCode", exitCodeString(p)))
		switch round {
		case 1:
			l.SetTimeout(func() { out("timeout from beforeExit") }, 1*ms)
			l.NextTick(func() { out("tick from beforeExit") })
			thenLog(p, out, "promise from beforeExit")
		case 2:
			l.SetImmediate(func() { out("immediate from the second beforeExit") })
		}
	})
	p.OnExit(func(code int) {
		out(logLine("exit", code, "exitCode", exitCodeString(p)))
		l.NextTick(func() { out("tick from exit (never runs)") })
		l.SetTimeout(func() { out("timeout from exit (never runs)") }, 0)
		thenLog(p, out, "promise from exit")
		p.SetExitCode(0)
	})
	p.OnExit(func(code int) { out(logLine("second exit listener", code, "exitCode", exitCodeString(p))) })
	l.SetTimeout(func() { out("timeout from main") }, 1*ms)
	p.SetExitCode(3)
	out("main end")
}

// 301: an uncaughtException listener; the process goes on where Node's does.
func processUncaughtExceptionResumes(p *nodeprocess.Process, out func(string)) {
	l := p.Loop()
	p.OnUncaughtException(func(err any, origin string) {
		out(logLine("uncaughtException:", err, origin, "exitCode", exitCodeString(p)))
		l.NextTick(func() { out(fmt.Sprintf("  tick from the listener (%v)", err)) })
	})
	p.OnExit(func(code int) { out(logLine("exit", code)) })
	l.SetTimeout(func() {
		out("timeout 1")
		l.NextTick(func() { out("  tick from timeout 1") })
		thenLog(p, out, "  promise from timeout 1")
		panic(errors.New("timeout 1 threw"))
	}, 1*ms)
	l.SetTimeout(func() { out("timeout 2 (same list)") }, 1*ms)
	l.SetTimeout(func() { out("timeout 3 (2 ms list)") }, 2*ms)
	l.SetImmediate(func() { out("immediate 1"); panic(errors.New("immediate 1 threw")) })
	l.SetImmediate(func() { out("immediate 2") })
	l.NextTick(func() { out("tick 1"); panic(errors.New("tick 1 threw")) })
	l.NextTick(func() { out("tick 2") })
	promise.Reject[int](l, errors.New("rejected in main"))
	busyWait(5 * ms)
	out("main end")
}

// 302: a panicking microtask is reported at once; the drain goes on.
func processUncaughtInMicrotask(p *nodeprocess.Process, out func(string)) {
	l := p.Loop()
	p.OnUncaughtException(func(err any, origin string) {
		out(logLine("uncaughtException:", err, origin))
		l.NextTick(func() { out("  tick from the listener") })
		l.QueueMicrotask(func() { out("  microtask from the listener") })
	})
	l.SetTimeout(func() {
		out("timeout 1")
		l.QueueMicrotask(func() { out("microtask 1"); panic(errors.New("microtask 1 threw")) })
		l.QueueMicrotask(func() {
			out("microtask 2")
			l.NextTick(func() { out("  tick from microtask 2") })
		})
		l.NextTick(func() { out("tick from timeout 1") })
	}, 0)
	l.SetTimeout(func() { out("timeout 2") }, 0)
	busyWait(3 * ms)
	out("main end")
}

// 303: unhandledRejection, rejectionHandled, and the warning when nobody listens.
func processRejectionEvents(p *nodeprocess.Process, out func(string)) {
	l := p.Loop()
	n := 0
	var handledLate []*promise.Promise[int]
	p.OnUnhandledRejection(func(reason error, pr promise.AnyPromise) {
		n++
		q, isPromise := pr.(*promise.Promise[int])
		out(logLine("unhandledRejection", n, reason, isPromise))
		handledLate = append(handledLate, q)
	})
	var onHandled func(...any)
	onHandled = func(a ...any) {
		out(logLine("rejectionHandled", slices.Index(handledLate, a[0].(*promise.Promise[int]))+1))
		p.RemoveListener("rejectionHandled", onHandled)
	}
	p.On("rejectionHandled", onHandled)
	p.OnWarning(func(w error) { out(logLine("warning:", w.(*nodeprocess.Warning).Name, w)) })
	promise.Reject[int](l, errors.New("first"))
	promise.Reject[int](l, errors.New("second"))
	thenLog(p, out, "main microtask")
	catchLog := func(q *promise.Promise[int]) {
		q.Catch(func(err error) (int, error) { out(logLine("caught", err)); return 0, nil })
	}
	l.SetTimeout(func() {
		out("timeout: handle the first")
		catchLog(handledLate[0])
		l.NextTick(func() { out("tick from the timeout") })
	}, 1*ms)
	l.SetTimeout(func() {
		out("timeout: handle the second")
		catchLog(handledLate[1])
	}, 5*ms)
	p.OnExit(func(code int) { out(logLine("exit", code)) })
	out("main end")
}

// 304: a fatal uncaught exception: the monitor, exit with 1, the status an exit listener
// sets.
func processFatalExceptionStatus(p *nodeprocess.Process, out func(string)) {
	l := p.Loop()
	p.On("uncaughtExceptionMonitor", func(a ...any) { out(logLine("monitor:", a[0], a[1])) })
	p.OnBeforeExit(func(int) { out("beforeExit (never)") })
	p.OnExit(func(code int) {
		out(logLine("exit", code, "exitCode", exitCodeString(p)))
		thenLog(p, out, "promise from exit (never: the process is dying)")
		p.SetExitCode(9)
	})
	l.SetTimeout(func() {
		out("timeout")
		l.NextTick(func() { out("tick (never)") })
		panic(errors.New("nobody catches this"))
	}, 1*ms)
	l.SetTimeout(func() { out("second timeout (never)") }, 1*ms)
	out("main end")
}

// 305: process.exit in a promise reaction, and again in the exit listener.
func processExitCalls(p *nodeprocess.Process, out func(string)) {
	l := p.Loop()
	p.OnExit(func(code int) {
		out(logLine("exit", code, "exitCode", exitCodeString(p)))
		thenLog(p, out, "promise from exit (never)")
		p.Exit(4)
		out("after process.exit in exit (never)")
	})
	p.OnExit(func(int) { out("second exit listener (never)") })
	l.SetTimeout(func() { out("timeout (never)") }, 0)
	l.SetImmediate(func() { out("immediate (never)") })
	l.NextTick(func() { out("tick") })
	promise.Then(promise.Resolve(l, 0), func(int) (int, error) {
		out("reaction 1")
		l.NextTick(func() { out("tick from reaction 1 (never)") })
		p.Exit(2)
		return 0, nil
	}, nil)
	thenLog(p, out, "reaction 2 (queued before the exit)")
	p.SetExitCode(7)
	out("main end")
}

// 306: an unhandled rejection with a reason that is not an error is fatal.
func processUnhandledNonErrorFatal(p *nodeprocess.Process, out func(string)) {
	l := p.Loop()
	p.On("uncaughtExceptionMonitor", func(a ...any) {
		err := a[0].(*nodeprocess.UnhandledPromiseRejection)
		out(logLine("monitor:", err.Code(), a[1]))
		out(err.Error())
	})
	p.OnExit(func(code int) { out(logLine("exit", code, "exitCode", exitCodeString(p))) })
	l.SetTimeout(func() { out("timeout (never)") }, 0)
	promise.Reject[int](l, promise.Reason(42))
	thenLog(p, out, "microtask before the checkpoint")
	out("main end")
}
