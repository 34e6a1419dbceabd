package nodeprocess

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Exit statuses that Node gives and this package gives the same way.
const (
	// StatusFatal is the status after an uncaught exception or an unhandled rejection that
	// nothing handled, unless an 'exit' listener set another exit code (Node's 1).
	StatusFatal = 1
	// StatusHandlerFailed is the status when an 'uncaughtException' listener (or an
	// 'uncaughtExceptionMonitor' one) panicked; 'exit' is not emitted (Node's 7).
	StatusHandlerFailed = 7
)

// Process is Node's process object for one loop: an EventEmitter with Node's process
// events, the exit code, Exit and EmitWarning, and Run, which runs a main script, the loop
// and Node's exit sequence. Make it with New; it belongs to the loop goroutine.
//
// Events, with the arguments their listeners get:
//
//	"beforeExit"                (code int)
//	"exit"                      (code int)
//	"uncaughtException"         (err any, origin string)   origin: "uncaughtException" or "unhandledRejection"
//	"uncaughtExceptionMonitor"  (err any, origin string)
//	"unhandledRejection"        (reason error, p promise.AnyPromise)
//	"rejectionHandled"          (p promise.AnyPromise)
//	"warning"                   (w error)
//	"SIGINT", "SIGTERM", ...    (name string, number int)
//
// err is what the callback panicked with (an error, or any other value, as JavaScript can
// throw anything). The typed On* methods are shorthands for these events. The first
// listener of a signal starts an unref'd uvloop Signal handle (it does not keep the loop
// alive, as in Node), and removing the last one stops it.
type Process struct {
	nodeevents.EventEmitter

	loop     *uvloop.Loop
	errOut   io.Writer // where uncaught errors and warnings are printed
	warnings bool      // print warnings (Node without --no-warnings)

	exitCode    int  // process.exitCode, if exitCodeSet
	exitCodeSet bool // else it is undefined
	exiting     bool // process._exiting: 'exit' was emitted (or is being emitted)
	done        bool // nothing more runs but the exit sequence
	exitNow     bool // Exit was called: no 'exit' from the sequence, no microtasks after it
	noExitEvent bool // a handler of an uncaught exception failed: no 'exit' at all
	status      int  // the status when noExitEvent
	inRun       bool // inside Loop.Run: harness code there ends Run with Fail
	ran         bool // Run was called

	signals        map[string]*uvloop.Signal // the started handle of each signal listened to
	stdin          *Stdin
	stdout, stderr *Stdout
	restore        [][2]int // fds whose flags Close puts back, with the flags
}

// Option configures a Process.
type Option func(*Process)

// WithStderr makes the process write uncaught errors and warnings to w instead of
// os.Stderr.
func WithStderr(w io.Writer) Option { return func(p *Process) { p.errOut = w } }

// WithoutWarnings drops the default printing of warnings (Node's --no-warnings): 'warning'
// listeners still get them.
func WithoutWarnings() Option { return func(p *Process) { p.warnings = false } }

// errExit and errFatal are what Fail ends Run with when the process is done (Exit was
// called, or an uncaught exception was fatal); exitUnwind is what Exit unwinds its caller
// with.
var (
	errExit  = errors.New("nodeprocess: exit")
	errFatal = errors.New("nodeprocess: fatal exception")
)

// ErrExit is what Exit panics with to unwind its caller. Run recovers it; inside a promise
// handler or an Async body the promise package recovers it first and rejects the handler's
// promise with it, so a handler chained to that promise may still see it (errors.Is(err,
// ErrExit)) before the loop stops.
var ErrExit = errors.New("nodeprocess: process.exit")

var exitUnwind = ErrExit

// New returns the process of loop l. Its 'warning' event has one listener from the start,
// the one that prints warnings as Node does (unless WithoutWarnings), so a program's own
// listener runs after it, as in Node.
func New(l *uvloop.Loop, opts ...Option) *Process {
	p := &Process{loop: l, errOut: os.Stderr, warnings: true, signals: map[string]*uvloop.Signal{}}
	p.SetClassName("process")
	for _, o := range opts {
		o(p)
	}
	if p.warnings {
		p.On("warning", func(args ...any) {
			if w, ok := args[0].(error); ok {
				nodeevents.WriteWarning(p.errOut, w)
			}
		})
	}
	return p
}

// Loop returns the process's loop.
func (p *Process) Loop() *uvloop.Loop { return p.loop }

// ExitCode returns process.exitCode and whether it is set (false: undefined).
func (p *Process) ExitCode() (code int, set bool) { return p.exitCode, p.exitCodeSet }

// SetExitCode sets process.exitCode: the status the process exits with when the loop ends
// (and the code 'beforeExit' and 'exit' get).
func (p *Process) SetExitCode(code int) { p.exitCode, p.exitCodeSet = code, true }

// code is process.exitCode || def.
func (p *Process) code(def int) int {
	if p.exitCodeSet && p.exitCode != 0 {
		return p.exitCode
	}
	return def
}

// Exit is Node's process.exit: with a code it sets the exit code; then, unless 'exit' was
// emitted already, it emits 'exit' at once, in the caller, and the process ends: nothing
// more runs — no tick, microtask, timeout or immediate queued, not even the microtasks
// queued by 'exit' listeners. Exit does not return: it unwinds the caller with a panic
// (ErrExit) that Run recovers.
func (p *Process) Exit(code ...int) {
	if len(code) > 0 {
		p.SetExitCode(code[0])
	}
	if !p.exiting {
		p.exiting = true
		p.Emit("exit", p.code(0))
	}
	p.exitNow, p.done = true, true
	p.loop.DropScheduled()
	p.loop.RequestCheckpoint() // the checkpoint ends Run if a promise handler recovers the unwinding
	panic(exitUnwind)
}

// Run runs the process: main (Node's main script), then the loop until nothing keeps it
// alive, then Node's exit sequence, and returns the status Node would exit with. Then it
// closes what is still open and the loop, which belongs to the Process from here on: Run
// is the whole life of both, and may be called once.
//
// The sequence, as Node v20's:
//   - when the loop has nothing left, 'beforeExit' is emitted with the exit code; what its
//     listeners schedule runs (their ticks and microtasks first), and 'beforeExit' comes
//     again when the loop empties again; if they schedule nothing, the process exits;
//   - 'exit' is emitted with process.exitCode (0 if unset); ticks queued by its listeners
//     never run, microtasks do; the status is then process.exitCode (a listener may set it);
//   - a panic in a callback, a tick, a microtask, main or a listener is an uncaught
//     exception: 'uncaughtExceptionMonitor' listeners see it, then 'uncaughtException'
//     listeners, and the loop goes on where Node's goes on (the rest of the interrupted
//     batch of timeouts or immediates first, the queues after the next callback); with no
//     listener 'exit' is emitted with 1, then the error is printed to stderr as Node prints
//     it (not if an 'exit' listener called Exit), and the status is process.exitCode (1
//     unless an 'exit' listener changed it); if an
//     'uncaughtException' listener panics, that is printed and the status is 7, without
//     'exit';
//   - an unhandled rejection goes to 'unhandledRejection' listeners; with none it is an
//     uncaught exception with origin "unhandledRejection" (its error is the reason, or an
//     *UnhandledPromiseRejection for a reason that is not an error); a rejection handled
//     after it was reported goes to 'rejectionHandled' listeners, or else is a
//     PromiseRejectionHandledWarning;
//   - Exit ends it all at once (see Exit).
//
// While Run runs, the warnings of package nodeevents (the leak warning) go to this
// process's 'warning' event (nodeevents.SetWarningHandler), and it owns the loop's
// rejection hook and microtask panic handler.
//
// After 'exit', Run drops the timeouts, immediates, ticks and microtasks still queued
// (they never run, as in Node), closes the handles still open and runs the loop for their
// close callbacks, and closes the loop, so that no goroutine or descriptor outlives it;
// requests in flight (a write, a file operation) finish first and their callbacks run,
// which Node's exit does not wait for. Main does none of it: it ends the program right
// after 'exit', as Node does.
func (p *Process) Run(main func()) int {
	status := p.run(main)
	p.teardown()
	return status
}

func (p *Process) run(main func()) int {
	if p.ran {
		panic("nodeprocess: Run called twice")
	}
	p.ran = true
	l := p.loop
	restore := nodeevents.SetWarningHandler(p.warn)
	defer restore()
	promise.SetRejectionMode(l, promise.ModeThrow)
	promise.SetRejectionHook(l, p.onRejection)
	defer promise.SetRejectionHook(l, nil)
	l.SetMicrotaskPanicHandler(func(pe *uvloop.PanicError) { p.uncaught(pe.Value, pe.Stack, "uncaughtException") })
	defer l.SetMicrotaskPanicHandler(nil)
	l.AddCheckpoint(func() bool {
		if p.done && p.inRun {
			l.Fail(errExit)
		}
		return false
	})

	p.invoke(main, false)
	if !p.done {
		p.runLoop()
	}
	for !p.done {
		n := l.Metrics().LoopCount
		p.invoke(func() { p.Emit("beforeExit", p.code(0)) }, true)
		if p.done {
			break
		}
		p.runLoop() // the ticks and microtasks of 'beforeExit', then the loop if they made it alive
		if l.Metrics().LoopCount == n {
			break
		}
	}
	return p.exitSequence()
}

// exitSequence emits 'exit' unless that happened already, and returns the status.
func (p *Process) exitSequence() int {
	if p.noExitEvent {
		return p.status
	}
	if !p.exiting {
		p.exiting = true
		code := p.code(0)
		ok := p.invokeExit(func() { p.Emit("exit", code) })
		if ok && !p.exitNow {
			p.invokeExit(p.loop.RunMicrotasks)
		}
		if !ok && !p.exitNow {
			return p.code(StatusFatal)
		}
	}
	return p.code(0)
}

// invokeExit calls fn, an 'exit' listener or what follows them: Exit ends it, a panic is
// printed (Node's uncaught exception while exiting). It reports whether fn returned.
func (p *Process) invokeExit(fn func()) (ok bool) {
	defer func() {
		if ok {
			return
		}
		v := recover()
		if v == exitUnwind {
			return
		}
		p.printUncaught(v, debug.Stack(), "uncaughtException")
	}()
	fn()
	return true
}

// invoke calls fn (main, a 'beforeExit' emit) outside Run, as Node calls them outside the
// event loop: a panic is an uncaught exception, Exit unwinds it. After a panic that a
// listener handled, the ticks and microtasks fn queued drain first in the next Run when
// deferDrain is false (as after Node's main script), else after its first callback.
func (p *Process) invoke(fn func(), deferDrain bool) {
	defer func() {
		if v := recover(); v != nil {
			if v == exitUnwind {
				return
			}
			p.uncaught(v, debug.Stack(), "uncaughtException")
			p.afterHandled(deferDrain)
		}
	}()
	fn()
}

// runLoop runs the loop until nothing keeps it alive or the process is done; a panic that
// ends Run is an uncaught exception, after which Run goes on as Node's loop does.
func (p *Process) runLoop() {
	for !p.done {
		p.inRun = true
		_, err := p.loop.Run(uvloop.RunDefault)
		p.inRun = false
		if err == nil {
			return
		}
		pe, isPanic := err.(*uvloop.PanicError)
		switch {
		case err == errExit || err == errFatal:
			p.done = true
		case isPanic && pe.Value == exitUnwind:
			p.done = true
		case isPanic:
			p.uncaught(pe.Value, pe.Stack, "uncaughtException")
			p.afterHandled(true)
		default: // the poller failed, say: Node would abort
			fmt.Fprintf(p.errOut, "nodeprocess: the loop failed: %v\n", err)
			p.fatal()
		}
	}
}

// afterHandled is what Node does after a listener handled an uncaught exception: a no-op
// immediate, so that the queues the exception interrupted drain after the next callback
// (or as the next check phase begins: uvloop.Loop.DeferDrain). deferDrain is false where
// they drain first in the next Run instead: after an exception of the main script itself,
// and inside Run, which goes on with them.
func (p *Process) afterHandled(deferDrain bool) {
	if p.done {
		return
	}
	p.loop.SetImmediate(func() {})
	if deferDrain {
		p.loop.DeferDrain()
	}
}

// uncaught is Node's process._fatalException: the monitors, then the listeners; with none,
// the error is printed and the process exits. Called inside Run (from the rejection hook
// or the microtask panic handler), it ends Run if the process is done.
func (p *Process) uncaught(v any, stack []byte, origin string) {
	handled := false
	func() {
		defer func() {
			if handled {
				return
			}
			r := recover()
			if r == nil {
				return
			}
			if r == exitUnwind {
				handled = true // Exit in a listener: done already
				return
			}
			// A listener panicked: Node prints it and exits with 7, without 'exit'.
			p.printUncaught(r, debug.Stack(), "uncaughtException")
			p.noExitEvent, p.status, p.done = true, StatusHandlerFailed, true
			handled = true
		}()
		p.Emit("uncaughtExceptionMonitor", v, origin)
		if p.ListenerCount("uncaughtException") == 0 {
			return
		}
		p.Emit("uncaughtException", v, origin)
		handled = true
		if p.inRun {
			p.afterHandled(false) // Run goes on: its queues drain as they would
		}
	}()
	if !handled && !p.fatal() {
		// Node's order: 'exit' (with 1) first, then the error is printed, unless an 'exit'
		// listener called process.exit, which ends the process before the print.
		p.printUncaught(v, stack, origin)
	}
	if p.done && p.inRun {
		p.loop.Fail(errFatal)
	}
}

// fatal is the end after an uncaught exception: 'exit' with 1, unless exiting already. It
// reports whether an 'exit' listener called Exit. A listener that panics ends the emit and
// is not reported, as Node's try { process.emit('exit', 1) } catch {} ignores it.
func (p *Process) fatal() (exited bool) {
	p.done = true
	if p.exiting {
		return false
	}
	p.exiting = true
	p.SetExitCode(StatusFatal)
	func() {
		defer func() {
			if v := recover(); v == exitUnwind {
				exited = true
			}
		}()
		p.Emit("exit", StatusFatal)
	}()
	p.exitNow = true
	return exited
}

// onRejection is the loop's rejection hook: Node's processPromiseRejections in its default
// mode (throw).
func (p *Process) onRejection(ev promise.RejectionEvent) {
	if p.done {
		return
	}
	switch ev.Kind {
	case promise.Unhandled:
		if p.Emit("unhandledRejection", ev.Reason, ev.Promise) {
			return
		}
		var err any = ev.Reason
		var ve *promise.ValueError
		if errors.As(ev.Reason, &ve) && ev.Reason == error(ve) {
			err = &UnhandledPromiseRejection{Reason: ve.Value}
		}
		p.uncaught(err, nil, "unhandledRejection")
	case promise.Handled:
		if !p.Emit("rejectionHandled", ev.Promise) {
			p.EmitWarning(&Warning{
				Name:    "PromiseRejectionHandledWarning",
				Message: fmt.Sprintf("Promise rejection was handled asynchronously (rejection id: %d)", ev.ID),
			})
		}
	}
}

// UnhandledPromiseRejection is the error of an uncaught exception that comes from a
// rejection whose reason is not an error (Node's UnhandledPromiseRejection,
// ERR_UNHANDLED_REJECTION).
type UnhandledPromiseRejection struct{ Reason any }

func (e *UnhandledPromiseRejection) Error() string {
	return fmt.Sprintf("This error originated either by throwing inside of an async function without a catch "+
		"block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the "+
		"reason \"%v\".", e.Reason)
}

// Name is the error's name, as Node prints it.
func (e *UnhandledPromiseRejection) Name() string { return "UnhandledPromiseRejection" }

// Code is Node's error code.
func (e *UnhandledPromiseRejection) Code() string { return "ERR_UNHANDLED_REJECTION" }

// teardown closes the handles still open, runs the loop for their close callbacks and
// closes it.
func (p *Process) teardown() {
	l := p.loop
	l.DropScheduled()
	p.Close()
	for range 100 {
		l.Walk(func(h uvloop.Handle) {
			if !h.IsClosing() {
				h.Close(nil)
			}
		})
		p.inRun = true
		l.Run(uvloop.RunDefault) // errors here have no one to go to: the process is over
		p.inRun = false
		if err := l.Close(); err == nil || errors.Is(err, uvloop.ErrClosed) {
			return
		}
	}
}

// Typed listeners.

// OnExit adds a listener of 'exit'.
func (p *Process) OnExit(fn func(code int)) *nodeevents.Listener {
	return p.On("exit", func(a ...any) { fn(a[0].(int)) })
}

// OnBeforeExit adds a listener of 'beforeExit'.
func (p *Process) OnBeforeExit(fn func(code int)) *nodeevents.Listener {
	return p.On("beforeExit", func(a ...any) { fn(a[0].(int)) })
}

// OnUncaughtException adds a listener of 'uncaughtException'.
func (p *Process) OnUncaughtException(fn func(err any, origin string)) *nodeevents.Listener {
	return p.On("uncaughtException", func(a ...any) { fn(a[0], a[1].(string)) })
}

// OnUnhandledRejection adds a listener of 'unhandledRejection'.
func (p *Process) OnUnhandledRejection(fn func(reason error, pr promise.AnyPromise)) *nodeevents.Listener {
	return p.On("unhandledRejection", func(a ...any) { fn(a[0].(error), a[1].(promise.AnyPromise)) })
}

// OnRejectionHandled adds a listener of 'rejectionHandled'.
func (p *Process) OnRejectionHandled(fn func(pr promise.AnyPromise)) *nodeevents.Listener {
	return p.On("rejectionHandled", func(a ...any) { fn(a[0].(promise.AnyPromise)) })
}

// OnWarning adds a listener of 'warning'.
func (p *Process) OnWarning(fn func(w error)) *nodeevents.Listener {
	return p.On("warning", func(a ...any) { fn(a[0].(error)) })
}
