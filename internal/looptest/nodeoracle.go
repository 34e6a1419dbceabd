package looptest

import (
	"os/exec"
	"strings"
	"testing"
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
