package nodeevents

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
)

// MaxListenersExceededWarning is the warning an emitter raises when an event gets more
// listeners than MaxListeners allows (Node's "Possible EventEmitter memory leak detected"):
// once, and again only after the event was down to one listener.
type MaxListenersExceededWarning struct {
	Emitter *EventEmitter
	Type    string // the event
	Count   int    // its listeners, with the one just added
	Max     int    // the limit it went past
	// EventTarget is set when the emitter is an AbortSignal's: Node's AbortSignal is an
	// EventTarget, which words the warning its own way and raises it once per signal,
	// whatever the event.
	EventTarget bool
}

// Name is the warning's name, as Node's warning.name.
func (w *MaxListenersExceededWarning) Name() string { return "MaxListenersExceededWarning" }

func (w *MaxListenersExceededWarning) Error() string {
	if w.EventTarget {
		return fmt.Sprintf("Possible EventTarget memory leak detected. %d %s listeners added to [AbortSignal]. "+
			"MaxListeners is %d. Use events.setMaxListeners() to increase limit", w.Count, w.Type, w.Max)
	}
	return fmt.Sprintf("Possible EventEmitter memory leak detected. %d %s listeners added to [%s]. "+
		"MaxListeners is %d. Use emitter.setMaxListeners() to increase limit",
		w.Count, w.Type, w.Emitter.className(), w.Max)
}

// warningHandler receives the warnings of this package; atomic, nil: the default.
var warningHandler atomic.Pointer[func(error)]

// SetWarningHandler makes fn receive the warnings this package raises (the leak warning),
// as Node hands them to process.emitWarning, and returns a function that puts the previous
// handler back. A nil fn restores the default, which logs each warning through log/slog's
// default logger (slog.SetDefault sets its handler) at level Warn, its message with the
// warning's name as the attribute "warning". The handler is process-wide, as Node's process
// is: nodeprocess installs its Process's EmitWarning while the Process runs, which prints
// as Node does. Safe from any goroutine; fn is called on the goroutine that added the
// listener.
func SetWarningHandler(fn func(w error)) (restore func()) {
	var p *func(error)
	if fn != nil {
		p = &fn
	}
	old := warningHandler.Swap(p)
	return func() { warningHandler.Store(old) }
}

func emitWarning(w error) {
	if p := warningHandler.Load(); p != nil {
		(*p)(w)
		return
	}
	slog.Default().Warn(w.Error(), "warning", WarningName(w))
}

// WarningName returns a warning's name: what its WarningName or Name method returns, or
// "Warning" (Node's default for process.emitWarning).
func WarningName(w error) string {
	switch n := w.(type) {
	case interface{ WarningName() string }:
		return n.WarningName()
	case interface{ Name() string }:
		return n.Name()
	}
	return "Warning"
}

// WriteWarning writes w to out as Node's default warning printer does:
// "(name:pid) Name: message", where name is the program's base name.
func WriteWarning(out io.Writer, w error) {
	fmt.Fprintf(out, "(%s:%d) %s: %s\n", filepath.Base(os.Args[0]), os.Getpid(), WarningName(w), w.Error())
}
