package nodeevents

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// ErrorMonitor is Node's events.errorMonitor: listeners of this event see every "error"
// emitted, before the "error" listeners, and do not count as handling it (an "error" with
// only monitors still panics). Node's is a symbol; here it is a name no ported code uses,
// spelled as Node prints the symbol, and EventNames lists it after the other names, as
// Reflect.ownKeys lists symbols after strings.
const ErrorMonitor = "Symbol(events.errorMonitor)"

// defaultMax is events.defaultMaxListeners; atomic.
var defaultMax atomic.Int32

func init() { defaultMax.Store(10) }

// DefaultMaxListeners returns events.defaultMaxListeners (10 unless changed): the limit of
// an emitter whose SetMaxListeners was never called.
func DefaultMaxListeners() int { return int(defaultMax.Load()) }

// SetDefaultMaxListeners sets events.defaultMaxListeners for every emitter that has no
// limit of its own (0: unlimited). Safe from any goroutine. It panics if n is negative, as
// Node throws a RangeError.
func SetDefaultMaxListeners(n int) {
	if n < 0 || n > 1<<31-1 {
		panic(fmt.Sprintf("nodeevents: SetDefaultMaxListeners(%d): must be a non-negative number", n))
	}
	defaultMax.Store(int32(n))
}

// EventEmitter is Node's EventEmitter (node:events) in a Go shape. The zero value is ready
// to use; embed it in your own types as nodenet's Socket and Server do. Not safe for
// concurrent use: like everything else of a loop, it belongs to the loop goroutine.
//
// Listeners are funcs of any arguments. On, Once and the Prepend forms return a *Listener
// token that Off takes; RemoveListener also finds a listener by the identity of the func
// value, as Node compares functions: the same func variable matches itself, while two
// evaluations of one func literal (or of one method value) are different listeners, as two
// evaluations of a JavaScript arrow function are.
//
// The semantics are Node v20's:
//   - Emit calls the listeners synchronously, in order, with the arguments it is given,
//     and reports whether there were any;
//   - it calls the listeners registered when it started (a snapshot): one added during the
//     emit waits for the next one, one removed during the emit is still called;
//   - a Once listener is removed (and "removeListener" emitted) before it is called, and it
//     is called at most once;
//   - "newListener" is emitted before a listener is added, with the event's name and the
//     listener's func; "removeListener" after one was removed, with the same arguments;
//   - emitting "error" first calls the ErrorMonitor listeners; with no "error" listener it
//     then panics with the error (Node throws it). In a loop callback, Run recovers the
//     panic and returns a *uvloop.PanicError whose Value is the error (errors.Is and
//     errors.As see through it); under nodeprocess it is an uncaught exception. A value
//     that is not an error is wrapped in an *UnhandledError;
//   - adding more than MaxListeners listeners to one event raises a
//     *MaxListenersExceededWarning, once per event until it is down to one listener
//     again, as Node's mark on its listener array goes with the array (see
//     SetWarningHandler).
type EventEmitter struct {
	events       map[string]*eventList
	names        []string // the events with listeners, in the order their first listener came
	max          int32    // SetMaxListeners' limit, if maxSet
	maxSet       bool     // else the limit is DefaultMaxListeners
	target       bool     // an AbortSignal's: Node's is an EventTarget, which warns its own way
	targetWarned bool     // an EventTarget's leak warning was raised (once, whatever the event)
	class        uint8    // SetClassName's name: its index in classNames (0: EventEmitter)
}

// classNames are the names SetClassName was given, "EventEmitter" first: an emitter keeps
// an index (a byte, in the struct's padding, so that emitters embedded in per-request
// structures stay in their size class). Written under classMu, copied on write.
var (
	classNames atomic.Pointer[[]string]
	classMu    sync.Mutex
)

func init() { classNames.Store(&[]string{"EventEmitter"}) }

// SetClassName sets the name the emitter goes by in its leak warning ("... added to
// [Socket]"), as Node's util.inspect names an object by its class; "" (the default) is
// "EventEmitter". A type that embeds an EventEmitter calls it when it makes one (or
// SetClass, with the name registered once, where it makes many).
func (e *EventEmitter) SetClassName(name string) { e.class = uint8(NewClass(name)) }

// SetClass is SetClassName with a name NewClass registered.
func (e *EventEmitter) SetClass(c Class) { e.class = uint8(c) }

// Class is a class name for leak warnings, registered by NewClass.
type Class uint8

// NewClass registers name for SetClass and returns it ("" is EventEmitter's); a name
// registered before gives the same Class. A program may register up to 255 names; past
// them NewClass returns EventEmitter's.
func NewClass(name string) Class {
	if name == "" {
		return 0
	}
	if i := slices.Index(*classNames.Load(), name); i >= 0 {
		return Class(i)
	}
	classMu.Lock()
	defer classMu.Unlock()
	names := *classNames.Load()
	i := slices.Index(names, name)
	if i < 0 {
		if len(names) > 255 {
			return 0
		}
		i = len(names)
		names = append(slices.Clip(names), name)
		classNames.Store(&names)
	}
	return Class(i)
}

// className is the emitter's name in the leak warning.
func (e *EventEmitter) className() string {
	if e == nil {
		return "EventEmitter"
	}
	return (*classNames.Load())[e.class]
}

// eventList holds one event's listeners. The slice is never changed in place below its
// length: removal and prepending make a fresh one, so an Emit in progress keeps iterating
// over its snapshot.
type eventList struct {
	ls     []*Listener
	warned bool // the leak warning was raised since the event last had one listener
}

// Listener is the token of one registration: Off takes it, RawListeners returns it.
type Listener struct {
	fn      func(args ...any)
	once    bool
	fired   bool // a Once listener that has run (or is running)
	emitter *EventEmitter
	event   string
}

// Func returns the listener's func (Node's listener.listener for a once wrapper).
func (l *Listener) Func() func(args ...any) { return l.fn }

// IsOnce reports whether the listener was added with Once or PrependOnceListener.
func (l *Listener) IsOnce() bool { return l.once }

// Call calls the listener as Emit would, as calling an entry of Node's rawListeners does: a
// Once listener removes itself first and runs at most once.
func (l *Listener) Call(args ...any) {
	if l.once {
		if l.fired {
			return
		}
		l.fired = true
		l.emitter.Off(l.event, l)
	}
	l.fn(args...)
}

// UnhandledError is what Emit("error", v) panics with when there is no "error" listener
// and v is not an error (Node's ERR_UNHANDLED_ERROR). Its message shows Value as Node's
// util.inspect does: a string in quotes ("Unhandled error. ('boom')"), nil as undefined
// (Emit("error") with no argument).
type UnhandledError struct{ Value any }

func (e *UnhandledError) Error() string {
	switch v := e.Value.(type) {
	case nil:
		return "Unhandled error. (undefined)"
	case string:
		return "Unhandled error. (" + inspectString(v) + ")"
	}
	return fmt.Sprintf("Unhandled error. (%v)", e.Value)
}

// inspectString quotes s as util.inspect does: in single quotes, or in double quotes (then
// backquotes) when s holds single quotes (and double quotes) but not the other kind, else
// in single quotes with those escaped; control characters are escaped as in JavaScript.
func inspectString(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 {
		switch {
		case strings.IndexByte(s, '"') < 0:
			q = '"'
		case strings.IndexByte(s, '`') < 0 && !strings.Contains(s, "${"):
			q = '`'
		}
	}
	var b strings.Builder
	b.WriteByte(q)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02X`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// Code returns Node's error code, ERR_UNHANDLED_ERROR.
func (e *UnhandledError) Code() string { return "ERR_UNHANDLED_ERROR" }

// funcID is the identity of a func value: the address of the closure it points to. The
// same func variable gives the same identity; a func literal evaluated twice gives two.
func funcID(fn func(args ...any)) uintptr {
	return uintptr(*(*unsafe.Pointer)(unsafe.Pointer(&fn)))
}

// On adds fn at the end of event's listeners and returns its token (Node's on and
// addListener).
func (e *EventEmitter) On(event string, fn func(args ...any)) *Listener {
	return e.add(event, fn, false, false)
}

// AddListener is On.
func (e *EventEmitter) AddListener(event string, fn func(args ...any)) *Listener {
	return e.add(event, fn, false, false)
}

// Once adds fn for one call: it is removed before it runs.
func (e *EventEmitter) Once(event string, fn func(args ...any)) *Listener {
	return e.add(event, fn, true, false)
}

// PrependListener adds fn at the front of event's listeners.
func (e *EventEmitter) PrependListener(event string, fn func(args ...any)) *Listener {
	return e.add(event, fn, false, true)
}

// PrependOnceListener adds fn at the front of event's listeners, for one call.
func (e *EventEmitter) PrependOnceListener(event string, fn func(args ...any)) *Listener {
	return e.add(event, fn, true, true)
}

func (e *EventEmitter) add(event string, fn func(args ...any), once, prepend bool) *Listener {
	if fn == nil {
		panic("nodeevents: nil listener") // Node throws ERR_INVALID_ARG_TYPE
	}
	l := &Listener{fn: fn, once: once, emitter: e, event: event}
	if e.events == nil {
		e.events = make(map[string]*eventList)
	} else if _, ok := e.events["newListener"]; ok {
		e.Emit("newListener", event, fn)
	}
	list := e.events[event]
	if list == nil {
		list = &eventList{}
		e.events[event] = list
		e.names = append(e.names, event)
	}
	if prepend {
		ls := make([]*Listener, 0, len(list.ls)+4)
		list.ls = append(append(ls, l), list.ls...)
	} else {
		list.ls = append(list.ls, l)
	}
	if m := e.MaxListeners(); m > 0 && len(list.ls) > m {
		warned := &list.warned
		if e.target {
			warned = &e.targetWarned
		}
		if !*warned {
			*warned = true
			emitWarning(&MaxListenersExceededWarning{Emitter: e, Type: event, Count: len(list.ls), Max: m, EventTarget: e.target})
		}
	}
	return l
}

// Off removes the listener l from event, emits "removeListener" and reports whether l was
// there.
func (e *EventEmitter) Off(event string, l *Listener) bool {
	if l == nil {
		return false
	}
	return e.remove(event, func(x *Listener) bool { return x == l })
}

// RemoveListener removes the most recently added listener of event whose func is fn (the
// same func value: see EventEmitter), emits "removeListener" and reports whether there was
// one. It panics if fn is nil.
func (e *EventEmitter) RemoveListener(event string, fn func(args ...any)) bool {
	if fn == nil {
		panic("nodeevents: nil listener")
	}
	id := funcID(fn)
	return e.remove(event, func(x *Listener) bool { return funcID(x.fn) == id })
}

func (e *EventEmitter) remove(event string, match func(*Listener) bool) bool {
	list := e.events[event]
	if list == nil {
		return false
	}
	ls := list.ls
	for i := len(ls) - 1; i >= 0; i-- { // Node removes the most recently added match
		if !match(ls[i]) {
			continue
		}
		l := ls[i]
		if len(ls) == 1 {
			e.dropEvent(event)
		} else {
			n := make([]*Listener, 0, len(ls)-1)
			list.ls = append(append(n, ls[:i]...), ls[i+1:]...)
			if len(list.ls) == 1 {
				list.warned = false // Node's mark is on the array, which one listener replaces
			}
		}
		if _, ok := e.events["removeListener"]; ok {
			e.Emit("removeListener", event, l.fn)
		}
		return true
	}
	return false
}

// dropEvent forgets an event whose last listener went: added again, it comes last in
// EventNames, as Node deletes the key.
func (e *EventEmitter) dropEvent(event string) {
	delete(e.events, event)
	if i := slices.Index(e.names, event); i >= 0 {
		e.names = slices.Delete(e.names, i, i+1)
	}
}

// RemoveAllListeners removes every listener of the events named, or of all events if none
// is named. With "removeListener" listeners, it emits "removeListener" for each listener
// removed, last added first, and removes the "removeListener" listeners last.
func (e *EventEmitter) RemoveAllListeners(events ...string) {
	if _, ok := e.events["removeListener"]; !ok {
		if len(events) == 0 {
			e.events, e.names = nil, nil
			return
		}
		for _, ev := range events {
			if _, ok := e.events[ev]; ok {
				e.dropEvent(ev)
			}
		}
		return
	}
	if len(events) == 0 {
		for _, ev := range e.EventNames() {
			if ev != "removeListener" {
				e.RemoveAllListeners(ev)
			}
		}
		e.RemoveAllListeners("removeListener")
		e.events, e.names = nil, nil
		return
	}
	for _, ev := range events {
		list := e.events[ev]
		if list == nil {
			continue
		}
		ls := list.ls
		for i := len(ls) - 1; i >= 0; i-- {
			e.Off(ev, ls[i])
		}
	}
}

// ListenerCount is the number of listeners of event; given fn, the number of them whose
// func is fn.
func (e *EventEmitter) ListenerCount(event string, fn ...func(args ...any)) int {
	list := e.events[event]
	if list == nil {
		return 0
	}
	if len(fn) == 0 || fn[0] == nil {
		return len(list.ls)
	}
	id, n := funcID(fn[0]), 0
	for _, l := range list.ls {
		if funcID(l.fn) == id {
			n++
		}
	}
	return n
}

// Listeners returns a copy of event's listener funcs, in order (Node's listeners).
func (e *EventEmitter) Listeners(event string) []func(args ...any) {
	list := e.events[event]
	if list == nil {
		return nil
	}
	fns := make([]func(args ...any), len(list.ls))
	for i, l := range list.ls {
		fns[i] = l.fn
	}
	return fns
}

// RawListeners returns a copy of event's listener tokens, in order (Node's rawListeners):
// IsOnce tells the Once ones, and Call calls one as Emit would.
func (e *EventEmitter) RawListeners(event string) []*Listener {
	list := e.events[event]
	if list == nil {
		return nil
	}
	return slices.Clone(list.ls)
}

// EventNames returns the events that have listeners in the order of Node's (that of
// Reflect.ownKeys on its events object): names that are array indices ("0", "2", "10", up
// to "4294967294") first, in numeric order, then the others in the order their first
// listener was added, ErrorMonitor last.
func (e *EventEmitter) EventNames() []string {
	names := make([]string, 0, len(e.names))
	indices, monitor := 0, false
	for _, n := range e.names {
		switch {
		case n == ErrorMonitor:
			monitor = true
		case arrayIndex(n) >= 0:
			names = slices.Insert(names, indices, n)
			indices++
		default:
			names = append(names, n)
		}
	}
	slices.SortFunc(names[:indices], func(a, b string) int { return cmp.Compare(arrayIndex(a), arrayIndex(b)) })
	if monitor {
		names = append(names, ErrorMonitor)
	}
	return names
}

// arrayIndex returns the array index that name is in JavaScript (a canonical decimal
// below 2^32-1, which objects list first and in numeric order), or -1.
func arrayIndex(name string) int64 {
	if name == "" || len(name) > 10 || (name[0] == '0' && len(name) > 1) {
		return -1
	}
	n, err := strconv.ParseUint(name, 10, 32)
	if err != nil || n == 1<<32-1 {
		return -1
	}
	return int64(n)
}

// SetMaxListeners sets how many listeners one event may have before the leak warning (0:
// unlimited). It panics if n is negative, as Node throws a RangeError.
func (e *EventEmitter) SetMaxListeners(n int) {
	if n < 0 || n > 1<<31-1 {
		panic(fmt.Sprintf("nodeevents: SetMaxListeners(%d): must be a non-negative number", n))
	}
	e.max, e.maxSet = int32(n), true
}

// MaxListeners returns the emitter's limit: SetMaxListeners' value, or DefaultMaxListeners
// (Node's getMaxListeners).
func (e *EventEmitter) MaxListeners() int {
	if e.maxSet {
		return int(e.max)
	}
	return DefaultMaxListeners()
}

// Emit calls event's listeners with args and reports whether it had any. See EventEmitter
// for "error" without a listener.
func (e *EventEmitter) Emit(event string, args ...any) bool {
	if event == "error" {
		if _, ok := e.events[ErrorMonitor]; ok {
			e.Emit(ErrorMonitor, args...)
		}
	}
	list := e.events[event]
	if list == nil {
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
	// Removal and prepending replace the slice; appending may write past len(ls) in the
	// same array but never inside ls[:len(ls)]: ls is a snapshot.
	for _, l := range list.ls {
		l.Call(args...)
	}
	return true
}
