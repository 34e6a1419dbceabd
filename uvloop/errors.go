package uvloop

import (
	"errors"
	"fmt"
)

// Sentinel errors. Match them with errors.Is; the errors the loop returns may wrap them with
// detail.
var (
	// ErrClosed: the loop or the handle is closed (or closing), so it cannot be used.
	ErrClosed = errors.New("uvloop: closed")
	// ErrBusy: Close was called while handles are open or requests are in flight, or Cancel
	// was called on work that already started.
	ErrBusy = errors.New("uvloop: busy")
	// ErrRunning: Run, Close or another loop-goroutine-only operation was called while the loop
	// is already running (a re-entrant Run from a callback, or Run from a second goroutine).
	ErrRunning = errors.New("uvloop: loop is running")
	// ErrNilCallback: a required callback is nil.
	ErrNilCallback = errors.New("uvloop: nil callback")
	// ErrNegativeDuration: a timeout or repeat is negative.
	ErrNegativeDuration = errors.New("uvloop: negative duration")
	// ErrNeverStarted: Again on a timer that was never started.
	ErrNeverStarted = errors.New("uvloop: timer was never started")
	// ErrInvalidMode: Run was given a RunMode it does not know.
	ErrInvalidMode = errors.New("uvloop: invalid run mode")
	// ErrFdInUse: the file descriptor is already watched by another handle of this loop. The
	// errors that carry it also wrap syscall.EEXIST, libuv's code for it.
	ErrFdInUse = errors.New("uvloop: file descriptor already watched")
	// ErrBadFd: a negative file descriptor.
	ErrBadFd = errors.New("uvloop: bad file descriptor")
)

// PanicError is what Run returns when a callback panics. The loop recovers the panic at the
// Run boundary and stays consistent: the callback that panicked counts as run, everything else
// stays queued. Call Run again to go on, or close the handles and Close the loop.
type PanicError struct {
	Value any    // what the callback passed to panic
	Stack []byte // the panicking goroutine's stack, captured where it was recovered
}

func (e *PanicError) Error() string { return fmt.Sprintf("uvloop: panic in callback: %v", e.Value) }

// Unwrap returns the panic value if it is an error, so errors.Is/As see through a PanicError.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// errorf wraps a sentinel with detail: errors.Is(errorf(ErrX, ...), ErrX) holds.
func errorf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)
}
