package nodeprocess_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/tty"
	"github.com/uvgo/uvgo/nodeprocess"
	"github.com/uvgo/uvgo/uvloop"
)

// A signal sent to ourselves reaches process.on's listener; the listener does not keep the
// loop alive; removing it stops watching.
func TestSignalToSelf(t *testing.T) {
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	p := nodeprocess.New(l)
	var got []string
	timer := l.SetTimeout(func() { t.Error("the signal never came") }, 1<<40)
	var lis = p.OnSignal("SIGUSR2", func(name string, num int) {
		got = append(got, fmt.Sprint(name, " ", num))
		l.ClearTimeout(timer)
	})
	ok, err := p.Kill(p.Pid(), "SIGUSR2")
	if !ok || err != nil {
		t.Fatal(ok, err)
	}
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	p.Off("SIGUSR2", lis)
	if _, err := p.Kill(p.Pid(), "SIGNOPE"); err == nil || err.Error() != "Unknown signal: SIGNOPE" {
		t.Errorf("unknown signal: %v", err)
	}
	if _, err := p.Kill(1<<30, "0"); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("kill of no process: %v", err)
	}
	p.Close()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "SIGUSR2 12" {
		t.Fatalf("%q", got)
	}
}

// helperMain is the child of TestStdin*: it reads process.stdin to its end and prints what
// it read, what kind of stream it was and whether fd 0 is non-blocking after Close.
func helperMain() {
	l, _ := uvloop.New()
	p := nodeprocess.New(l)
	in, err := p.Stdin()
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	var got []byte
	kind := "socket"
	if in.File != nil {
		kind = "file"
	}
	if in.IsTTY {
		kind = "tty"
	}
	in.OnData(func(b []byte) {
		got = append(got, b...)
		if in.IsTTY && strings.Contains(string(got), "\n") {
			p.Close()
		}
	})
	in.OnEnd(func() {})
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		fmt.Println("run", err)
	}
	p.Close()
	l.Run(uvloop.RunDefault)
	l.Close()
	fl, _ := tty.Flags(0)
	out := p.Stdout()
	out.WriteString(fmt.Sprintf("%s %q nonblock=%v\n", kind, got, fl&unix.O_NONBLOCK != 0), nil)
}

func runHelper(t *testing.T, stdin *os.File) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "NODEPROCESS_HELPER=1")
	cmd.Stdin = stdin
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestStdinFile(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("from a file\n")
	f.Seek(0, 0)
	defer f.Close()
	if got := runHelper(t, f); got != `file "from a file\n" nonblock=false` {
		t.Fatal(got)
	}
}

func TestStdinDevNull(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := runHelper(t, f); got != `file "" nonblock=false` {
		t.Fatal(got)
	}
}

// A pipe's O_NONBLOCK is shared with the writer's side of the pipeline: it is put back.
func TestStdinPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		w.WriteString("through a pipe")
		w.Close()
	}()
	if got := runHelper(t, r); got != `socket "through a pipe" nonblock=false` {
		t.Fatal(got)
	}
}

// A terminal is reopened: its flags are never changed.
func TestStdinTTY(t *testing.T) {
	m, s, err := tty.OpenPty()
	if err != nil {
		t.Skip(err)
	}
	defer unix.Close(m)
	slave := os.NewFile(uintptr(s), "pty")
	defer slave.Close()
	unix.Write(m, []byte("typed\n"))
	if got := runHelper(t, slave); got != `tty "typed\n" nonblock=false` {
		t.Fatal(got)
	}
}

func ExampleProcess_OnSignal() {
	l, _ := uvloop.New()
	p := nodeprocess.New(l)
	t := l.SetTimeout(func() {}, 1<<40) // something to wait on
	p.OnSignal("SIGUSR1", func(name string, num int) {
		fmt.Println("got", name)
		l.ClearTimeout(t)
		p.Close()
	})
	p.Kill(p.Pid(), "SIGUSR1")
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output: got SIGUSR1
}
