package promise_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// The twin of TestRev10pHandledLateWarning: two rejections handled late, in a timeout.
const handledLateJS = `
const a = Promise.reject(new Error('a'));
const b = Promise.reject(new Error('b'));
setTimeout(() => { b.catch(() => {}); a.catch(() => {}); }, 1);
`

// nodeWarnings runs js with node and the flag, and returns the names and messages of the
// warnings it printed to stderr ("(node:PID) Name: message" lines), the PID left out.
func nodeWarnings(t *testing.T, flag, js string) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: this scenario's oracle is node v20")
	}
	cmd := exec.Command(node, flag, "-e", js)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var out []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(line, "(node:") {
			if _, rest, ok := strings.Cut(line, ") "); ok {
				out = append(out, rest)
			}
		}
	}
	return out
}

// TestRev10pHandledLateWarning pins the warning of a rejection handled after it was
// reported, in ModeNone (node's --unhandled-rejections=none prints nothing else): node's
// PromiseRejectionHandledWarning text with the rejection id, one per promise in the order
// they were handled, in every mode.
func TestRev10pHandledLateWarning(t *testing.T) {
	want := nodeWarnings(t, "--unhandled-rejections=none", handledLateJS)
	var ref []string
	for _, m := range looptest.Modes {
		t.Run(m.Name, func(t *testing.T) {
			l, ok := m.New(t)
			if !ok {
				t.Skip(m.Name + ": not available")
			}
			var buf strings.Builder
			rt := promise.RuntimeOf(l)
			rt.SetRejectionMode(promise.ModeNone)
			rt.SetWarningOutput(&buf)
			a := promise.Reject[int](l, errors.New("a"))
			b := promise.Reject[int](l, errors.New("b"))
			l.SetTimeout(func() {
				b.Catch(func(error) (int, error) { return 0, nil })
				a.Catch(func(error) (int, error) { return 0, nil })
			}, time.Millisecond)
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				t.Fatal(err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
				got = append(got, strings.TrimPrefix(line, "(uvgo) "))
			}
			looptest.Compare(t, m, got, want, &ref)
		})
	}
}
