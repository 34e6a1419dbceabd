package uvloop_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// Fail from a callback ends Run with that error right after the callback, leaving the rest
// queued; Fail between runs makes the next Run return it before running anything.
func TestFail(t *testing.T) {
	errStop := errors.New("stop here")
	l := newLoop(t)
	var log []string
	l.SetImmediate(func() {
		log = append(log, "first")
		l.Fail(errStop)
		log = append(log, "not reached")
	})
	l.SetImmediate(func() { log = append(log, "second") })
	if _, err := l.Run(uvloop.RunDefault); !errors.Is(err, errStop) {
		t.Fatalf("Run returned %v, want %v", err, errStop)
	}
	if want := []string{"first"}; !slices.Equal(log, want) {
		t.Fatalf("after Fail in a callback: %v, want %v", log, want)
	}

	l.Fail(errStop) // between runs
	alive, err := l.Run(uvloop.RunDefault)
	if !errors.Is(err, errStop) || !alive {
		t.Fatalf("Run after Fail between runs: alive %v, err %v; want alive, %v", alive, err, errStop)
	}
	if want := []string{"first"}; !slices.Equal(log, want) {
		t.Fatalf("Run after Fail between runs ran callbacks: %v", log)
	}
	l.Fail(nil) // does nothing
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if want := []string{"first", "second"}; !slices.Equal(log, want) {
		t.Fatalf("the rest: %v, want %v", log, want)
	}
	closeLoop(t, l)
}
