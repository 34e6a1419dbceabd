package looptest

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// NodeLines runs script with node (node -e) and returns its standard output's lines: the
// oracle of a differential test. It skips t when node is not installed, and fails it when
// the script fails.
func NodeLines(t testing.TB, script string) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: this scenario's oracle is node v20")
	}
	out, err := exec.Command(node, "-e", script).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("node: %v\n%s", err, stderr)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// Scenario runs scenario in a loop callback (a 0 ms timer's) on every mode, then the loop to
// its end and Close, and compares each mode's log with want (NodeLines of the scenario's
// JavaScript twin, usually). log joins its arguments with spaces, as the twins'
// console.log does.
func Scenario(t *testing.T, want []string, scenario func(l *uvloop.Loop, log func(args ...any))) {
	t.Helper()
	Logged(t, want, func(t *testing.T, l *uvloop.Loop, log func(args ...any)) {
		l.SetTimeout(func() { scenario(l, log) }, 0)
		runAndClose(t, l)
	})
}

// MainScenario is Scenario for a scenario that is a main script: main runs before Run, as
// node's main script runs before its loop.
func MainScenario(t *testing.T, want []string, main func(l *uvloop.Loop, log func(args ...any))) {
	t.Helper()
	Logged(t, want, func(t *testing.T, l *uvloop.Loop, log func(args ...any)) {
		main(l, log)
		runAndClose(t, l)
	})
}

// Logged runs body on a new loop of every mode, with a log that joins its arguments with
// spaces as the twins' console.log does, and compares what was logged with want and with
// the first mode's log. body runs the loop and closes it.
func Logged(t *testing.T, want []string, body func(t *testing.T, l *uvloop.Loop, log func(args ...any))) {
	t.Helper()
	var ref []string
	for _, m := range Modes {
		t.Run(m.Name, func(t *testing.T) {
			l, ok := m.New(t)
			if !ok {
				t.Skip(m.Name + ": not available")
			}
			var got []string
			log := func(args ...any) {
				s := make([]string, len(args))
				for i, a := range args {
					s[i] = fmt.Sprint(a)
				}
				got = append(got, strings.Join(s, " "))
			}
			body(t, l, log)
			Compare(t, m, got, want, &ref)
		})
	}
}

func runAndClose(t *testing.T, l *uvloop.Loop) {
	t.Helper()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

// Chain logs names[0], names[1], ... one microtask after another, as the twins'
// Promise.resolve().then(() => log('m1')).then(...) does: a ruler for the turns at which
// other promises settle.
func Chain(s promise.Scheduler, log func(args ...any), names ...string) {
	p := promise.Resolve[any](s, nil)
	for _, n := range names {
		p = promise.Then(p, func(any) (any, error) { log(n); return nil, nil }, nil)
	}
}

// IterJSON prints an iterator result as JSON.stringify prints JavaScript's:
// {"value":...,"done":false}, or {"done":true} (its value undefined).
func IterJSON(value any, done bool) string {
	if done {
		return `{"done":true}`
	}
	v, err := json.Marshal(value)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf(`{"value":%s,"done":false}`, v)
}
