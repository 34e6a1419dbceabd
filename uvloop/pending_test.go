package uvloop_test

import (
	"slices"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// TestPendingPhase pins where deferred callbacks run: in the pending phase at the start of the
// next iteration (before idle and prepare), and, if they defer more, in the pending rounds
// right after poll (at most 8 of them), before check. Each is followed by the tick drain.
func TestPendingPhase(t *testing.T) {
	l := newLoop(t)
	var log []string
	p := func(s string) { log = append(log, s) }
	idle := l.NewIdle(func(h *uvloop.Idle) { p("idle"); h.Stop() })
	prep := l.NewPrepare(func(h *uvloop.Prepare) { p("prepare"); h.Stop() })
	check := l.NewCheck(func(h *uvloop.Check) { p("check"); h.Stop() })
	for _, err := range []error{idle.Start(), prep.Start(), check.Start()} {
		mustOK(t, err)
	}
	depth := 0
	var again func()
	again = func() {
		depth++
		p("pending")
		l.NextTick(func() { p("tick") })
		if depth < 12 {
			l.DeferPending(again)
		}
	}
	l.DeferPending(again)

	if _, err := l.Run(uvloop.RunOnce); err != nil {
		t.Fatal(err)
	}
	// Iteration 1: the first pending round runs 1 callback; the 8 post-poll rounds run 8
	// more; check; the rest waits for the next iteration's pending phase.
	want := []string{"pending", "tick", "idle", "prepare"}
	for range 8 {
		want = append(want, "pending", "tick")
	}
	want = append(want, "check")
	if !slices.Equal(log, want) {
		t.Fatalf("iteration 1:\n got %v\nwant %v", log, want)
	}
	if !l.Alive() {
		t.Fatal("a pending callback must keep the loop alive")
	}
	log = nil
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if want := []string{"pending", "tick", "pending", "tick", "pending", "tick"}; !slices.Equal(log, want) {
		t.Fatalf("iteration 2:\n got %v\nwant %v", log, want)
	}
	closeLoop(t, l)
}
