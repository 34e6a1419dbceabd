package uvloop_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Helpers of the Node-style tests (node_*_test.go).

// nodeLog records what ran, in order.
type nodeLog []string

func (g *nodeLog) add(s string) { *g = append(*g, s) }

// rec returns a callback that records s.
func (g *nodeLog) rec(s string) func() { return func() { g.add(s) } }

// nodeCheck fails t unless got is want.
func nodeCheck(t testing.TB, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("order:\n got %q\nwant %q", got, want)
	}
}

// nodeBusyWait spins for d without yielding the loop (Node's common.busyLoop): it makes
// timers due before the loop gets to them.
func nodeBusyWait(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}

// nodeRun runs l until nothing keeps it alive, as a Node process runs after its main script;
// an error (a panic in a callback) fails t.
func nodeRun(t testing.TB, l *uvloop.Loop) {
	t.Helper()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatalf("Run: %v", err)
	}
}

// nodeRunCatching is a Node process with process.on('uncaughtException', onPanic): each
// time Run returns a *uvloop.PanicError it calls onPanic with the panic value and runs the
// loop again, until Run returns nil. It returns how many panics it caught; any other error,
// or more than limit panics, fails t.
func nodeRunCatching(t testing.TB, l *uvloop.Loop, limit int, onPanic func(v any)) int {
	t.Helper()
	for caught := 0; ; caught++ {
		_, err := l.Run(uvloop.RunDefault)
		if err == nil {
			return caught
		}
		var pe *uvloop.PanicError
		if !errors.As(err, &pe) {
			t.Fatalf("Run: %v, want nil or a *PanicError", err)
		}
		if caught == limit {
			t.Fatalf("more than %d panics; the last: %v", limit, pe.Value)
		}
		onPanic(pe.Value)
	}
}
