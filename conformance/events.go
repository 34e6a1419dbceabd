package conformance

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodeprocess"
	"github.com/uvgo/uvgo/nodetimers"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the events, timers/promises and AbortSignal scenarios (307-312). EventEmitter
// is nodeevents': ee.on is On, ee.emit is Emit; events.once and events.on are
// nodeevents.Once and On; timers/promises is nodetimers; AbortController and AbortSignal
// are nodeevents'. An async function is promise.Async, `for await` is All's range, and
// `f().then(g)` with an async g is promise.Chain.

// inspect prints a value as console.log prints it inside an array: strings quoted.
func inspect(v any) string {
	switch v := v.(type) {
	case string:
		return "'" + v + "'"
	case []any:
		if len(v) == 0 {
			return "[]"
		}
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = inspect(x)
		}
		return "[ " + strings.Join(parts, ", ") + " ]"
	}
	return fmt.Sprint(v)
}

// inspectNames prints eventNames() as console.log does: strings quoted, the errorMonitor
// symbol as Node prints it.
func inspectNames(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		if n == nodeevents.ErrorMonitor {
			parts[i] = n
		} else {
			parts[i] = "'" + n + "'"
		}
	}
	return "[ " + strings.Join(parts, ", ") + " ]"
}

type none = struct{}

// async runs body as an async function that returns nothing.
func async(l *uvloop.Loop, body func() error) *promise.Promise[none] {
	return promise.Async(l, func() (none, error) { return none{}, body() })
}

// thenAsync is p.then(f) where f is an async function: the handler returns its promise.
func thenAsync(p *promise.Promise[none], f func() *promise.Promise[none]) *promise.Promise[none] {
	return promise.Chain(p, func(none) promise.Thenable[none] { return f() }, nil)
}

// thenDo is p.then(() => { f() }).
func thenDo(p *promise.Promise[none], f func()) *promise.Promise[none] {
	return promise.Then(p, func(none) (none, error) { f(); return none{}, nil }, nil)
}

// 307: the EventEmitter examples of the events documentation.
func eventsDocsEmitter(l *uvloop.Loop, out func(string)) func() {
	var e1 nodeevents.EventEmitter
	e1.On("event", func(...any) { out("an event occurred!") })
	e1.On("event", func(a ...any) { out(logLine("arguments", a[0], a[1])) })
	e1.On("event", func(a ...any) { l.SetImmediate(func() { out(logLine("this happens asynchronously", a[0])) }) })
	out(logLine("emit returned", e1.Emit("event", "a", "b"), "and", e1.Emit("nothing")))

	var e2 nodeevents.EventEmitter
	m, k := 0, 0
	e2.On("every", func(...any) { m++; out(logLine("on:", m)) })
	e2.Once("first", func(...any) { k++; out(logLine("once:", k)) })
	e2.Emit("every")
	e2.Emit("every")
	e2.Emit("first")
	e2.Emit("first")

	var e3 nodeevents.EventEmitter
	e3.On(nodeevents.ErrorMonitor, func(a ...any) { out(logLine("monitor saw", a[0])) })
	e3.On("error", func(a ...any) { out(logLine("whoops! there was an error:", a[0])) })
	e3.Emit("error", errors.New("whoops!"))
	func() {
		defer func() { out(logLine("emit threw", recover())) }()
		new(nodeevents.EventEmitter).Emit("error", errors.New("nobody listens"))
	}()

	var e4 nodeevents.EventEmitter
	e4.Once("newListener", func(a ...any) {
		if a[0] == "event" {
			e4.On("event", func(...any) { out("B") })
		}
	})
	e4.On("event", func(...any) { out("A") })
	e4.PrependListener("event", func(...any) { out("prepended C") })
	e4.Emit("event")

	var e5 nodeevents.EventEmitter
	callbackB := func(...any) { out("callback B") }
	callbackA := func(...any) {
		out("callback A")
		e5.RemoveListener("event", callbackB)
	}
	e5.On("event", callbackA)
	e5.On("event", callbackB)
	e5.Emit("event")
	e5.Emit("event")

	var e6 nodeevents.EventEmitter
	pong := func(...any) { out("pong") }
	e6.On("ping", pong)
	e6.Once("ping", pong)
	e6.RemoveListener("ping", pong)
	e6.Emit("ping")
	e6.Emit("ping")
	out(logLine("ping listeners", e6.ListenerCount("ping"), "of pong", e6.ListenerCount("ping", pong)))

	var e7 nodeevents.EventEmitter
	e7.Once("log", func(...any) { out("log once") })
	wrapper := e7.RawListeners("log")[0]
	wrapper.Func()()
	out(logLine("after calling the listener itself", e7.ListenerCount("log")))
	wrapper.Call()
	out(logLine("after calling the wrapper", e7.ListenerCount("log")))
	e7.On("log", func(...any) { out("log persistently") })
	e7.RawListeners("log")[0].Call()
	e7.Emit("log")

	var e8 nodeevents.EventEmitter
	e8.On("foo", func(...any) {})
	e8.On("bar", func(...any) {})
	e8.On(nodeevents.ErrorMonitor, func(...any) {})
	out(logLine("event names", inspectNames(e8.EventNames())))
	out(logLine("max listeners", e8.MaxListeners()))
	e8.SetMaxListeners(e8.MaxListeners() + 1)
	out(logLine("max listeners", e8.MaxListeners()))
	out("main end")
	return nil
}

// 308: the leak warning, through the process's 'warning' event.
func eventsDocsMaxListenersWarning(p *nodeprocess.Process, out func(string)) {
	var ee nodeevents.EventEmitter
	p.OnWarning(func(w error) {
		mw := w.(*nodeevents.MaxListenersExceededWarning)
		out(logLine("warning:", mw.Name()))
		out(logLine("  message:", mw))
		out(logLine("  type:", mw.Type, "count:", mw.Count, "same emitter:", mw.Emitter == &ee))
	})
	for range 12 {
		ee.On("data", func(...any) {})
	}
	out("12 data listeners added")
	var other nodeevents.EventEmitter
	other.SetMaxListeners(0)
	for range 20 {
		other.On("data", func(...any) {})
	}
	out("20 listeners on an unlimited emitter")
	var tight nodeevents.EventEmitter
	for range 10 {
		tight.On("event", func(...any) {})
	}
	tight.SetMaxListeners(tight.MaxListeners() + 1)
	tight.Once("event", func(...any) {
		tight.SetMaxListeners(max(tight.MaxListeners()-1, 0))
		out(logLine("once ran; limit back to", tight.MaxListeners()))
	})
	tight.Emit("event")
	p.Loop().NextTick(func() { out("tick queued after the warnings") })
	out("main end")
}

// 309: events.once.
func eventsOncePromise(p *nodeprocess.Process, out func(string)) {
	l := p.Loop()
	run := func() *promise.Promise[none] {
		return async(l, func() error {
			var ee nodeevents.EventEmitter
			l.NextTick(func() { ee.Emit("myevent", 42, "x") })
			args, _ := promise.Await(nodeevents.Once(l, &ee, "myevent", nil))
			out(logLine("value", args[0], args[1]))
			kaboom := errors.New("kaboom")
			l.NextTick(func() { ee.Emit("error", kaboom) })
			if _, err := promise.Await(nodeevents.Once(l, &ee, "myevent", nil)); err != nil {
				out(logLine("error happened", err, "listeners left", ee.ListenerCount("myevent"), ee.ListenerCount("error")))
			}
			return nil
		})
	}
	waitForError := func() *promise.Promise[none] {
		return async(l, func() error {
			var ee nodeevents.EventEmitter
			q := promise.Then(nodeevents.Once(l, &ee, "error", nil), func(a []any) (none, error) {
				out(logLine("ok", a[0]))
				return none{}, nil
			}, nil)
			ee.Emit("error", errors.New("boom"))
			_, err := promise.Await(q)
			return err
		})
	}
	cancel := func() *promise.Promise[none] {
		return async(l, func() error {
			var ee nodeevents.EventEmitter
			ac := nodeevents.NewAbortController()
			q := nodeevents.Once(l, &ee, "foo", &nodeevents.Options{Signal: ac.Signal()})
			ac.Abort()
			if _, err := promise.Await(q); err != nil {
				var ae *nodeevents.AbortError
				msg := "other"
				if errors.As(err, &ae) {
					msg = "Waiting for the event was canceled!"
				}
				out(logLine(msg, ae.Code(), "listeners left", ee.ListenerCount("foo")))
			} else {
				out("event emitted!")
			}
			return nil
		})
	}
	missed := func() *promise.Promise[none] {
		return async(l, func() error {
			var myEE nodeevents.EventEmitter
			l.NextTick(func() { myEE.Emit("bar"); myEE.Emit("foo") })
			promise.Await(nodeevents.Once(l, &myEE, "bar", nil))
			out("bar")
			promise.Await(nodeevents.Once(l, &myEE, "foo", nil)) // never settles
			out("foo (never)")
			return nil
		})
	}
	both := func() *promise.Promise[none] {
		return async(l, func() error {
			var myEE nodeevents.EventEmitter
			l.NextTick(func() { myEE.Emit("bar"); myEE.Emit("foo") })
			promise.Await(promise.All(l, nodeevents.Once(l, &myEE, "bar", nil), nodeevents.Once(l, &myEE, "foo", nil)))
			out(logLine("foo", "bar"))
			return nil
		})
	}
	turns := func() *promise.Promise[none] {
		return async(l, func() error {
			var ee nodeevents.EventEmitter
			turn := 0
			var counter func()
			counter = func() {
				if turn < 5 {
					turn++
					l.QueueMicrotask(counter)
				}
			}
			q := promise.Then(nodeevents.Once(l, &ee, "go", nil), func([]any) (none, error) {
				out(logLine("once settled at turn", turn))
				return none{}, nil
			}, nil)
			ee.Emit("go")
			l.QueueMicrotask(counter)
			_, err := promise.Await(q)
			return err
		})
	}
	x := thenAsync(run(), waitForError)
	x = thenAsync(x, cancel)
	x = thenDo(x, func() { thenDo(missed(), func() { out("done (never)") }) })
	x = thenAsync(x, both)
	x = thenDo(x, func() { out("done") })
	thenAsync(x, turns)
	p.OnExit(func(int) { out("exit") })
}

// 310: events.on as an async iterator.
func eventsOnAsyncIterator(p *nodeprocess.Process, out func(string)) {
	l := p.Loop()
	plain := func() *promise.Promise[none] {
		return async(l, func() error {
			var ee nodeevents.EventEmitter
			l.NextTick(func() {
				ee.Emit("foo", "bar")
				ee.Emit("foo", 42)
				ee.Emit("foo", "last", true)
			})
			for event, err := range nodeevents.On(l, &ee, "foo", nil).All() {
				if err != nil {
					return err
				}
				out(logLine("event", inspect(event)))
				if event[0] == "last" {
					break
				}
			}
			out(logLine("after break, listeners", ee.ListenerCount("foo"), ee.ListenerCount("error")))
			return nil
		})
	}
	aborted := func() *promise.Promise[none] {
		return async(l, func() error {
			ac := nodeevents.NewAbortController()
			var ee nodeevents.EventEmitter
			l.NextTick(func() {
				ee.Emit("foo", "bar")
				ee.Emit("foo", 42)
			})
			l.SetTimeout(func() { ac.Abort() }, 1*ms)
			for event, err := range nodeevents.On(l, &ee, "foo", &nodeevents.Options{Signal: ac.Signal()}).All() {
				if err != nil {
					ae := err.(*nodeevents.AbortError)
					out(logLine("loop ended:", ae.WarningName(), ae.Code(), "listeners", ee.ListenerCount("foo")))
					break
				}
				out(logLine("event", inspect(event)))
			}
			return nil
		})
	}
	errored := func() *promise.Promise[none] {
		return async(l, func() error {
			var ee nodeevents.EventEmitter
			l.SetImmediate(func() {
				ee.Emit("foo", 1)
				ee.Emit("error", errors.New("broken"))
				ee.Emit("foo", 2)
			})
			for event, err := range nodeevents.On(l, &ee, "foo", nil).All() {
				if err != nil {
					out(logLine("loop ended:", err, "listeners", ee.ListenerCount("foo")))
					break
				}
				out(logLine("event", inspect(event)))
			}
			return nil
		})
	}
	closed := func() *promise.Promise[none] {
		return async(l, func() error {
			var ee nodeevents.EventEmitter
			l.SetImmediate(func() {
				ee.Emit("foo", "a")
				ee.Emit("end")
				ee.Emit("foo", "b")
			})
			for event, err := range nodeevents.On(l, &ee, "foo", &nodeevents.Options{Close: []string{"end"}}).All() {
				if err != nil {
					return err
				}
				out(logLine("event", inspect(event)))
			}
			out(logLine("closed, listeners", ee.ListenerCount("foo"), ee.ListenerCount("end")))
			return nil
		})
	}
	x := thenAsync(plain(), aborted)
	x = thenAsync(x, errored)
	x = thenAsync(x, closed)
	thenDo(x, func() { out("done") })
}

// 311: timers/promises.
func timersPromises(p *nodeprocess.Process, out func(string)) {
	l := p.Loop()
	order := func() *promise.Promise[none] {
		return async(l, func() error {
			l.SetTimeout(func() { out("callback timeout 1 ms (set first)") }, 1*ms)
			a := promise.Then(nodetimers.SetTimeout(l, 1*ms, "promise timeout 1 ms", nil), func(v string) (none, error) {
				out(v)
				return none{}, nil
			}, nil)
			l.SetTimeout(func() { out("callback timeout 1 ms (set last)") }, 1*ms)
			b := promise.Then(nodetimers.SetImmediate(l, "promise immediate", nil), func(v string) (none, error) {
				out(v)
				return none{}, nil
			}, nil)
			l.SetImmediate(func() { out("callback immediate") })
			l.NextTick(func() { out("tick") })
			busyWait(3 * ms)
			promise.Await(promise.All(l, a, b))
			out("both settled")
			return nil
		})
	}
	aborts := func() *promise.Promise[none] {
		return async(l, func() error {
			ac := nodeevents.NewAbortController()
			q := nodetimers.SetTimeout(l, 50*ms, "never", &nodetimers.Options{Signal: ac.Signal()})
			l.SetTimeout(func() { ac.Abort() }, 1*ms)
			if _, err := promise.Await(q); err != nil {
				ae := err.(*nodeevents.AbortError)
				out(logLine("timeout aborted:", ae.WarningName(), ae.Code(), ae.Cause.(*nodeevents.DOMException).Name))
			}
			_, err := promise.Await(nodetimers.SetImmediate(l, "never",
				&nodetimers.Options{Signal: nodeevents.AbortSignalAbort(errors.New("why not"))}))
			if ae, ok := err.(*nodeevents.AbortError); ok {
				out(logLine("already aborted:", ae.WarningName(), ae.Cause))
			}
			return nil
		})
	}
	interval := func() *promise.Promise[none] {
		return async(l, func() error {
			n := 0
			start := time.Now()
			for v, err := range nodetimers.SetInterval(l, 5*ms, "tick value", nil).All() {
				if err != nil {
					return err
				}
				n++
				out(logLine("interval", n, v, time.Since(start) >= time.Duration(5*n-1)*ms))
				if n == 3 {
					break
				}
			}
			out("interval done")
			return nil
		})
	}
	unrefd := func() *promise.Promise[none] {
		return async(l, func() error {
			promise.Then(nodetimers.SetTimeout(l, 1000*ms, "never", &nodetimers.Options{Unref: true}), func(string) (none, error) {
				out("unref timeout (never)")
				return none{}, nil
			}, nil)
			promise.Await(nodetimers.SetTimeout(l, 2*ms, none{}, nil))
			out("ref timeout")
			return nil
		})
	}
	x := thenAsync(order(), aborts)
	x = thenAsync(x, interval)
	x = thenAsync(x, unrefd)
	thenDo(x, func() { out("done") })
	p.OnExit(func(int) { out("exit") })
}

// 312: AbortController and AbortSignal.
func abortSignal(l *uvloop.Loop, out func(string)) func() {
	ac := nodeevents.NewAbortController()
	ac.Signal().On("abort", func(...any) { out(logLine("abort listener 1, aborted", ac.Signal().Aborted())) })
	ac.Signal().On("abort", func(...any) {
		out("abort listener 2")
		l.NextTick(func() { out("tick from an abort listener") })
	})
	reason := "undefined"
	if r := ac.Signal().Reason(); r != nil {
		reason = r.Error()
	}
	out(logLine("before abort", ac.Signal().Aborted(), reason))
	ac.Abort()
	ac.Abort(errors.New("second reason ignored"))
	de := ac.Signal().Reason().(*nodeevents.DOMException)
	out(logLine("after abort", ac.Signal().Aborted(), de.Name, de.Message, de.Code))

	mine := nodeevents.NewAbortController()
	mine.Abort(errors.New("my reason"))
	out(logLine("custom reason", mine.Signal().Reason()))
	pre := nodeevents.AbortSignalAbort()
	out(logLine("AbortSignal.abort()", pre.Aborted(), pre.Reason().(*nodeevents.DOMException).Name))
	func() {
		defer func() {
			if r := recover(); r != nil {
				out(logLine("throwIfAborted threw", r.(*nodeevents.DOMException).Name))
			}
		}()
		pre.ThrowIfAborted()
	}()

	// (The 1 ms timer is set first, so that it is due first however long this takes.)
	a := nodeevents.NewAbortController()
	b := nodeevents.NewAbortController()
	anySignal := nodeevents.AbortSignalAny(a.Signal(), b.Signal())
	anySignal.On("abort", func(...any) { out(logLine("any aborted with", anySignal.Reason())) })
	l.SetTimeout(func() {
		b.Abort(errors.New("b went first"))
		a.Abort(errors.New("a went second"))
	}, 1*ms)

	t := nodeevents.AbortSignalTimeout(l, 5*ms)
	t.On("abort", func(...any) {
		te := t.Reason().(*nodeevents.DOMException)
		out(logLine("timeout signal:", te.Name, te.Message, te.Code))
	})
	l.SetTimeout(func() { out("a 20 ms timeout keeps the loop alive") }, 20*ms)

	unrefOnly := nodeevents.AbortSignalTimeout(l, 100000*ms)
	unrefOnly.On("abort", func(...any) { out("never: the timeout signal is unref'd") })
	out("main end")
	return nil
}
