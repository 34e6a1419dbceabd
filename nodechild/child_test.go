package nodechild_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nodechild"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

func openFds() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// run runs main on a fresh loop and returns what it printed; it checks that no fd leaked.
func run(t *testing.T, main func(l *uvloop.Loop, out func(string))) []string {
	t.Helper()
	fds := openFds()
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	main(l, func(s string) { lines = append(lines, s) })
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if n := openFds(); n != fds {
		t.Errorf("%d fds open, %d before", n, fds)
	}
	return lines
}

func check(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func str(v any) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(v)
}

// The events of a child that writes and exits: 'spawn', the data, 'end', 'exit', 'close'
// (after stdout's end), then stdout's own 'close'.
func TestSpawnEvents(t *testing.T) {
	got := run(t, func(l *uvloop.Loop, out func(string)) {
		c, err := nodechild.Spawn(l, "sh", []string{"-c", "echo hi; exit 3"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.On("spawn", func(...any) { out("spawn") })
		c.Stdout.OnData(func(b []byte) { out(fmt.Sprintf("data %q", b)) })
		c.Stdout.OnEnd(func() { out("stdout end") })
		c.On("exit", func(a ...any) { out("exit " + str(a[0]) + " " + str(a[1])) })
		c.On("close", func(a ...any) { out("close " + str(a[0]) + " " + str(a[1])) })
		c.Stdout.OnClose(func(bool) { out("stdout close") })
	})
	// 'exit' and the end of stdout race (as in Node); 'close' comes after both.
	idx := map[string]int{}
	for i, g := range got {
		idx[g] = i
	}
	if len(got) != 6 || got[0] != "spawn" || got[1] != `data "hi\n"` || got[5] != "close 3 null" && got[5] != "stdout close" ||
		idx["close 3 null"] < idx["exit 3 null"] || idx["close 3 null"] < idx["stdout end"] {
		t.Fatalf("%q", got)
	}
}

func TestSpawnKilled(t *testing.T) {
	got := run(t, func(l *uvloop.Loop, out func(string)) {
		c, _ := nodechild.Spawn(l, "sleep", []string{"10"}, nil)
		c.On("spawn", func(...any) { out(fmt.Sprint("kill ", c.Kill(""))) })
		c.On("exit", func(a ...any) { out("exit " + str(a[0]) + " " + str(a[1]) + fmt.Sprint(" killed ", c.Killed)) })
		c.On("close", func(a ...any) {
			out("close " + str(a[0]) + " " + str(a[1]))
			out(fmt.Sprint("kill after exit ", c.Kill("SIGKILL")))
		})
	})
	check(t, got, "kill true", "exit null SIGTERM killed true", "close null SIGTERM", "kill after exit false")
}

func TestSpawnMissingBinary(t *testing.T) {
	got := run(t, func(l *uvloop.Loop, out func(string)) {
		c, err := nodechild.Spawn(l, "nosuchbinary-xyz", []string{"a", "b"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		out(fmt.Sprint("pid ", c.Pid))
		c.OnError(func(err error) {
			var e *nodechild.Error
			errors.As(err, &e)
			out(fmt.Sprint("error ", e.Message, " ", e.Errno, " ", e.Code, " ", e.Syscall, " ", e.Path, " ", e.Spawnargs))
			l.NextTick(func() { out("tick after error") })
			l.SetImmediate(func() { out("immediate after error") })
		})
		c.On("spawn", func(...any) { out("spawn (unexpected)") })
		c.On("exit", func(...any) { out("exit (unexpected)") })
		c.On("close", func(a ...any) { out("close " + str(a[0]) + " " + str(a[1])) })
		c.Stdout.OnClose(func(bool) { out("stdout close") })
	})
	check(t, got, "pid 0", "error spawn nosuchbinary-xyz ENOENT -2 ENOENT spawn nosuchbinary-xyz nosuchbinary-xyz [a b]",
		"tick after error", "immediate after error", "close -2 null", "stdout close")
}

func TestSpawnBadArguments(t *testing.T) {
	run(t, func(l *uvloop.Loop, out func(string)) {
		if _, err := nodechild.Spawn(l, "", nil, nil); err == nil || err.Error() != "The argument 'file' cannot be empty. Received ''" {
			t.Errorf("empty file: %v", err)
		}
		if _, err := nodechild.Spawn(l, "true", nil, &nodechild.SpawnOptions{Stdio: []string{"pipe", "bogus"}}); err == nil {
			t.Error("bogus stdio accepted")
		}
		c, _ := nodechild.Spawn(l, "/bin/true", nil, &nodechild.SpawnOptions{Cwd: "/nonexistent-dir"})
		c.OnError(func(err error) { out(err.Error()) })
	})
}

func TestSpawnStdin(t *testing.T) {
	got := run(t, func(l *uvloop.Loop, out func(string)) {
		c, _ := nodechild.Spawn(l, "cat", nil, nil)
		c.Stdout.SetEncoding("utf8")
		c.Stdout.On("data", func(a ...any) { out("data " + a[0].(string)) })
		c.Stdin.WriteString("ping", nil)
		c.Stdin.End(nil)
		c.On("close", func(a ...any) { out("close " + str(a[0])) })
	})
	check(t, got, "data ping", "close 0")
}

func TestExec(t *testing.T) {
	got := run(t, func(l *uvloop.Loop, out func(string)) {
		nodechild.Exec(l, "echo out; echo err >&2; exit 2", nil, func(err error, stdout, stderr string) {
			var e *nodechild.ExecError
			errors.As(err, &e)
			out(fmt.Sprintf("exec %q %v %v %q %q %q %q", e.Message, e.Code, e.Killed, e.Signal, e.Cmd, stdout, stderr))
		})
	})
	check(t, got, `exec "Command failed: echo out; echo err >&2; exit 2\nerr\n" 2 false "" "echo out; echo err >&2; exit 2" "out\n" "err\n"`)
	got = run(t, func(l *uvloop.Loop, out func(string)) {
		nodechild.ExecFile(l, "echo", []string{"x"}, nil, func(err error, stdout, stderr string) {
			out(fmt.Sprintf("execFile %v %q %q", err, stdout, stderr))
		})
		nodechild.ExecFile(l, "nosuch-xyz", []string{"a"}, nil, func(err error, stdout, stderr string) {
			var e *nodechild.ExecError
			errors.As(err, &e)
			out(fmt.Sprintf("missing %q %v %q", e.Message, e.Code, e.Cmd))
		})
		nodechild.Exec(l, "exec sleep 10", &nodechild.ExecOptions{Timeout: 1}, func(err error, stdout, stderr string) {
			var e *nodechild.ExecError
			errors.As(err, &e)
			out(fmt.Sprintf("timeout %v %v %q", e.Code, e.Killed, e.Signal))
		})
		nodechild.Exec(l, "yes | head -c 100000", &nodechild.ExecOptions{MaxBuffer: 1000}, func(err error, stdout, stderr string) {
			var e *nodechild.ExecError
			errors.As(err, &e)
			out(fmt.Sprintf("maxBuffer %v %d", e.Code, len(stdout)))
		})
	})
	want := map[string]bool{`execFile <nil> "x\n" ""`: true, `missing "spawn nosuch-xyz ENOENT" ENOENT "nosuch-xyz a"`: true,
		`timeout <nil> true "SIGTERM"`: true, "maxBuffer ERR_CHILD_PROCESS_STDIO_MAXBUFFER 1000": true}
	for _, g := range got {
		if !want[g] {
			t.Errorf("unexpected %q", g)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %q", got)
	}
}

func TestExecPromise(t *testing.T) {
	got := run(t, func(l *uvloop.Loop, out func(string)) {
		p := nodechild.ExecPromise(l, "echo hi", nil)
		promise.Then(p, func(o nodechild.Output) (int, error) { out("resolved " + o.Stdout); return 0, nil }, nil)
		q := nodechild.ExecFilePromise(l, "sh", []string{"-c", "echo e >&2; exit 1"}, nil)
		q.Catch(func(err error) (nodechild.Output, error) {
			e := err.(*nodechild.ExecError)
			out(fmt.Sprintf("rejected %v %q", e.Code, e.Stderr))
			return nodechild.Output{}, nil
		})
	})
	if len(got) != 2 {
		t.Fatalf("%q", got)
	}
}

func ExampleExec() {
	l, _ := uvloop.New()
	nodechild.Exec(l, "echo hello", nil, func(err error, stdout, stderr string) {
		fmt.Printf("%v %q\n", err, stdout)
	})
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output: <nil> "hello\n"
}

// The output is text decoded as Node decodes it (utf8 by default: a byte that is not UTF-8
// becomes U+FFFD), or raw bytes with Encoding "buffer".
func ExampleExecOptions_encoding() {
	l, _ := uvloop.New()
	const cmd = `printf 'caf\303\251 \377'`
	nodechild.Exec(l, cmd, nil, func(err error, stdout, stderr string) {
		fmt.Printf("%+q\n", stdout)
	})
	nodechild.Exec(l, cmd, &nodechild.ExecOptions{Encoding: "buffer"}, func(err error, stdout, stderr string) {
		fmt.Printf("% x\n", stdout)
	})
	l.Run(uvloop.RunDefault)
	l.Close()
	// Unordered output:
	// "caf\u00e9 \ufffd"
	// 63 61 66 c3 a9 20 ff
}
