package nodeprocess_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodeprocess"
	"github.com/uvgo/uvgo/promise"
)

// nodeStderr runs js with node and returns the first line of its stderr and its status; it
// skips the test when node is not installed.
func nodeStderr(t *testing.T, js string) (first string, status int) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the scenario's JS twin cannot run")
	}
	file := filepath.Join(t.TempDir(), "scenario.js")
	if err := os.WriteFile(file, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(node, file)
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	first, _, _ = strings.Cut(stderr.String(), "\n")
	return first, cmd.ProcessState.ExitCode()
}

// An uncaught exception (or an unhandled rejection) that nothing handles: Node emits 'exit'
// with 1 first and prints the error after its listeners (createOnGlobalUncaughtException
// returns false, then C++ prints); an 'exit' listener that calls process.exit ends the
// process before the print, and a listener that throws is ignored (the original error is
// printed, the status is 1). Before the fix uvgo printed the error first, then ran the
// 'exit' listeners, printed it even when one of them called Exit, and printed a listener's
// own panic.
func TestRev9UncaughtExitBeforePrint(t *testing.T) {
	for _, tc := range []struct {
		name, js string
		main     func(p *nodeprocess.Process, w *bytes.Buffer)
		printed  bool
	}{
		{"throw", `process.on('exit', c => console.error('exit listener', c)); setTimeout(() => { throw new Error('boom'); }, 1);`,
			func(p *nodeprocess.Process, w *bytes.Buffer) {
				p.OnExit(func(c int) { fmt.Fprintln(w, "exit listener", c) })
				p.Loop().SetTimeout(func() { panic(errors.New("boom")) }, time.Millisecond)
			}, true},
		{"rejection", `process.on('exit', c => { console.error('exit listener', c); process.exitCode = 6; }); Promise.reject(new Error('rej'));`,
			func(p *nodeprocess.Process, w *bytes.Buffer) {
				p.OnExit(func(c int) { fmt.Fprintln(w, "exit listener", c); p.SetExitCode(6) })
				promise.Reject[int](p.Loop(), errors.New("rej"))
			}, true},
		{"throw in listener", `process.on('exit', c => { console.error('exit listener', c); throw new Error('in exit'); }); setTimeout(() => { throw new Error('boom'); }, 1);`,
			func(p *nodeprocess.Process, w *bytes.Buffer) {
				p.OnExit(func(c int) { fmt.Fprintln(w, "exit listener", c); panic(errors.New("in exit")) })
				p.Loop().SetTimeout(func() { panic(errors.New("boom")) }, time.Millisecond)
			}, true},
		{"exit in listener", `process.on('exit', c => { console.error('exit listener', c); process.exit(4); }); setTimeout(() => { throw new Error('boom'); }, 1);`,
			func(p *nodeprocess.Process, w *bytes.Buffer) {
				p.OnExit(func(c int) { fmt.Fprintln(w, "exit listener", c); p.Exit(4) })
				p.Loop().SetTimeout(func() { panic(errors.New("boom")) }, time.Millisecond)
			}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first, nodeStatus := nodeStderr(t, tc.js)
			var w bytes.Buffer
			status, err := nodeprocess.Run(func(p *nodeprocess.Process) { tc.main(p, &w) }, nodeprocess.WithStderr(&w))
			if err != nil {
				t.Fatal(err)
			}
			got, rest, _ := strings.Cut(w.String(), "\n")
			if got != first || status != nodeStatus {
				t.Errorf("first line %q, status %d; node's %q, %d\n%s", got, status, first, nodeStatus, w.String())
			}
			if printed := strings.Contains(rest, "Error: "); printed != tc.printed {
				t.Errorf("the error printed after the listener: %v, node's %v\n%s", printed, tc.printed, w.String())
			}
			if strings.Contains(rest, "in exit") {
				t.Errorf("the 'exit' listener's own panic was printed (node swallows it on this path)\n%s", w.String())
			}
		})
	}
}

// nodeLinesP runs js with node and returns its stdout's lines; it skips the test when node
// is not installed.
func nodeLinesP(t *testing.T, js string) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the scenario's JS twin cannot run")
	}
	file := filepath.Join(t.TempDir(), "scenario.js")
	if err := os.WriteFile(file, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, file).Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	return strings.Split(strings.TrimRight(string(out), "\n"), "\n")
}
