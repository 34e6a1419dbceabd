package uvloop_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of more of libuv's test-spawn.c, in our own words, each run in every mode. libuv's
// helpers are its test runner started again; here they are /bin/sh one-liners doing the
// same. Linux only: they look at /proc.

// readToEOFRev10l reads p into *got until EOF, then closes p and counts the close in
// *closes.
func readToEOFRev10l(t *testing.T, p *uvloop.Pipe, got *[]byte, closes *int) {
	t.Helper()
	mustOK(t, p.ReadStart(func(data []byte, err error) {
		if errors.Is(err, io.EOF) {
			p.Close(func() { *closes++ })
			return
		}
		mustOK(t, err)
		*got = append(*got, data...)
	}))
}

// exitOKRev10l is an exit callback that wants status 0 and no signal, counts into *exits and
// closes the process, counting into *closes.
func exitOKRev10l(t *testing.T, exits, closes *int) func(*uvloop.Process, int64, syscall.Signal) {
	return func(p *uvloop.Process, status int64, sig syscall.Signal) {
		*exits++
		if status != 0 || sig != 0 {
			t.Errorf("exit status %d, signal %d", status, sig)
		}
		p.Close(func() { *closes++ })
	}
}

// freeFdRev10l dups f's fd onto a high descriptor that is not in use (fcntl says EBADF), so
// that a test controls which numbers the parent's fds have; the dup is closed at cleanup.
func freeFdRev10l(t *testing.T, f *os.File, from int) int {
	t.Helper()
	for fd := from; fd < from+100; fd++ {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != unix.EBADF {
			continue
		}
		mustOK(t, unix.Dup3(int(f.Fd()), fd, unix.O_CLOEXEC))
		t.Cleanup(func() { unix.Close(fd) })
		return fd
	}
	t.Fatal("no free fd")
	return -1
}

// spawn_stdout_to_file, spawn_stdout_and_stderr_to_file, spawn_stdout_and_stderr_to_file2,
// spawn_stdout_and_stderr_to_file_swap: the child's fds given as inherited parent fds,
// including the cases where a parent fd is also one of the child's targets: the same fd for
// two targets, and two targets swapped (the child's a is the parent's b and the child's b
// the parent's a). libuv plays the last two on the parent's own fds 1 and 2; here they are
// played on high fds of the test's choosing, so the test's own stdout and stderr stay put.
func TestLibuvSpawnStdoutToFileRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := t.TempDir()
		open := func(name string) *os.File {
			f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
			mustOK(t, err)
			t.Cleanup(func() { f.Close() })
			return f
		}
		read := func(f *os.File) string {
			b, err := os.ReadFile(f.Name())
			mustOK(t, err)
			return string(b)
		}
		run := func(script string, stdio []uvloop.StdioContainer) {
			t.Helper()
			exits, closes := 0, 0
			spawnShell(t, l, script, stdio, exitOKRev10l(t, &exits, &closes))
			runLoop(t, l)
			if exits != 1 || closes != 1 {
				t.Fatalf("%q: exit callbacks %d, close %d", script, exits, closes)
			}
		}
		const both = "echo hello world; echo hello errworld >&2"
		// toFd is a command that appends line to the file behind the child's fd (dash
		// redirects fds up to 9 only; /proc/self/fd/N names the same file).
		toFd := func(line string, fd int) string {
			return "echo " + line + " >>/proc/self/fd/" + strconv.Itoa(fd)
		}

		out := open("stdout_file")
		run("echo hello world", []uvloop.StdioContainer{{}, {Flags: uvloop.StdioInheritFd, Fd: int(out.Fd())}})
		if got := read(out); got != "hello world\n" {
			t.Errorf("stdout_to_file: %q", got)
		}

		out2 := open("stdout_file2")
		run(both, []uvloop.StdioContainer{{}, {Flags: uvloop.StdioInheritFd, Fd: int(out2.Fd())}, {Flags: uvloop.StdioInheritFd, Fd: int(out2.Fd())}})
		if got := read(out2); got != "hello world\nhello errworld\n" {
			t.Errorf("stdout_and_stderr_to_file: %q", got)
		}

		// _to_file2: the parent's fd a is the file; the child's a and a+1 both get it.
		f3 := open("stdout_file3")
		a := freeFdRev10l(t, f3, 200)
		stdio := make([]uvloop.StdioContainer, a+2)
		stdio[a] = uvloop.StdioContainer{Flags: uvloop.StdioInheritFd, Fd: a}
		stdio[a+1] = uvloop.StdioContainer{Flags: uvloop.StdioInheritFd, Fd: a}
		run(toFd("hello world", a)+"; "+toFd("hello errworld", a+1), stdio)
		if got := read(f3); got != "hello world\nhello errworld\n" {
			t.Errorf("stdout_and_stderr_to_file2: %q", got)
		}

		// _swap: the parent's b and b+1 are two files; the child's b is the parent's b+1
		// and the child's b+1 the parent's b.
		fo, fe := open("out_file"), open("err_file")
		b := freeFdRev10l(t, fo, 300)
		if fd := freeFdRev10l(t, fe, b+1); fd != b+1 {
			t.Fatalf("fd %d is taken", b+1)
		}
		stdio = make([]uvloop.StdioContainer, b+2)
		stdio[b] = uvloop.StdioContainer{Flags: uvloop.StdioInheritFd, Fd: b + 1}
		stdio[b+1] = uvloop.StdioContainer{Flags: uvloop.StdioInheritFd, Fd: b}
		run(toFd("hello world", b)+"; "+toFd("hello errworld", b+1), stdio)
		if got, want := read(fo), "hello errworld\n"; got != want {
			t.Errorf("swap: the parent's fd %d got %q, want %q", b, got, want)
		}
		if got, want := read(fe), "hello world\n"; got != want {
			t.Errorf("swap: the parent's fd %d got %q, want %q", b+1, got, want)
		}
	})
}

// spawn_stdio_greater_than_3: a pipe as the child's fd 3 carries what it writes there.
func TestLibuvSpawnStdioGreaterThan3Rev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		p, err := l.NewPipe()
		mustOK(t, err)
		exits, closes := 0, 0
		var got []byte
		spawnShell(t, l, "echo 'fourth stdio!' >&3", []uvloop.StdioContainer{{}, {}, {}, {Flags: uvloop.StdioCreatePipe, Stream: p, Writable: true}},
			exitOKRev10l(t, &exits, &closes))
		readToEOFRev10l(t, p, &got, &closes)
		runLoop(t, l)
		if exits != 1 || closes != 2 || string(got) != "fourth stdio!\n" {
			t.Fatalf("exit callbacks %d, close %d, read %q", exits, closes, got)
		}
	})
}

// spawn_and_ping and spawn_same_stdout_stderr: Kill with signal 0 only checks the child is
// there; the child echoes what it is sent and exits 0.
func TestLibuvSpawnAndPingRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		in, err := l.NewPipe()
		mustOK(t, err)
		out, err := l.NewPipe()
		mustOK(t, err)
		exits, closes, writes := 0, 0, 0
		var got []byte
		p := spawnShell(t, l, "exec head -c 4", []uvloop.StdioContainer{
			{Flags: uvloop.StdioCreatePipe, Stream: in, Readable: true},
			{Flags: uvloop.StdioCreatePipe, Stream: out, Writable: true},
		}, exitOKRev10l(t, &exits, &closes))
		mustOK(t, p.Kill(0))
		mustOK(t, in.Write([]byte("TEST"), func(err error) {
			mustOK(t, err)
			writes++
			in.Close(func() { closes++ })
		}))
		readToEOFRev10l(t, out, &got, &closes)
		if exits != 0 {
			t.Fatal("the exit callback ran before the loop")
		}
		runLoop(t, l)
		if exits != 1 || writes != 1 || closes != 3 || string(got) != "TEST" {
			t.Fatalf("exit callbacks %d, writes %d, close %d, read %q", exits, writes, closes, got)
		}
	})
}

// spawn_and_kill_with_std: a child with three pipes is sent its message, then SIGTERM: it
// exits with status 0 and signal SIGTERM; the pipes end, and five handles close.
func TestLibuvSpawnAndKillWithStdRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		var pipes [3]*uvloop.Pipe
		for i := range pipes {
			p, err := l.NewPipe()
			mustOK(t, err)
			pipes[i] = p
		}
		exits, closes := 0, 0
		p := spawnShell(t, l, "exec cat", []uvloop.StdioContainer{
			{Flags: uvloop.StdioCreatePipe, Stream: pipes[0], Readable: true},
			{Flags: uvloop.StdioCreatePipe, Stream: pipes[1], Writable: true},
			{Flags: uvloop.StdioCreatePipe, Stream: pipes[2], Writable: true},
		}, func(p *uvloop.Process, status int64, sig syscall.Signal) {
			exits++
			if status != 0 || sig != syscall.SIGTERM {
				t.Errorf("exit status %d, signal %v; want 0, SIGTERM", status, sig)
			}
			p.Close(func() { closes++ })
			pipes[0].Close(func() { closes++ })
		})
		msg := "Nancy's joining me because the message this evening is not my message but ours."
		var out, errOut []byte
		readToEOFRev10l(t, pipes[1], &out, &closes)
		readToEOFRev10l(t, pipes[2], &errOut, &closes)
		tm := l.NewTimer(func(tm *uvloop.Timer) {
			mustOK(t, p.Kill(syscall.SIGTERM))
			tm.Close(func() { closes++ })
		})
		mustOK(t, pipes[0].Write([]byte(msg), func(err error) {
			mustOK(t, err)
			mustOK(t, tm.Start(0, 0))
		}))
		runLoop(t, l)
		if exits != 1 || closes != 5 || len(errOut) != 0 {
			t.Fatalf("exit callbacks %d, close %d, stderr %q", exits, closes, errOut)
		}
		if len(out) > len(msg) || msg[:len(out)] != string(out) {
			t.Fatalf("stdout %q", out)
		}
	})
}

// spawn_empty_env: with an empty (not nil) Env the child's environment is empty, and a bare
// File is looked up in execvp's default path.
func TestLibuvSpawnEmptyEnvRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		out, err := l.NewPipe()
		mustOK(t, err)
		exits, closes := 0, 0
		var got []byte
		_, err = l.Spawn(&uvloop.ProcessOptions{File: "env", Args: []string{"env"}, Env: []string{},
			Stdio:  []uvloop.StdioContainer{{}, {Flags: uvloop.StdioCreatePipe, Stream: out, Writable: true}},
			OnExit: exitOKRev10l(t, &exits, &closes)})
		mustOK(t, err)
		readToEOFRev10l(t, out, &got, &closes)
		runLoop(t, l)
		if exits != 1 || closes != 2 || len(got) != 0 {
			t.Fatalf("exit callbacks %d, close %d, environment %q", exits, closes, got)
		}
	})
}

// spawn_preserve_env: with a nil Env the child has the parent's environment.
func TestLibuvSpawnPreserveEnvRev10l(t *testing.T) {
	t.Setenv("ENV_TEST", "testval")
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		out, err := l.NewPipe()
		mustOK(t, err)
		exits, closes := 0, 0
		var got []byte
		spawnShell(t, l, `printf %s "$ENV_TEST"`, []uvloop.StdioContainer{{}, {Flags: uvloop.StdioCreatePipe, Stream: out, Writable: true}},
			exitOKRev10l(t, &exits, &closes))
		readToEOFRev10l(t, out, &got, &closes)
		runLoop(t, l)
		if exits != 1 || closes != 2 || string(got) != "testval" {
			t.Fatalf("exit callbacks %d, close %d, ENV_TEST %q", exits, closes, got)
		}
	})
}

// spawn_auto_unref: a process closed at once, with no exit callback, is closing, and the
// loop ends without waiting for the child.
func TestLibuvSpawnAutoUnrefRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		p, err := l.Spawn(&uvloop.ProcessOptions{File: "/bin/sh", Args: []string{"sh", "-c", "exit 0"}})
		mustOK(t, err)
		if p.IsClosing() {
			t.Fatal("closing before Close")
		}
		closes := 0
		mustOK(t, p.Close(func() { closes++ }))
		if !p.IsClosing() {
			t.Fatal("not closing after Close")
		}
		runLoop(t, l)
		if closes != 1 {
			t.Fatalf("close callbacks %d", closes)
		}
	})
}

// childrenRev10l lists the process's children (all threads'), zombies included.
func childrenRev10l(t *testing.T) map[string]bool {
	t.Helper()
	tasks, err := filepath.Glob("/proc/self/task/*/children")
	mustOK(t, err)
	kids := map[string]bool{}
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // the thread ended
		}
		for _, pid := range strings.Fields(string(b)) {
			kids[pid] = true
		}
	}
	return kids
}

// spawn_fails_check_for_waitpid_cleanup and spawn_exercise_sigchld_issue: a spawn of a
// program that does not exist fails with ENOENT (or EACCES) and leaves no child behind, not
// even a zombie; a hundred of them beside a real child do not disturb its exit callback.
func TestLibuvSpawnFailsCleanupRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		before := childrenRev10l(t)
		exits, closes := 0, 0
		spawnShell(t, l, "exit 0", nil, exitOKRev10l(t, &exits, &closes))
		for i := range 100 {
			_, err := l.Spawn(&uvloop.ProcessOptions{File: "program-that-had-better-not-exist", Args: []string{"program-that-had-better-not-exist"},
				OnExit: func(*uvloop.Process, int64, syscall.Signal) { t.Error("an exit callback of a failed spawn") }})
			if !errors.Is(err, syscall.ENOENT) && !errors.Is(err, syscall.EACCES) {
				t.Fatalf("spawn %d: %v, want ENOENT or EACCES", i, err)
			}
		}
		runLoop(t, l)
		if exits != 1 || closes != 1 {
			t.Fatalf("exit callbacks %d, close %d", exits, closes)
		}
		for pid := range childrenRev10l(t) {
			if !before[pid] {
				t.Errorf("child %s is left behind", pid)
			}
		}
	})
}

// helperScriptRev10l writes an executable script named name in dir that exits 0.
func helperScriptRev10l(t *testing.T, dir, name string) {
	t.Helper()
	mustOK(t, os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\nexit 0\n"), 0o755))
}

// spawn_reads_child_path: a bare File is looked up in the PATH of the child's Env.
// spawn_relative_path: a File relative to Dir runs from there.
func TestLibuvSpawnPathLookupRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := t.TempDir()
		helperScriptRev10l(t, dir, "spawn_helper1")
		exits, closes := 0, 0
		_, err := l.Spawn(&uvloop.ProcessOptions{File: "spawn_helper1", Args: []string{"spawn_helper1"}, Env: []string{"PATH=" + dir},
			OnExit: exitOKRev10l(t, &exits, &closes)})
		mustOK(t, err)
		_, err = l.Spawn(&uvloop.ProcessOptions{File: "./spawn_helper1", Args: []string{"./spawn_helper1"}, Dir: dir,
			OnExit: exitOKRev10l(t, &exits, &closes)})
		mustOK(t, err)
		runLoop(t, l)
		if exits != 2 || closes != 2 {
			t.Fatalf("exit callbacks %d, close %d", exits, closes)
		}
	})
}

// spawn_inherit_streams: the child inherits two opened pipe handles as its stdin and stdout;
// the parent closes its copies of the child's ends, writes through the other end of stdin
// and reads the same bytes back from stdout.
func TestLibuvSpawnInheritStreamsRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		var in, out [2]int
		mustOK(t, unix.Pipe2(in[:], unix.O_CLOEXEC))
		mustOK(t, unix.Pipe2(out[:], unix.O_CLOEXEC))
		open := func(fd int) *uvloop.Pipe {
			p, err := l.NewPipe()
			mustOK(t, err)
			mustOK(t, p.Open(fd))
			return p
		}
		stdinChild, stdoutChild, stdinParent, stdoutParent := open(in[0]), open(out[1]), open(in[1]), open(out[0])
		if !stdinChild.IsReadable() || !stdoutChild.IsWritable() || !stdinParent.IsWritable() || !stdoutParent.IsReadable() {
			t.Fatal("an opened pipe end lacks its direction")
		}
		exits, closes := 0, 0
		_, err := l.Spawn(&uvloop.ProcessOptions{File: "/bin/sh", Args: []string{"sh", "-c", "exec cat"},
			Stdio: []uvloop.StdioContainer{
				{Flags: uvloop.StdioInheritStream, Stream: stdinChild},
				{Flags: uvloop.StdioInheritStream, Stream: stdoutChild},
			}, OnExit: exitOKRev10l(t, &exits, &closes)})
		mustOK(t, err)
		stdinChild.Close(nil)
		stdoutChild.Close(nil)
		msg := make([]byte, 1023)
		for i := range msg {
			msg[i] = byte(i)
		}
		mustOK(t, stdinParent.Write(msg, func(err error) {
			mustOK(t, err)
			stdinParent.Close(func() { closes++ })
		}))
		var got []byte
		readToEOFRev10l(t, stdoutParent, &got, &closes)
		runLoop(t, l)
		if exits != 1 || closes != 3 || !bytes.Equal(got, msg) {
			t.Fatalf("exit callbacks %d, close %d, read %d bytes (equal %v)", exits, closes, len(got), bytes.Equal(got, msg))
		}
	})
}

// spawn_fs_open: a file FSOpen opened is not inherited by a child (O_CLOEXEC), a dup of it
// (without the flag) is.
func TestLibuvSpawnFsOpenRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		var req uvloop.FSReq
		mustOK(t, l.FSOpen(&req, "/dev/null", os.O_RDWR, 0, nil))
		fd := int(req.Result())
		dupFd, err := unix.Dup(fd)
		mustOK(t, err)
		in, err := l.NewPipe()
		mustOK(t, err)
		exits, closes := 0, 0
		spawnShell(t, l, `read a b; if [ -e /proc/$$/fd/$a ]; then exit 1; fi; if [ ! -e /proc/$$/fd/$b ]; then exit 2; fi`,
			[]uvloop.StdioContainer{{Flags: uvloop.StdioCreatePipe, Stream: in, Readable: true}},
			exitOKRev10l(t, &exits, &closes))
		mustOK(t, in.Write([]byte(strconv.Itoa(fd)+" "+strconv.Itoa(dupFd)+"\n"), func(err error) {
			mustOK(t, err)
			in.Close(func() { closes++ })
		}))
		unix.Close(dupFd)
		runLoop(t, l)
		var cl uvloop.FSReq
		mustOK(t, l.FSClose(&cl, fd, nil))
		if exits != 1 || closes != 2 {
			t.Fatalf("exit callbacks %d, close %d", exits, closes)
		}
	})
}

// reexecRev10l runs the test named name again in a child test binary with env set, and fails
// if the child fails. It reports true in the child (env[0] is set there), where the caller
// then plays its part.
func reexecRev10l(t *testing.T, name, env string) (inChild bool) {
	t.Helper()
	k, _, _ := strings.Cut(env, "=")
	if os.Getenv(k) != "" {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("--- PASS: "+name)) {
		t.Fatalf("the child did not run the test:\n%s", out)
	}
	return false
}

// spawn_closed_process_io: with the parent's fd 0 closed, the pipe made for the child's
// stdin (or the loop's own fds) may take fd 0; the child still reads what is written to it,
// and exits; the process and the pipe close. Played in a child test binary, which closes its
// fd 0 first.
func TestLibuvSpawnClosedProcessIORev10l(t *testing.T) {
	if !reexecRev10l(t, "TestLibuvSpawnClosedProcessIORev10l", "UVGO_REV10L_CLOSED_STDIN=1") {
		return
	}
	mustOK(t, unix.Close(0))
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		in, err := l.NewPipe()
		mustOK(t, err)
		exits, closes, writes := 0, 0, 0
		spawnShell(t, l, `read line; [ "$line" = hello-from-spawn_stdin ]`,
			[]uvloop.StdioContainer{{Flags: uvloop.StdioCreatePipe, Stream: in, Readable: true}},
			exitOKRev10l(t, &exits, &closes))
		mustOK(t, in.Write([]byte("hello-from-spawn_stdin\n"), func(err error) {
			mustOK(t, err)
			writes++
			in.Close(func() { closes++ })
		}))
		runLoop(t, l)
		if exits != 1 || writes != 1 || closes != 2 {
			t.Fatalf("exit callbacks %d, writes %d, close %d", exits, writes, closes)
		}
	})
}

// spawn_setuid_fails and spawn_setgid_fails: a process that is not root cannot spawn a child
// as root: Spawn fails with EPERM, and no callback runs. Played in a child test binary that
// becomes nobody first (when the tests run as root; otherwise it is nobody enough already).
func TestLibuvSpawnSetuidFailsRev10l(t *testing.T) {
	if !reexecRev10l(t, "TestLibuvSpawnSetuidFailsRev10l", "UVGO_REV10L_SETUID=1") {
		return
	}
	if os.Getuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			t.Skipf("no user nobody: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		mustOK(t, syscall.Setgroups(nil))
		mustOK(t, syscall.Setgid(gid))
		mustOK(t, syscall.Setuid(uid))
	}
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		for _, o := range []uvloop.ProcessOptions{{SetUID: true, UID: 0}, {SetGID: true, GID: 0}} {
			o.File, o.Args = "/bin/sh", []string{"sh", "-c", "exit 0"}
			o.OnExit = func(*uvloop.Process, int64, syscall.Signal) { t.Error("an exit callback") }
			_, err := l.Spawn(&o)
			wantErrno(t, "Spawn as root", err, syscall.EPERM)
		}
		runLoop(t, l)
	})
}

// spawn_setuid_setgid: run as root, a child spawned with SetUID and SetGID for nobody runs as
// nobody (its uid and gid are nobody's) and exits 0.
func TestLibuvSpawnSetuidSetgidRev10l(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, as libuv's")
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("no user nobody: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		exits, closes := 0, 0
		_, err := l.Spawn(&uvloop.ProcessOptions{File: "/bin/sh",
			Args:   []string{"sh", "-c", `[ "$(id -u)" = "$1" ] && [ "$(id -g)" = "$2" ] && [ "$(id -G)" = "$2" ]`, "sh", u.Uid, u.Gid},
			SetUID: true, UID: uint32(uid), SetGID: true, GID: uint32(gid),
			OnExit: exitOKRev10l(t, &exits, &closes)})
		mustOK(t, err)
		runLoop(t, l)
		if exits != 1 || closes != 1 {
			t.Fatalf("exit callbacks %d, close %d", exits, closes)
		}
	})
}
