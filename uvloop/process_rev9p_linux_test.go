package uvloop_test

import (
	"errors"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// The PATH a program is found in is the one libuv's child sees: glibc's execvp reads
// getenv("PATH") after uv__process_child_init set environ to the options' env, and getenv
// returns the first "PATH=" entry. Before the fix Spawn searched the last one: a program
// missing from the first PATH started, where libuv fails with ENOENT (and the other way
// round). The entries with no slash in their file are looked up after the chdir to Dir
// (TestRev9SpawnRelativePathEntryUsesCwd in nodechild pins that against node).
func TestRev9SpawnFirstPathEntry(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	for _, tc := range []struct {
		name string
		env  []string
		want error
	}{
		{"first misses", []string{"PATH=/nonexistent-rev9", "PATH=/usr/bin:/bin"}, syscall.ENOENT},
		{"first has it", []string{"PATH=/usr/bin:/bin", "PATH=/nonexistent-rev9"}, nil},
	} {
		var exited bool
		p, err := l.Spawn(&uvloop.ProcessOptions{File: "true", Args: []string{"true"}, Env: tc.env,
			OnExit: func(p *uvloop.Process, _ int64, _ syscall.Signal) { exited = true; p.Close(nil) }})
		if !errors.Is(err, tc.want) || (err == nil) != (p != nil) {
			t.Errorf("%s: %v, %v; want %v", tc.name, p, err, tc.want)
		}
		mustRunMode(t, l, uvloop.RunDefault)
		if exited != (tc.want == nil) {
			t.Errorf("%s: exited %v", tc.name, exited)
		}
	}
	mustOK(t, l.Close())
	waitGoroutinesGone(t)
}
