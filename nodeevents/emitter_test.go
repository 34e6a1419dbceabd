package nodeevents

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

func TestEmitterOrder(t *testing.T) {
	var e EventEmitter
	var got []string
	rec := func(s string) func(...any) { return func(a ...any) { got = append(got, s) } }
	if e.Emit("x") {
		t.Fatal("Emit without listeners reported true")
	}
	e.On("x", rec("a"))
	e.Once("x", rec("once"))
	c := e.On("x", rec("c"))
	if n := e.ListenerCount("x"); n != 3 {
		t.Fatalf("ListenerCount = %d, want 3", n)
	}
	if !e.Emit("x") {
		t.Fatal("Emit reported no listeners")
	}
	e.Emit("x")
	if !e.Off("x", c) || e.Off("x", c) || e.Off("x", nil) {
		t.Fatal("Off: want true, then false")
	}
	e.Emit("x")
	want := []string{"a", "once", "c", "a", "c", "a"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// The same sequence as this Node v20 script, which prints the line in want:
//
//	e.on('newListener', (ev, fn) => log.push('new:' + ev + ':' + fn.name));
//	e.on('removeListener', (ev, fn) => log.push('rm:' + ev + ':' + fn.name));
//	e.on('x', a); e.prependOnceListener('x', b); e.prependListener('x', c); e.once('x', a);
//	log.push(counts and names); e.emit('x'); log.push('|'); e.emit('x');
//	e.removeListener('x', a); log.push(e.eventNames()); e.removeAllListeners(); ...
//
// (Node names a once listener removed from a list of several "bound onceWrapper"; here the
// removeListener event always carries the listener's own func.)
func TestEmitterNodeSequence(t *testing.T) {
	var e EventEmitter
	var log []string
	names := map[uintptr]string{}
	name := func(v any) string {
		fn, _ := v.(func(...any))
		if fn == nil {
			return "?"
		}
		return names[funcID(fn)]
	}
	push := func(s ...any) { log = append(log, fmt.Sprint(s...)) }
	onNew := func(a ...any) { push("new:", a[0], ":", name(a[1])) }
	onRm := func(a ...any) { push("rm:", a[0], ":", name(a[1])) }
	a := func(...any) { push("a") }
	b := func(...any) { push("b") }
	c := func(...any) { push("c") }
	names[funcID(a)], names[funcID(b)], names[funcID(c)] = "a", "b", "c"
	e.On("newListener", onNew)
	e.On("removeListener", onRm)
	e.On("x", a)
	e.PrependOnceListener("x", b)
	e.PrependListener("x", c)
	e.Once("x", a)
	var raw, plain []string
	for _, l := range e.RawListeners("x") {
		s := name(l.Func())
		if l.IsOnce() {
			s = "once " + s
		}
		raw = append(raw, s)
	}
	for _, fn := range e.Listeners("x") {
		plain = append(plain, name(fn))
	}
	push(e.ListenerCount("x"), " ", e.ListenerCount("x", a), " ", strings.Join(raw, ","), " ", strings.Join(plain, ","))
	e.Emit("x")
	push("|")
	e.Emit("x")
	e.RemoveListener("x", a)
	push(strings.Join(e.EventNames(), ","))
	e.RemoveAllListeners()
	push(strings.Join(e.EventNames(), ","))
	want := "new:removeListener: new:x:a new:x:b new:x:c new:x:a 4 2 c,once b,a,once a c,b,a,a " +
		"c rm:x:b b a rm:x:a a | c a rm:x:a newListener,removeListener,x rm:newListener: rm:x:c "
	if got := strings.Join(log, " "); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

// Node emits to a snapshot: a listener added during an emit waits for the next one, one
// removed during the emit is still called, and a Once listener is removed before it runs.
func TestEmitterSnapshot(t *testing.T) {
	var e EventEmitter
	var got []string
	var second *Listener
	e.Once("x", func(...any) {
		got = append(got, "once", fmt.Sprint("count=", e.ListenerCount("x")))
		e.Off("x", second)
		e.On("x", func(...any) { got = append(got, "added") })
		e.PrependListener("x", func(...any) { got = append(got, "prepended") })
		e.Emit("x") // re-entrant: the once listener is gone already
	})
	second = e.On("x", func(...any) { got = append(got, "second") })
	e.Emit("x")
	want := []string{"once", "count=1", "prepended", "added", "second"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestRemoveListenerIdentity(t *testing.T) {
	var e EventEmitter
	n := 0
	mk := func() func(...any) { return func(...any) { n++ } }
	f, g := mk(), mk() // one literal, two closures: two listeners
	e.On("x", f)
	e.On("x", g)
	e.On("x", f)
	if e.ListenerCount("x", f) != 2 || e.ListenerCount("x", g) != 1 {
		t.Fatalf("counts by func: %d %d", e.ListenerCount("x", f), e.ListenerCount("x", g))
	}
	if !e.RemoveListener("x", f) || e.ListenerCount("x", f) != 1 {
		t.Fatal("RemoveListener(f) did not remove one f")
	}
	if e.RemoveListener("y", f) {
		t.Fatal("RemoveListener of an unknown event reported true")
	}
	e.RemoveListener("x", g)
	e.RemoveListener("x", f)
	if e.ListenerCount("x") != 0 || len(e.EventNames()) != 0 {
		t.Fatalf("left: %d, names %v", e.ListenerCount("x"), e.EventNames())
	}
	// A top-level func is itself everywhere.
	e.Once("z", topLevel)
	if !e.RemoveListener("z", topLevel) {
		t.Fatal("top-level func not found")
	}
}

func topLevel(...any) {}

func TestEventNamesOrder(t *testing.T) {
	var e EventEmitter
	nop := func(...any) {}
	e.On(ErrorMonitor, nop)
	e.On("b", nop)
	l := e.On("a", nop)
	e.On("c", nop)
	e.Off("a", l)
	e.On("a", nop) // its key was deleted: it comes last now
	if got, want := e.EventNames(), []string{"b", "c", "a", ErrorMonitor}; !reflect.DeepEqual(got, want) {
		t.Fatalf("EventNames = %v, want %v", got, want)
	}
	e.RemoveAllListeners("b", "nope")
	if got, want := e.EventNames(), []string{"c", "a", ErrorMonitor}; !reflect.DeepEqual(got, want) {
		t.Fatalf("EventNames = %v, want %v", got, want)
	}
}

func TestErrorMonitor(t *testing.T) {
	var e EventEmitter
	var got []string
	e.On(ErrorMonitor, func(a ...any) { got = append(got, "monitor "+a[0].(error).Error()) })
	func() {
		defer func() {
			if r := recover(); r != io.EOF {
				t.Fatalf("panic %v, want io.EOF", r)
			}
		}()
		e.Emit("error", io.EOF) // monitors do not handle it
	}()
	e.On("error", func(a ...any) { got = append(got, "handled "+a[0].(error).Error()) })
	e.Emit("error", io.ErrUnexpectedEOF)
	want := []string{"monitor EOF", "monitor unexpected EOF", "handled unexpected EOF"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestEmitterUnhandledError(t *testing.T) {
	tests := []struct {
		name  string
		value any
		check func(t *testing.T, v any)
	}{
		{"error", io.ErrUnexpectedEOF, func(t *testing.T, v any) {
			if v != io.ErrUnexpectedEOF {
				t.Fatalf("panic value %v", v)
			}
		}},
		{"not an error", "str", func(t *testing.T, v any) {
			u, ok := v.(*UnhandledError)
			if !ok || u.Value != "str" || u.Error() != "Unhandled error. ('str')" || u.Code() != "ERR_UNHANDLED_ERROR" {
				t.Fatalf("panic value %#v", v)
			}
		}},
		{"not an error: a number", 42, func(t *testing.T, v any) {
			u, ok := v.(*UnhandledError)
			if !ok || u.Value != 42 {
				t.Fatalf("panic value %#v", v)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() { tt.check(t, recover()) }()
			var e EventEmitter
			e.Emit("error", tt.value)
			t.Fatal("no panic")
		})
	}
}

// In a loop callback, an unhandled "error" ends Run with a *uvloop.PanicError that wraps it.
func TestEmitterUnhandledErrorInLoop(t *testing.T) {
	l := newLoop(t)
	var e EventEmitter
	l.NextTick(func() { e.Emit("error", io.ErrClosedPipe) })
	_, err := l.Run(uvloop.RunDefault)
	var pe *uvloop.PanicError
	if !errors.As(err, &pe) || !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("Run: %v", err)
	}
	closeLoop(t, l)
}

func TestEmitterArgs(t *testing.T) {
	var e EventEmitter
	var got []any
	e.On("x", func(a ...any) { got = a })
	e.Emit("x", 1, "two", nil)
	if !reflect.DeepEqual(got, []any{1, "two", nil}) {
		t.Fatalf("got %v", got)
	}
}

func TestMaxListenersWarning(t *testing.T) {
	var warnings []error
	restore := SetWarningHandler(func(w error) { warnings = append(warnings, w) })
	defer restore()
	var e EventEmitter
	nop := func(...any) {}
	for range 11 {
		e.On("foo", nop)
	}
	for range 12 {
		e.On("foo", nop) // once per event
	}
	e.SetMaxListeners(1)
	e.On("bar", nop)
	e.Once("bar", nop)
	e.SetMaxListeners(0)
	for range 20 {
		e.On("baz", nop)
	}
	if len(warnings) != 2 {
		t.Fatalf("%d warnings: %v", len(warnings), warnings)
	}
	var w *MaxListenersExceededWarning
	if !errors.As(warnings[0], &w) || w.Emitter != &e || w.Type != "foo" || w.Count != 11 || w.Max != 10 {
		t.Fatalf("warning %#v", warnings[0])
	}
	const msg = "Possible EventEmitter memory leak detected. 11 foo listeners added to [EventEmitter]. " +
		"MaxListeners is 10. Use emitter.setMaxListeners() to increase limit"
	if w.Error() != msg || WarningName(w) != "MaxListenersExceededWarning" {
		t.Fatalf("message %q name %q", w.Error(), WarningName(w))
	}
	if b := warnings[1].(*MaxListenersExceededWarning); b.Type != "bar" || b.Count != 2 || b.Max != 1 {
		t.Fatalf("second warning %#v", b)
	}
	if e.MaxListeners() != 0 || DefaultMaxListeners() != 10 {
		t.Fatalf("MaxListeners %d, default %d", e.MaxListeners(), DefaultMaxListeners())
	}
}

func TestBadInputPanics(t *testing.T) {
	for name, fn := range map[string]func(){
		"nil listener":         func() { new(EventEmitter).On("x", nil) },
		"nil RemoveListener":   func() { new(EventEmitter).RemoveListener("x", nil) },
		"negative max":         func() { new(EventEmitter).SetMaxListeners(-1) },
		"negative default max": func() { SetDefaultMaxListeners(-1) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "nodeevents:") {
					t.Fatalf("panic %v", r)
				}
			}()
			fn()
		})
	}
}

func TestRawListenerCall(t *testing.T) {
	var e EventEmitter
	n := 0
	e.Once("x", func(...any) { n++ })
	raw := e.RawListeners("x")
	raw[0].Call()
	raw[0].Call()
	if n != 1 || e.ListenerCount("x") != 0 {
		t.Fatalf("n = %d, left %d", n, e.ListenerCount("x"))
	}
}
