package nodenet

import (
	"errors"
	"io"
	"reflect"
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
	if !e.Off("x", c) || e.Off("x", c) {
		t.Fatal("Off: want true, then false")
	}
	e.Emit("x")
	want := []string{"a", "once", "c", "a", "c", "a"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// Node emits to a snapshot: a listener added during an emit waits for the next one, one
// removed during the emit is still called, and a Once listener is removed before it runs.
func TestEmitterSnapshot(t *testing.T) {
	var e EventEmitter
	var got []string
	var second *Listener
	e.Once("x", func(...any) {
		got = append(got, "once", "count="+string(rune('0'+e.ListenerCount("x"))))
		e.Off("x", second)
		e.On("x", func(...any) { got = append(got, "added") })
		e.Emit("x") // re-entrant: the once listener is gone already
	})
	second = e.On("x", func(...any) { got = append(got, "second") })
	e.Emit("x")
	want := []string{"once", "count=1", "added", "second"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
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
		{"not an error", 42, func(t *testing.T, v any) {
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
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	var e EventEmitter
	l.NextTick(func() { e.Emit("error", io.ErrClosedPipe) })
	_, err = l.Run(uvloop.RunDefault)
	var pe *uvloop.PanicError
	if !errors.As(err, &pe) || !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("Run: %v", err)
	}
	closeLoop(t, l)
}
