package uvloop_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

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

// A child starts with every signal's default action and an empty signal mask, whatever its
// parent ignores: libuv's uv__process_child_init resets each disposition to SIG_DFL and
// unblocks all signals before the exec, so node started with SIGHUP and SIGINT ignored
// (nohup, "cmd &" in a script) gives its children SigIgn 0. A Go program keeps an inherited
// SIG_IGN of SIGHUP and SIGINT, and signal.Ignore sets one, and fork and exec keep both:
// before the fix uvgo's children inherited them. The parent's own dispositions are as they
// were after Spawn. The process ignores signals, so it runs in a child of the test, started
// by sh with those signals ignored (and node the same way, for its twin).
func TestRev9SpawnResetsSignalDispositions(t *testing.T) {
	if os.Getenv("UVGO_REV9_SIGIGN_CHILD") == "1" {
		rev9SigIgnChild(t)
		return
	}
	const ignore = `trap "" HUP INT QUIT PIPE TERM; exec "$0" "$@"`
	cmd := exec.Command("/bin/sh", "-c", ignore, os.Args[0], "-test.run=^TestRev9SpawnResetsSignalDispositions$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "UVGO_REV9_SIGIGN_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	got := sigLines(string(out))
	want := []string{"SigBlk:\t0000000000000000", "SigIgn:\t0000000000000000"}
	if node, err := exec.LookPath("node"); err == nil {
		js := filepath.Join(t.TempDir(), "sigign.js")
		src := `require('child_process').spawn('grep', ['^Sig[BI]', '/proc/self/status'], {stdio: ['ignore', 'inherit', 'inherit']});`
		if err := os.WriteFile(js, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		nout, err := exec.Command("/bin/sh", "-c", ignore, node, js).CombinedOutput()
		if err != nil {
			t.Fatalf("node: %v\n%s", err, nout)
		}
		if n := sigLines(string(nout)); !reflect.DeepEqual(n, want) {
			t.Fatalf("node's child: %q, the test expects %q", n, want)
		}
	} else {
		t.Log("node is not installed: libuv's reset is the oracle")
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the child of a parent that ignores signals: %q, want %q (libuv's, node's)\n%s", got, want, out)
	}
}

// sigLines are the SigBlk and SigIgn lines of a /proc/PID/status in out.
func sigLines(out string) []string {
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "SigBlk:") || strings.HasPrefix(line, "SigIgn:") {
			lines = append(lines, line)
		}
	}
	return lines
}

// rev9SigIgnChild is the re-executed test: it ignores SIGUSR2 too, spawns grep on the
// child's status and checks that its own dispositions did not change.
func rev9SigIgnChild(t *testing.T) {
	signal.Ignore(syscall.SIGUSR2)
	before := ignoredSignals()
	if !slices.Contains(before, syscall.SIGHUP) || !slices.Contains(before, syscall.SIGINT) {
		t.Fatalf("sh did not start the test with SIGHUP and SIGINT ignored: %v", before)
	}
	l := newLoop(t)
	_, err := l.Spawn(&uvloop.ProcessOptions{File: "grep", Args: []string{"grep", "^Sig[BI]", "/proc/self/status"},
		Stdio:  []uvloop.StdioContainer{{}, {Flags: uvloop.StdioInheritFd, Fd: 1}, {Flags: uvloop.StdioInheritFd, Fd: 2}},
		OnExit: func(p *uvloop.Process, _ int64, _ syscall.Signal) { p.Close(nil) }})
	mustOK(t, err)
	mustRunMode(t, l, uvloop.RunDefault)
	mustOK(t, l.Close())
	if after := ignoredSignals(); !reflect.DeepEqual(after, before) {
		t.Errorf("the parent ignored %v before Spawn, %v after", before, after)
	}
	signal.Reset(syscall.SIGUSR2)
}

// ignoredSignals are the signals the process ignores.
func ignoredSignals() []syscall.Signal {
	var sigs []syscall.Signal
	for i := 1; i < 65; i++ {
		if signal.Ignored(syscall.Signal(i)) {
			sigs = append(sigs, syscall.Signal(i))
		}
	}
	return sigs
}

// rev9Zombie waits (2 s at most, a deadlock guard) until pid has exited and is not yet
// reaped: its /proc state is Z.
func rev9Zombie(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			t.Fatal(err)
		}
		if i := bytes.LastIndexByte(b, ')'); i > 0 && len(b) > i+2 && b[i+2] == 'Z' {
			return
		}
	}
	t.Fatalf("child %d did not exit", pid)
}

// A child killed by an I/O callback of the poll phase has its exit reported in a later poll
// phase, after the close callbacks of the iteration, as in libuv: its SIGCHLD reaches the
// signal pipe after epoll_wait returned, so it is read in the next wait (node: a child
// killed from a stdin 'error' listener has stdin's 'close' before 'exit'). Here the
// callback waits until the child is a zombie and lets the waiter post its exit (a 20 ms
// pause, only to let the race happen; the order does not depend on it). Before the fix the
// post, queued while the I/O callbacks ran, ran in the same poll phase: "exit" came before
// "closed". On both backends, plain and own thread.
func TestRev9KillFromIOExitNextPollDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, b := newSocketpair(t)
		var log []string
		child, err := l.Spawn(&uvloop.ProcessOptions{File: "sleep", Args: []string{"sleep", "10"},
			OnExit: func(p *uvloop.Process, status int64, sig syscall.Signal) {
				log = append(log, fmt.Sprintf("exit %d %d", status, sig))
				p.Close(nil)
			}})
		mustOK(t, err)
		p := rev8Poll(t, l, a, "poll", &log, func(p *uvloop.Poll, _ uvloop.Events) {
			mustOK(t, child.Kill(syscall.SIGKILL))
			rev9Zombie(t, child.Pid())
			time.Sleep(20 * time.Millisecond)
			p.Close(func() { log = append(log, "closed") })
		})
		mustOK(t, p.Start(uvloop.Readable))
		if _, err := unix.Write(b, []byte("x")); err != nil {
			t.Fatal(err)
		}
		mustRunMode(t, l, uvloop.RunDefault)
		if want := []string{"poll Readable nil", "closed", "exit 0 9"}; !reflect.DeepEqual(log, want) {
			t.Errorf("got %q, want libuv's %q", log, want)
		}
		return log
	})
}
