// Package looptest gives the differential tests of several packages what they share: the
// modes a scenario runs in, and the ordering of a log whose two sides the kernel may
// interleave. Tests only.
package looptest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Mode is a way to make a loop: its name in a test's output, and New's options.
type Mode struct {
	Name string
	Opts []uvloop.Option
}

// Modes are epoll and io_uring, each without and with an OS thread of the loop's own
// (WithOwnThread). New fails with errors.ErrUnsupported for a backend the system lacks.
var Modes = []Mode{
	{"epoll", []uvloop.Option{uvloop.WithBackend(uvloop.BackendEpoll)}},
	{"io_uring", []uvloop.Option{uvloop.WithBackend(uvloop.BackendIOURing)}},
	{"epoll+own", []uvloop.Option{uvloop.WithBackend(uvloop.BackendEpoll), uvloop.WithOwnThread()}},
	{"io_uring+own", []uvloop.Option{uvloop.WithBackend(uvloop.BackendIOURing), uvloop.WithOwnThread()}},
}

// New makes a loop in mode m. It reports false, with no loop, when the system lacks the
// mode's backend (New failed with errors.ErrUnsupported), and fails t on any other error.
func (m Mode) New(t testing.TB) (*uvloop.Loop, bool) {
	t.Helper()
	l, err := uvloop.New(m.Opts...)
	if errors.Is(err, errors.ErrUnsupported) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return l, true
}

// BySide puts the server's lines ("server ...") after the others, each side in its order:
// two sockets' events in one poll phase come in the order the kernel reports them.
func BySide(lines []string) []string {
	var client, server []string
	for _, s := range lines {
		if strings.HasPrefix(s, "server") {
			server = append(server, s)
		} else {
			client = append(client, s)
		}
	}
	return append(client, server...)
}

// Compare checks mode m's log (BySide's order) against want, or, when want is nil, against
// the first mode's, which *ref keeps (and which is only logged).
func Compare(t testing.TB, m Mode, got, want []string, ref *[]string) {
	t.Helper()
	got = BySide(got)
	if want == nil {
		if *ref == nil {
			*ref = got
			t.Logf("%s: %q", m.Name, got)
			return
		}
		want = *ref
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", m.Name, got, want)
	}
}

// Node runs the JavaScript program js with node, in a temporary directory of its own
// (t.TempDir), and returns its output's lines; false, with no lines, when node is not
// installed. A failure of node fails t; node has a minute.
func Node(t testing.TB, js string) ([]string, bool) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, false
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "twin.js")
	if err := os.WriteFile(file, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, file)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n"), true
}
