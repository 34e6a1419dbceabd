package nodechild_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/uvloop"
)

// The review rev9-proc's differential helpers: a scenario runs on every looptest mode, and
// its log is compared with the first mode's and with what node v20 prints for its JS twin.

// nodeLines runs js with node in a temporary directory and returns its stdout's lines; it
// skips the test when node is not installed.
func nodeLines(t *testing.T, js string) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the scenario's JS twin cannot run")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "scenario.js")
	if err := os.WriteFile(file, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, file)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	return strings.Split(strings.TrimRight(string(out), "\n"), "\n")
}

// modeLog runs scenario on a loop of every mode and checks that each mode's log is want's.
// A watchdog (unref'd, 20 s) stops a loop that stays alive, as a deadlock guard only.
func modeLog(t *testing.T, want []string, scenario func(t *testing.T, l *uvloop.Loop, out func(format string, args ...any))) {
	t.Helper()
	var ref []string
	for _, m := range looptest.Modes {
		t.Run(m.Name, func(t *testing.T) {
			fds := openFds()
			l, ok := m.New(t)
			if !ok {
				t.Skip(m.Name + ": not available")
			}
			var got []string
			out := func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) }
			scenario(t, l, out)
			dog := l.SetTimeout(func() {
				t.Errorf("%s: watchdog: the loop is still alive after 20s", m.Name)
				l.Stop()
			}, 20*time.Second)
			dog.Unref()
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				t.Fatal(err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			if n := openFds(); n != fds {
				t.Errorf("%d fds open, %d before", n, fds)
			}
			looptest.Compare(t, m, got, want, &ref)
		})
	}
}
