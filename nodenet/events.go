package nodenet

import "fmt"

// EventEmitter is Node's EventEmitter in a Go shape: listeners are funcs of any arguments,
// and since Go funcs are not comparable, On and Once return a *Listener token that Off
// takes. The zero value is ready to use; embed it in your own types as Socket and Server
// do. Not safe for concurrent use: like everything else of a loop, it belongs to the loop
// goroutine.
//
// The semantics are Node's:
//   - Emit calls the listeners synchronously, in registration order, with the arguments it
//     is given, and reports whether there were any;
//   - it calls the listeners registered when it started (a snapshot): one added during the
//     emit waits for the next one, one removed during the emit is still called;
//   - a Once listener is removed before it is called, and called at most once;
//   - emitting "error" with no listener panics with the error (Node throws it). In a loop
//     callback, Run recovers the panic and returns a *uvloop.PanicError whose Value is the
//     error (errors.Is and errors.As see through it). A value that is not an error is
//     wrapped in an *UnhandledError.
type EventEmitter struct {
	events map[string][]*Listener
}

// Listener is the token of one registration, for Off.
type Listener struct {
	fn    func(args ...any)
	once  bool
	fired bool // a Once listener that has run (or is running)
}

// UnhandledError is what Emit("error", v) panics with when there is no "error" listener
// and v is not an error (Node's ERR_UNHANDLED_ERROR).
type UnhandledError struct{ Value any }

func (e *UnhandledError) Error() string {
	return fmt.Sprintf("nodenet: unhandled error. (%v)", e.Value)
}

// On adds fn at the end of event's listeners and returns its token.
func (e *EventEmitter) On(event string, fn func(args ...any)) *Listener {
	return e.add(event, &Listener{fn: fn})
}

// Once adds fn for one call: it is removed before it runs.
func (e *EventEmitter) Once(event string, fn func(args ...any)) *Listener {
	return e.add(event, &Listener{fn: fn, once: true})
}

func (e *EventEmitter) add(event string, l *Listener) *Listener {
	if l.fn == nil {
		panic("nodenet: nil listener")
	}
	if e.events == nil {
		e.events = make(map[string][]*Listener)
	}
	e.events[event] = append(e.events[event], l)
	return l
}

// Off removes the listener l from event and reports whether it was there.
func (e *EventEmitter) Off(event string, l *Listener) bool {
	ls := e.events[event]
	for i := len(ls) - 1; i >= 0; i-- { // Node removes the most recently added match
		if ls[i] == l {
			if len(ls) == 1 {
				delete(e.events, event)
				return true
			}
			// A fresh slice: an Emit in progress keeps iterating over its snapshot.
			n := make([]*Listener, 0, len(ls)-1)
			e.events[event] = append(append(n, ls[:i]...), ls[i+1:]...)
			return true
		}
	}
	return false
}

// RemoveAllListeners removes every listener of the events named, or of all events if none
// is named.
func (e *EventEmitter) RemoveAllListeners(events ...string) {
	if len(events) == 0 {
		e.events = nil
		return
	}
	for _, ev := range events {
		delete(e.events, ev)
	}
}

// ListenerCount is the number of listeners of event.
func (e *EventEmitter) ListenerCount(event string) int { return len(e.events[event]) }

// Emit calls event's listeners with args and reports whether it had any. See EventEmitter
// for "error" without a listener.
func (e *EventEmitter) Emit(event string, args ...any) bool {
	ls := e.events[event]
	if len(ls) == 0 {
		if event == "error" {
			var v any
			if len(args) > 0 {
				v = args[0]
			}
			if err, ok := v.(error); ok {
				panic(err)
			}
			panic(&UnhandledError{Value: v})
		}
		return false
	}
	// Off and add replace the slice rather than change it, so ls is a snapshot as long as
	// nobody appends to it in place: add appends, which may write past len(ls) in the same
	// array but never inside ls[:len(ls)].
	for _, l := range ls {
		if l.once {
			if l.fired {
				continue
			}
			l.fired = true
			e.Off(event, l)
		}
		l.fn(args...)
	}
	return true
}
