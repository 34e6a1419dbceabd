package promise

import (
	"fmt"
	"io"
	"log/slog"
)

// Mode is what an unhandled rejection does, as Node's --unhandled-rejections flag says.
type Mode uint8

const (
	// ModeThrow (the default, as in Node 15+): the hook sees the rejection; without a hook
	// it ends the scheduler's run with an *UnhandledRejectionError (Run returns it, as Node
	// exits).
	ModeThrow Mode = iota
	// ModeStrict: the rejection ends the run even if a hook is set; the hook is not called.
	ModeStrict
	// ModeWarn: the hook sees it and a warning is written.
	ModeWarn
	// ModeNone: only the hook sees it.
	ModeNone
)

func (m Mode) String() string {
	switch m {
	case ModeThrow:
		return "throw"
	case ModeStrict:
		return "strict"
	case ModeWarn:
		return "warn"
	case ModeNone:
		return "none"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// EventKind tells the two rejection events apart.
type EventKind uint8

const (
	// Unhandled: a promise was rejected and had no handler at the checkpoint after the
	// nextTick/microtask drain (Node's 'unhandledRejection').
	Unhandled EventKind = iota
	// Handled: a promise reported Unhandled got a handler later (Node's 'rejectionHandled').
	Handled
)

func (k EventKind) String() string {
	if k == Unhandled {
		return "unhandledRejection"
	}
	return "rejectionHandled"
}

// RejectionEvent is what the rejection hook receives.
type RejectionEvent struct {
	Kind    EventKind
	Promise AnyPromise
	Reason  error  // the rejection reason
	ID      uint64 // the rejection's number on this scheduler, from 1, as Node's uid
}

// UnhandledRejectionError is the error that an unhandled rejection ends a run with in
// ModeThrow and ModeStrict. It unwraps to the reason.
type UnhandledRejectionError struct {
	Reason error
	ID     uint64
}

func (e *UnhandledRejectionError) Error() string {
	return fmt.Sprintf("promise: unhandled rejection: %v", e.Reason)
}

func (e *UnhandledRejectionError) Unwrap() error { return e.Reason }

// SetRejectionMode sets what an unhandled rejection does on this scheduler (ModeThrow by
// default).
func (rt *Runtime) SetRejectionMode(m Mode) { rt.mode = m }

// RejectionMode returns the current mode.
func (rt *Runtime) RejectionMode() Mode { return rt.mode }

// SetRejectionHook sets the function that sees both rejection events (nil removes it). A
// set hook counts as a listener for both, as process.on does in Node: in ModeThrow an
// Unhandled event delivered to it does not end the run, and a Handled event delivered to it
// writes no warning.
func (rt *Runtime) SetRejectionHook(fn func(RejectionEvent)) { rt.hook = fn }

// SetWarningOutput sends warnings to w as lines of text, "(uvgo) " and the warning (nil
// discards them), instead of to the logger. SetLogger undoes it.
func (rt *Runtime) SetWarningOutput(w io.Writer) { rt.warnings, rt.warnWriter = w, true }

// SetLogger sets the logger of the runtime's warnings (unhandled rejections in ModeWarn, a
// rejection handled late), which log at level Warn. nil means the default: the scheduler's
// own logger if it has one (a method Logger() *slog.Logger, as *uvloop.Loop has, set with
// uvloop.WithLogger), else slog.Default().
func (rt *Runtime) SetLogger(lg *slog.Logger) { rt.logger, rt.warnWriter = lg, false }

// Logger returns the logger warnings go to (see SetLogger).
func (rt *Runtime) Logger() *slog.Logger {
	if rt.logger != nil {
		return rt.logger
	}
	if s, ok := rt.sched.(interface{ Logger() *slog.Logger }); ok {
		if lg := s.Logger(); lg != nil {
			return lg
		}
	}
	return slog.Default()
}

// SetRejectionMode sets the unhandled-rejection mode of s's Runtime.
func SetRejectionMode(s Scheduler, m Mode) { RuntimeOf(s).SetRejectionMode(m) }

// SetRejectionHook sets the rejection hook of s's Runtime.
func SetRejectionHook(s Scheduler, fn func(RejectionEvent)) { RuntimeOf(s).SetRejectionHook(fn) }

// unhandled is V8's kPromiseRejectWithNoHandler: Node's unhandledRejection().
func (rt *Runtime) unhandled(b *base, owner AnyPromise) {
	if !rt.tracking {
		return
	}
	rt.nextUID++
	b.flags |= flagTracked
	b.flags &^= flagWarned
	e := trackedEntry{b: b, p: owner, id: rt.nextUID}
	if rt.maybeUnhandled == nil {
		rt.maybeUnhandled = make(map[*base]trackedEntry)
	}
	rt.maybeUnhandled[b] = e
	rt.pendingUnhandled = append(rt.pendingUnhandled, e)
	rt.requestCP()
}

// handledLate is V8's kPromiseHandlerAddedAfterReject: Node's handledRejection().
func (rt *Runtime) handledLate(b *base) {
	if b.flags&flagTracked == 0 {
		return
	}
	b.flags &^= flagTracked
	e := rt.maybeUnhandled[b]
	delete(rt.maybeUnhandled, b)
	if b.flags&flagWarned != 0 {
		rt.asyncHandled = append(rt.asyncHandled, e)
		rt.requestCP()
	}
}

type trackedEntry struct {
	b  *base
	p  AnyPromise // the *Promise[T] around b
	id uint64
}

// checkpoint is Node's processPromiseRejections, run after each microtask checkpoint that
// leaves the nextTick queue empty.
func (rt *Runtime) checkpoint() bool {
	again := len(rt.asyncHandled) > 0
	for len(rt.asyncHandled) > 0 {
		e := rt.asyncHandled[0]
		rt.asyncHandled = rt.asyncHandled[1:]
		if rt.hook != nil {
			rt.hook(RejectionEvent{Kind: Handled, Promise: e.p, Reason: e.b.Err(), ID: e.id})
		} else {
			rt.warn(fmt.Sprintf("PromiseRejectionHandledWarning: Promise rejection was handled asynchronously (rejection id: %d)", e.id))
		}
	}
	rt.asyncHandled = nil
	// Only the rejections recorded before this checkpoint: one that a hook makes waits for the
	// next round of the drain, after the ticks and microtasks the hook queued, as Node's
	// processPromiseRejections takes the length of its list before the loop.
	for n := len(rt.pendingUnhandled); n > 0; n-- {
		e := rt.pendingUnhandled[0]
		rt.pendingUnhandled = rt.pendingUnhandled[1:]
		b := e.b
		if b.flags&flagTracked == 0 {
			continue // handled since
		}
		b.flags |= flagWarned
		ev := RejectionEvent{Kind: Unhandled, Promise: e.p, Reason: b.Err(), ID: e.id}
		switch rt.mode {
		case ModeStrict:
			rt.fail(&UnhandledRejectionError{Reason: b.Err(), ID: e.id})
		case ModeNone:
			if rt.hook != nil {
				rt.hook(ev)
			}
		case ModeWarn:
			if rt.hook != nil {
				rt.hook(ev)
			}
			rt.warn(fmt.Sprintf("UnhandledPromiseRejectionWarning: %v (rejection id: %d)", b.Err(), e.id))
		default: // ModeThrow
			if rt.hook != nil {
				rt.hook(ev)
			} else {
				rt.fail(&UnhandledRejectionError{Reason: b.Err(), ID: e.id})
			}
		}
		again = true
	}
	if len(rt.pendingUnhandled) > 0 {
		return true // the drain goes round again for them
	}
	rt.pendingUnhandled = nil
	return again
}

func (rt *Runtime) fail(err error) {
	if rt.failer != nil {
		rt.failer.Fail(err)
		return
	}
	panic(err)
}

func (rt *Runtime) warn(msg string) {
	if rt.warnWriter {
		if rt.warnings != nil {
			fmt.Fprintf(rt.warnings, "(uvgo) %s\n", msg)
		}
		return
	}
	rt.Logger().Warn(msg)
}
