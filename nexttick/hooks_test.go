package nexttick_test

import (
	"slices"
	"testing"

	"github.com/uvgo/uvgo/nexttick"
)

// With OnMicrotaskPanic, a panicking microtask is reported and the drain goes on with the
// next microtask, then the ticks, as V8 and Node do.
func TestOnMicrotaskPanic(t *testing.T) {
	var q nexttick.Queues
	var log []string
	rec := func(s string) func() { return func() { log = append(log, s) } }
	q.OnMicrotaskPanic = func(v any) { log = append(log, "reported "+v.(string)) }
	q.QueueMicrotask(func() {
		rec("m1")()
		q.NextTick(rec("tick from m1"))
		panic("m1")
	})
	q.QueueMicrotask(func() { rec("m2")(); panic("m2") })
	q.QueueMicrotask(rec("m3"))
	q.Drain()
	want := []string{"m1", "reported m1", "m2", "reported m2", "m3", "tick from m1"}
	if !slices.Equal(log, want) {
		t.Fatalf("got %q, want %q", log, want)
	}
	if q.Pending() || q.Draining() {
		t.Fatal("queues not empty or still draining")
	}
}

// A handler that panics ends the drain; what is left stays queued.
func TestOnMicrotaskPanicHandlerPanics(t *testing.T) {
	var q nexttick.Queues
	ran := 0
	q.OnMicrotaskPanic = func(v any) { panic("fatal: " + v.(string)) }
	q.QueueMicrotask(func() { panic("m1") })
	q.QueueMicrotask(func() { ran++ })
	func() {
		defer func() {
			if r := recover(); r != "fatal: m1" {
				t.Fatalf("recovered %v", r)
			}
		}()
		q.Drain()
	}()
	if ran != 0 || !q.Pending() || q.Draining() {
		t.Fatalf("ran %d, pending %v, draining %v", ran, q.Pending(), q.Draining())
	}
	q.Drain()
	if ran != 1 {
		t.Fatalf("ran %d after the second drain", ran)
	}
}

// RunMicrotasks runs only the microtasks (and those they queue), not the ticks nor the
// checkpoint; Clear drops both queues and keeps the hooks.
func TestRunMicrotasksAndClear(t *testing.T) {
	var q nexttick.Queues
	var log []string
	checkpoints := 0
	q.Checkpoint = func() bool { checkpoints++; return false }
	q.NextTick(func() { log = append(log, "tick") })
	q.QueueMicrotask(func() {
		log = append(log, "m1")
		q.QueueMicrotask(func() { log = append(log, "m2") })
	})
	q.RunMicrotasks()
	if want := []string{"m1", "m2"}; !slices.Equal(log, want) || checkpoints != 0 {
		t.Fatalf("got %q, %d checkpoints", log, checkpoints)
	}
	q.QueueMicrotask(func() { log = append(log, "dropped") })
	q.Clear()
	if q.Pending() || q.Checkpoint == nil {
		t.Fatal("Clear left work, or dropped the hook")
	}
	q.Drain()
	if len(log) != 2 || checkpoints != 1 {
		t.Fatalf("got %q, %d checkpoints", log, checkpoints)
	}
}
