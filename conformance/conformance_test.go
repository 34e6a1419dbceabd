package conformance

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// nodeTimeout bounds one node run; it only guards against a hung script.
const nodeTimeout = 60 * time.Second

// nodeAttempts is how many times node runs a scenario before its output counts as a mismatch.
const nodeAttempts = 3

// TestScenarios runs, for every folder of testdata, the Go port ("go") and, when node is on
// $PATH, the scenario's script with node ("node"), and compares each output with
// expected.txt or expected-alt.txt.
func TestScenarios(t *testing.T) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	node, _ := exec.LookPath("node")
	seen := make(map[string]bool)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		seen[name] = true
		dir := filepath.Join("testdata", name)
		t.Run(name, func(t *testing.T) {
			want := expectations(t, dir)
			wantStatus := expectedStatus(t, dir)
			t.Run("go", func(t *testing.T) {
				sc, ok := Scenarios[name]
				if !ok {
					t.Fatalf("no entry in Scenarios for %s", name)
				}
				if sc.Skip != "" {
					t.Skip(sc.Skip)
				}
				lines, status, err := sc.RunStatus()
				for attempt := 2; err == nil && sc.Racy != "" && attempt <= nodeAttempts && !matches(joinLines(lines), want); attempt++ {
					t.Logf("attempt %d printed another order (%s):\n%s", attempt-1, sc.Racy, joinLines(lines))
					time.Sleep(time.Second) // let a burst of load pass
					lines, status, err = sc.RunStatus()
				}
				if err != nil {
					t.Fatalf("run: %v\nprinted so far:\n%s", err, strings.Join(lines, "\n"))
				}
				check(t, joinLines(lines), want)
				if status != wantStatus {
					t.Errorf("exit status %d, expected-status.txt says %d", status, wantStatus)
				}
			})
			t.Run("node", func(t *testing.T) {
				if node == "" {
					t.Skip("node not on PATH: oracle check skipped")
				}
				// A few scenarios race a timer against node's own start-up (027's 50 ms
				// timeout against an immediate, say), which node loses when the machine is
				// so loaded that its first iteration comes 50 ms late; a wrong recording
				// fails every attempt.
				var got string
				for attempt := 1; attempt <= nodeAttempts; attempt++ {
					if attempt > 1 {
						time.Sleep(time.Second) // let a burst of load pass
					}
					var status int
					got, status = runNode(t, node, dir)
					if status != wantStatus {
						t.Fatalf("node exited with %d, expected-status.txt says %d", status, wantStatus)
					}
					if matches(got, want) {
						return
					}
					t.Logf("attempt %d: node printed\n%s", attempt, got)
				}
				check(t, got, want)
			})
		})
	}
	for name := range Scenarios {
		if !seen[name] {
			t.Errorf("Scenarios has %s, which has no testdata folder", name)
		}
	}
}

// expectations returns expected.txt and, if the folder has one, expected-alt.txt.
func expectations(t *testing.T, dir string) []string {
	t.Helper()
	var want []string
	for _, f := range []string{"expected.txt", "expected-alt.txt"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if os.IsNotExist(err) && f != "expected.txt" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, string(b))
	}
	return want
}

// joinLines is what console.log would have written for lines.
func joinLines(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// matches reports whether got equals one of want, exactly.
func matches(got string, want []string) bool {
	for _, w := range want {
		if got == w {
			return true
		}
	}
	return false
}

// check fails t unless got equals one of want, exactly.
func check(t *testing.T, got string, want []string) {
	t.Helper()
	if matches(got, want) {
		return
	}
	msg := "output differs from expected.txt"
	if len(want) > 1 {
		msg += " and from expected-alt.txt"
	}
	t.Errorf("%s\n--- got\n%s--- expected.txt\n%s", msg, got, want[0])
}

// expectedStatus returns the exit status in expected-status.txt, or 0 without one.
func expectedStatus(t *testing.T, dir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "expected-status.txt"))
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("expected-status.txt: %v", err)
	}
	return n
}

// runNode runs the folder's scenario.js with node from the folder, as the corpus recorded
// it, and returns its stdout and exit status; a failure to run it, or a signal, fails t.
func runNode(t *testing.T, node, dir string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), nodeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "scenario.js")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() < 0 {
			t.Fatalf("node scenario.js: %v\nstderr:\n%s", err, stderr.String())
		}
		return stdout.String(), ee.ExitCode()
	}
	return stdout.String(), 0
}
