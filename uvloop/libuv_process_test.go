package uvloop_test

import (
	"errors"
	"io"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"

	"go.uber.org/goleak"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test-spawn.c, test-ref.c's process_ref and
// test-kill.c. libuv's helpers are its own test runner started again; here they are
// /bin/sh one-liners doing the same.

func spawnShell(t *testing.T, l *uvloop.Loop, script string, stdio []uvloop.StdioContainer, onExit func(*uvloop.Process, int64, syscall.Signal)) *uvloop.Process {
	t.Helper()
	p, err := l.Spawn(&uvloop.ProcessOptions{File: "/bin/sh", Args: []string{"sh", "-c", script}, Stdio: stdio, OnExit: onExit})
	mustOK(t, err)
	return p
}

func TestLibuvSpawnExitCode(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	exits, closes := 0, 0
	spawnShell(t, l, "exit 1", nil, func(p *uvloop.Process, status int64, sig syscall.Signal) {
		exits++
		if status != 1 || sig != 0 {
			t.Errorf("exit %d signal %d", status, sig)
		}
		if p.IsActive() {
			t.Error("active in its exit callback")
		}
		p.Close(func() { closes++ })
	})
	mustRunMode(t, l, uvloop.RunDefault)
	if exits != 1 || closes != 1 {
		t.Fatalf("%d exits, %d closes", exits, closes)
	}
	mustOK(t, l.Close())
	waitGoroutinesGone(t)
}

func TestLibuvSpawnStdout(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	out, err := l.NewPipe()
	mustOK(t, err)
	var got []byte
	exits := 0
	p := spawnShell(t, l, "echo hello world", []uvloop.StdioContainer{{}, {Flags: uvloop.StdioCreatePipe, Stream: out, Writable: true}},
		func(p *uvloop.Process, status int64, sig syscall.Signal) {
			exits++
			if status != 0 || sig != 0 {
				t.Errorf("exit %d signal %d", status, sig)
			}
			p.Close(nil)
		})
	if p.Pid() <= 0 {
		t.Fatalf("pid %d", p.Pid())
	}
	if out.IsWritable() || !out.IsReadable() {
		t.Error("the loop's end of a pipe the child writes is not read-only")
	}
	mustOK(t, out.ReadStart(func(data []byte, err error) {
		if err == io.EOF {
			out.Close(nil)
			return
		}
		mustOK(t, err)
		got = append(got, data...)
	}))
	mustRunMode(t, l, uvloop.RunDefault)
	if string(got) != "hello world\n" || exits != 1 {
		t.Fatalf("read %q, %d exits", got, exits)
	}
	mustOK(t, l.Close())
	waitGoroutinesGone(t)
}

func TestLibuvSpawnStdin(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	in, err := l.NewPipe()
	mustOK(t, err)
	out, err := l.NewPipe()
	mustOK(t, err)
	spawnShell(t, l, "cat", []uvloop.StdioContainer{
		{Flags: uvloop.StdioCreatePipe, Stream: in, Readable: true},
		{Flags: uvloop.StdioCreatePipe, Stream: out, Writable: true},
	}, func(p *uvloop.Process, status int64, sig syscall.Signal) {
		if status != 0 || sig != 0 {
			t.Errorf("exit %d signal %d", status, sig)
		}
		p.Close(nil)
	})
	msg := []byte("hello-from-spawn_stdin")
	mustOK(t, in.Write(msg, func(err error) {
		mustOK(t, err)
		in.Close(nil) // the child's stdin ends
	}))
	var got []byte
	mustOK(t, out.ReadStart(func(data []byte, err error) {
		if err == io.EOF {
			out.Close(nil)
			return
		}
		got = append(got, data...)
	}))
	mustRunMode(t, l, uvloop.RunDefault)
	if string(got) != string(msg) {
		t.Fatalf("echoed %q", got)
	}
	mustOK(t, l.Close())
	waitGoroutinesGone(t)
}

// spawn_ignored_stdio: with no stdio given, the child's 0-2 are /dev/null.
func TestLibuvSpawnIgnoredStdio(t *testing.T) {
	l := newLoop(t)
	spawnShell(t, l, "read x; test -z \"$x\" && echo to-dev-null", nil, func(p *uvloop.Process, status int64, sig syscall.Signal) {
		if status != 0 {
			t.Errorf("exit %d", status)
		}
		p.Close(nil)
	})
	mustRunMode(t, l, uvloop.RunDefault)
	mustOK(t, l.Close())
}

func TestLibuvSpawnAndKill(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	exits := 0
	p := spawnShell(t, l, "exec sleep 100", nil, func(p *uvloop.Process, status int64, sig syscall.Signal) {
		exits++
		if status != 0 || sig != syscall.SIGTERM {
			t.Errorf("exit %d signal %d, want SIGTERM", status, sig)
		}
		if err := p.Kill(syscall.SIGTERM); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("Kill after exit: %v", err)
		}
		p.Close(nil)
	})
	tm := l.NewTimer(func(tm *uvloop.Timer) {
		mustOK(t, p.Kill(syscall.SIGTERM))
		tm.Close(nil)
	})
	mustOK(t, tm.Start(0, 0))
	mustRunMode(t, l, uvloop.RunDefault)
	if exits != 1 {
		t.Fatalf("%d exits", exits)
	}
	mustOK(t, l.Close())
	waitGoroutinesGone(t)
}

// spawn_detached: a detached child is in its own session; unref'd, it does not keep the
// loop alive; it is killed and closed after.
func TestLibuvSpawnDetached(t *testing.T) {
	l := newLoop(t)
	p, err := l.Spawn(&uvloop.ProcessOptions{File: "sleep", Args: []string{"sleep", "100"}, Detached: true,
		OnExit: func(*uvloop.Process, int64, syscall.Signal) { t.Error("exit callback of an unref'd child") }})
	mustOK(t, err)
	p.Unref()
	mustRunMode(t, l, uvloop.RunDefault)
	sid, err := getsid(p.Pid())
	mustOK(t, err)
	if sid != p.Pid() {
		t.Errorf("child's session %d, want its own (%d)", sid, p.Pid())
	}
	mustOK(t, uvloop.Kill(p.Pid(), 0))
	mustOK(t, p.Kill(syscall.SIGKILL))
	mustOK(t, p.Close(nil))
	mustRunMode(t, l, uvloop.RunDefault)
	mustOK(t, l.Close())
	waitGoroutinesGone(t) // the waiter reaps the killed child, then ends
}

func getsid(pid int) (int, error) {
	sid, _, errno := syscall.RawSyscall(syscall.SYS_GETSID, uintptr(pid), 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(sid), nil
}

// waitGoroutinesGone waits for goroutines that are about to end (a waiter whose child was
// killed) and fails if some remain.
func waitGoroutinesGone(t *testing.T) {
	t.Helper()
	if err := goleak.Find(); err != nil {
		t.Error(err)
	}
}

// process_ref: an unref'd process does not keep the loop alive.
func TestLibuvProcessRef(t *testing.T) {
	l := newLoop(t)
	p := spawnShell(t, l, "exec sleep 100", nil, func(*uvloop.Process, int64, syscall.Signal) {})
	p.Unref()
	mustRunMode(t, l, uvloop.RunDefault)
	mustOK(t, p.Kill(syscall.SIGTERM))
	mustOK(t, p.Close(nil))
	mustRunMode(t, l, uvloop.RunDefault)
	mustOK(t, l.Close())
	waitGoroutinesGone(t)
}

// kill: uv_kill reaches a child, whose exit callback sees the signal.
func TestLibuvKill(t *testing.T) {
	l := newLoop(t)
	var got syscall.Signal
	p := spawnShell(t, l, "exec sleep 100", nil, func(p *uvloop.Process, status int64, sig syscall.Signal) {
		got = sig
		p.Close(nil)
	})
	mustOK(t, uvloop.Kill(p.Pid(), syscall.SIGUSR1))
	mustRunMode(t, l, uvloop.RunDefault)
	if got != syscall.SIGUSR1 {
		t.Fatalf("terminating signal %d, want SIGUSR1", got)
	}
	mustOK(t, l.Close())
}

// kill_invalid_signum.
func TestLibuvKillInvalidSignum(t *testing.T) {
	pid := os.Getpid()
	for _, sig := range []syscall.Signal{-1, 4096, 65} {
		if err := uvloop.Kill(pid, sig); !errors.Is(err, syscall.EINVAL) {
			t.Errorf("Kill(%d): %v, want EINVAL", sig, err)
		}
	}
}

// spawn_fails, and the other bad input: a missing program, a missing working directory,
// empty arguments, a StdioCreatePipe without a fresh Pipe. Nothing is created and nothing
// leaks.
func TestLibuvSpawnFails(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	pipe, err := l.NewPipe()
	mustOK(t, err)
	used, err := l.NewPipe()
	mustOK(t, err)
	mustOK(t, used.Bind(t.TempDir()+"/sock"))
	tests := []struct {
		name string
		opts *uvloop.ProcessOptions
		want error
	}{
		{"missing program", &uvloop.ProcessOptions{File: "/non/existing/path", Args: []string{"x"}, Stdio: []uvloop.StdioContainer{{Flags: uvloop.StdioCreatePipe, Stream: pipe}}}, syscall.ENOENT},
		{"missing in PATH", &uvloop.ProcessOptions{File: "no-such-program-xyz", Args: []string{"x"}}, syscall.ENOENT},
		{"missing directory", &uvloop.ProcessOptions{File: "/bin/sh", Args: []string{"sh"}, Dir: "/non/existing/dir"}, syscall.ENOENT},
		{"empty args", &uvloop.ProcessOptions{File: "/bin/sh"}, syscall.EINVAL},
		{"empty file", &uvloop.ProcessOptions{Args: []string{"sh"}}, syscall.EINVAL},
		{"nil options", nil, syscall.EINVAL},
		{"not a pipe", &uvloop.ProcessOptions{File: "/bin/sh", Args: []string{"sh"}, Stdio: []uvloop.StdioContainer{{Flags: uvloop.StdioCreatePipe}}}, syscall.EINVAL},
		{"pipe in use", &uvloop.ProcessOptions{File: "/bin/sh", Args: []string{"sh"}, Stdio: []uvloop.StdioContainer{{Flags: uvloop.StdioCreatePipe, Stream: pipe}, {Flags: uvloop.StdioCreatePipe, Stream: used}}}, syscall.EBUSY},
		{"bad fd", &uvloop.ProcessOptions{File: "/bin/sh", Args: []string{"sh"}, Stdio: []uvloop.StdioContainer{{Flags: uvloop.StdioInheritFd, Fd: -1}}}, uvloop.ErrBadFd},
	}
	for _, tc := range tests {
		p, err := l.Spawn(tc.opts)
		if !errors.Is(err, tc.want) || p != nil {
			t.Errorf("%s: %v, %v; want %v", tc.name, p, err, tc.want)
		}
	}
	if pipe.Fd() != -1 {
		t.Error("a failed spawn left the pipe open")
	}
	if l.Alive() {
		t.Error("a failed spawn keeps the loop alive")
	}
	pipe.Close(nil)
	used.Close(nil)
	mustRunMode(t, l, uvloop.RunDefault)
	mustOK(t, l.Close())
	if _, err := l.Spawn(&uvloop.ProcessOptions{File: "/bin/sh", Args: []string{"sh"}}); !errors.Is(err, uvloop.ErrClosed) {
		t.Errorf("Spawn on a closed loop: %v", err)
	}
	waitGoroutinesGone(t)
}

// Closing a process handle while the child runs leaves no zombie: the waiter reaps it when
// it exits.
func TestProcessCloseWhileRunning(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	l := newLoop(t)
	p := spawnShell(t, l, "exec sleep 100", nil, func(*uvloop.Process, int64, syscall.Signal) { t.Error("exit callback after Close") })
	pid := p.Pid()
	mustOK(t, p.Close(nil))
	mustRunMode(t, l, uvloop.RunDefault)
	mustOK(t, l.Close())
	mustOK(t, uvloop.Kill(pid, syscall.SIGKILL))
	waitGoroutinesGone(t)
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
		t.Errorf("child %d is still there (a zombie)", pid)
	}
}
