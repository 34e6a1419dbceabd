package nodeevents

import (
	"slices"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// DOMException is the web's DOMException, the default reasons of AbortSignal: Name
// "AbortError" (code 20) when Abort is given no reason, "TimeoutError" (code 23) for
// AbortSignalTimeout.
type DOMException struct {
	Name    string
	Message string
	Code    int
}

func (e *DOMException) Error() string { return e.Message }

// WarningName is the exception's name, for printing (nodeevents.WarningName and
// nodeprocess read it).
func (e *DOMException) WarningName() string { return e.Name }

func abortException() error {
	return &DOMException{Name: "AbortError", Message: "This operation was aborted", Code: 20}
}

func timeoutException() error {
	return &DOMException{Name: "TimeoutError", Message: "The operation was aborted due to timeout", Code: 23}
}

// AbortError is the error an operation fails with when its AbortSignal is aborted (Node's
// AbortError: name "AbortError", code "ABORT_ERR", "The operation was aborted"); Cause is
// the signal's reason, and errors.Is and errors.As look into it.
type AbortError struct {
	Cause error
}

func (e *AbortError) Error() string { return "The operation was aborted" }

// Unwrap returns the cause.
func (e *AbortError) Unwrap() error { return e.Cause }

// Code is Node's error code, ABORT_ERR.
func (e *AbortError) Code() string { return "ABORT_ERR" }

// WarningName is the error's name, "AbortError", for printing.
func (e *AbortError) WarningName() string { return "AbortError" }

// AbortController is the web's AbortController: Abort aborts its Signal. Loop goroutine
// only, as its signal.
type AbortController struct {
	signal AbortSignal
}

// NewAbortController returns a controller whose signal is not aborted.
func NewAbortController() *AbortController {
	c := new(AbortController)
	c.signal.target = true
	return c
}

// Signal returns the controller's signal.
func (c *AbortController) Signal() *AbortSignal {
	c.signal.target = true // for a controller that is a zero value
	return &c.signal
}

// Abort aborts the signal with reason (by default a DOMException named "AbortError",
// "This operation was aborted"), unless it was aborted already: the signal's Reason is
// set, then its "abort" listeners run, synchronously, in order. A nil reason is the
// default one.
func (c *AbortController) Abort(reason ...error) {
	var r error
	if len(reason) > 0 {
		r = reason[0]
	}
	c.signal.abort(r)
}

// AbortSignal is the web's AbortSignal: Aborted and Reason, and an "abort" event that
// fires once, with no arguments, when the signal is aborted. Operations that take a signal
// fail with an *AbortError whose Cause is Reason. Loop goroutine only.
//
// It is an EventEmitter (Node's is an EventTarget): listen with On or Once("abort") or
// with Watch; a panic in a listener propagates out of Abort (an EventTarget would report
// it as an uncaught exception and go on with the next listener). Its leak warning is an
// EventTarget's, as Node words it, raised once per signal.
type AbortSignal struct {
	EventEmitter
	aborted bool
	reason  error
	// AbortSignalAny's bookkeeping, as Node's kSourceSignals and kDependantSignals (held
	// strongly here: a composite lives as long as its sources).
	composite  bool           // made by AbortSignalAny: aborted only through its sources
	sources    []*AbortSignal // a composite's sources, none of them composite
	dependents []*AbortSignal // the composites made from this signal, first made first
}

// Aborted reports whether the signal was aborted.
func (s *AbortSignal) Aborted() bool { return s.aborted }

// Reason returns the reason the signal was aborted with, or nil.
func (s *AbortSignal) Reason() error { return s.reason }

// ThrowIfAborted panics with Reason if the signal was aborted (JavaScript's throw).
func (s *AbortSignal) ThrowIfAborted() {
	if s.aborted {
		panic(s.reason)
	}
}

// Err returns nil while the signal is not aborted, then an *AbortError whose Cause is the
// reason: what an operation that takes the signal fails with, as Node's do. A nil signal
// is never aborted.
func (s *AbortSignal) Err() error {
	if s == nil || !s.aborted {
		return nil
	}
	return &AbortError{Cause: s.reason}
}

// Watch is the hook for operations that accept a signal (timers, events.once, and the fs,
// dns, child process and http helpers that adopt it): fn runs once when the signal is
// aborted, with the reason, unless stop was called first. Check Err before starting the
// operation: on a signal aborted already, Watch does nothing. A nil signal is never
// aborted. stop reports whether it detached fn before it ran.
func (s *AbortSignal) Watch(fn func(reason error)) (stop func() bool) {
	if s == nil || s.aborted {
		return func() bool { return false }
	}
	l := s.Once("abort", func(...any) { fn(s.reason) })
	return func() bool { return s.Off("abort", l) }
}

func (s *AbortSignal) abort(reason error) {
	if s.aborted {
		return
	}
	if reason == nil {
		reason = abortException()
	}
	s.aborted, s.reason = true, reason
	s.Emit("abort")
	for _, d := range s.dependents { // after the signal's own listeners, as Node's abortSignal
		d.abort(reason)
	}
	s.dependents = nil
}

// AbortSignalAbort returns a signal aborted already (AbortSignal.abort), with reason or
// the default one.
func AbortSignalAbort(reason ...error) *AbortSignal {
	c := NewAbortController()
	c.Abort(reason...)
	return c.Signal()
}

// AbortSignalTimeout returns a signal that l aborts after d (AbortSignal.timeout) with a
// DOMException named "TimeoutError". As in Node, its timer does not keep the loop alive.
// d is a time.Duration: write 500*time.Millisecond, not 500 (500 ns).
func AbortSignalTimeout(l *uvloop.Loop, d time.Duration) *AbortSignal {
	c := NewAbortController()
	l.SetTimeout(func() { c.signal.abort(timeoutException()) }, d).Unref()
	return c.Signal()
}

// AbortSignalAny returns a signal that is aborted as soon as one of signals is, with its
// reason (AbortSignal.any); aborted already if one of them is. As in Node, it depends on the
// signals themselves, or on the sources of those that AbortSignalAny made, and a source
// aborts the signals that depend on it after its own "abort" listeners have run, in the
// order they were made.
func AbortSignalAny(signals ...*AbortSignal) *AbortSignal {
	r := &NewAbortController().signal
	r.composite = true
	for _, s := range signals {
		if s == nil {
			continue
		}
		if s.aborted {
			r.abort(s.reason)
			return r
		}
		sources := []*AbortSignal{s}
		if s.composite {
			sources = s.sources
		}
		for _, src := range sources {
			if !slices.Contains(r.sources, src) {
				r.sources = append(r.sources, src)
				src.dependents = append(src.dependents, r)
			}
		}
	}
	return r
}
