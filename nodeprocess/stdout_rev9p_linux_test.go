package nodeprocess_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodeprocess"
)

// init runs the child of TestRev9StdoutEPIPE when it is asked to (the package's TestMain
// belongs to another file): a program whose stdout is a pipe with no reader.
func init() {
	if os.Getenv("UVGO_REV9_STDIO_ORDER") != "" {
		stdioOrderChild()
	}
	if os.Getenv("UVGO_REV9_STDOUT_SLOW") != "" {
		slowReaderChild()
	}
	mode := os.Getenv("UVGO_REV9_STDOUT_EPIPE")
	if mode == "" {
		return
	}
	nodeprocess.Main(func(p *nodeprocess.Process) {
		out := func(a ...any) { fmt.Fprintln(os.Stderr, a...) }
		code := func(err error) string {
			var e *nodeprocess.Error
			if errors.As(err, &e) {
				return e.Code
			}
			return fmt.Sprint(err)
		}
		so := p.Stdout()
		if mode == "listener" {
			so.On("error", func(a ...any) { e := a[0].(*nodeprocess.Error); out("error", e.Code, e.Syscall, e.Message) })
		}
		so.On("close", func(...any) { out("close") })
		p.OnExit(func(c int) { out("exit", c) })
		cb := func(name string) func(error) {
			return func(err error) {
				if err == nil {
					out(name, "null")
					return
				}
				out(name, code(err))
			}
		}
		out("w1", so.WriteString("a\n", cb("cb1")))
		out("w2", so.WriteString("b\n", cb("cb2")))
		p.Loop().SetImmediate(func() { out("w3", so.WriteString("c\n", cb("cb3"))) })
	}, nodeprocess.WithStderr(os.Stderr))
}

// process.stdout on a pipe whose reader is gone: each write fails with EPIPE; as in Node,
// write returns false, the writes of one tick call back with EPIPE, then one 'error' (write
// EPIPE) and one 'close', and the stream takes writes again after (Node's stdout undestroys
// itself); with no 'error' listener the error is uncaught: 'exit' 1 and the status 1. The
// Go program and its JS twin run with such a stdout; their stderr lines up to 'exit' and
// their statuses match. Before the fix uvgo's Write returned true, emitted one 'error' per
// write, and no 'close'.
func TestRev9StdoutEPIPE(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the scenario's JS twin cannot run")
	}
	js := `const out = (...a) => require('fs').writeSync(2, a.join(' ') + '\n');
if (process.argv[2] === 'listener') process.stdout.on('error', e => out('error', e.code, e.syscall, e.message));
process.stdout.on('close', () => out('close'));
process.on('exit', c => out('exit', c));
out('w1', process.stdout.write('a\n', e => out('cb1', e && e.code)));
out('w2', process.stdout.write('b\n', e => out('cb2', e && e.code)));
setImmediate(() => out('w3', process.stdout.write('c\n', e => out('cb3', e && e.code))));
`
	file := filepath.Join(t.TempDir(), "epipe.js")
	if err := os.WriteFile(file, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(cmd *exec.Cmd) ([]string, int) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		defer w.Close()
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = w, &stderr
		err = cmd.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		var lines []string
		for _, line := range strings.Split(stderr.String(), "\n") {
			lines = append(lines, line)
			if strings.HasPrefix(line, "exit ") {
				break
			}
		}
		return lines, cmd.ProcessState.ExitCode()
	}
	for _, mode := range []string{"listener", "none"} {
		t.Run(mode, func(t *testing.T) {
			want, wantStatus := run(exec.Command(node, file, mode))
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "UVGO_REV9_STDOUT_EPIPE="+mode)
			got, status := run(cmd)
			if strings.Join(got, "\n") != strings.Join(want, "\n") || status != wantStatus {
				t.Errorf("status %d, stderr\n%s\nnode's: status %d\n%s", status, strings.Join(got, "\n"), wantStatus, strings.Join(want, "\n"))
			}
		})
	}
}

// stdioOrderChild is the child of TestRev9StdioOrder: writes to stdout and stderr,
// interleaved, from the main script, a tick, a callback and a timeout.
func stdioOrderChild() {
	nodeprocess.Main(func(p *nodeprocess.Process) {
		so, se := p.Stdout(), p.Stderr()
		so.WriteString("o1\n", func(error) { se.WriteString("e-cb1\n", nil) })
		se.WriteString("e1\n", nil)
		p.Loop().NextTick(func() { so.WriteString("o-tick\n", nil) })
		p.Loop().SetTimeout(func() { se.WriteString("e-timeout\n", nil); so.WriteString("o-timeout\n", nil) }, 0)
		so.WriteString("o2\n", nil)
		p.OnExit(func(int) { se.WriteString("e-exit\n", nil) })
	})
}

// process.stdout and process.stderr are synchronous on files and pipes (Linux), so their
// writes land in the order they were made, whoever makes them, as with node v20: both fds
// on one file, then on one pipe.
func TestRev9StdioOrder(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the scenario's JS twin cannot run")
	}
	js := `const so = process.stdout, se = process.stderr;
so.write('o1\n', () => se.write('e-cb1\n'));
se.write('e1\n');
process.nextTick(() => so.write('o-tick\n'));
setTimeout(() => { se.write('e-timeout\n'); so.write('o-timeout\n'); }, 0);
so.write('o2\n');
process.on('exit', () => se.write('e-exit\n'));
`
	file := filepath.Join(t.TempDir(), "order.js")
	if err := os.WriteFile(file, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"file", "pipe"} {
		t.Run(kind, func(t *testing.T) {
			run := func(cmd *exec.Cmd) string {
				if kind == "pipe" {
					out, err := cmd.CombinedOutput() // one pipe for both
					if err != nil {
						t.Fatal(err)
					}
					return string(out)
				}
				f, err := os.Create(filepath.Join(t.TempDir(), "out"))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				cmd.Stdout, cmd.Stderr = f, f
				if err := cmd.Run(); err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(f.Name())
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
			want := run(exec.Command(node, file))
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "UVGO_REV9_STDIO_ORDER=1")
			if got := run(cmd); got != want {
				t.Errorf("got\n%s\nnode's\n%s", got, want)
			}
		})
	}
}

// slowReaderChild is the child of TestRev9StdoutPipeSlowReader.
func slowReaderChild() {
	nodeprocess.Main(func(p *nodeprocess.Process) {
		log := func(s string) { os.Stderr.WriteString(s + "\n") }
		r := p.Stdout().Write(make([]byte, 1<<20), func(error) { log("write cb") })
		log(fmt.Sprint("after write ", r))
		p.Loop().SetTimeout(func() { log("timer") }, 0)
	})
}

// process.stdout on a pipe whose reader does not read yet: Node writes what the pipe takes
// and queues the rest (a net.Socket on the pipe, non-blocking), so write returns false and
// the loop goes on (a timer fires) until the reader drains it, then the callback runs. The
// reader here reads stdout only once it saw "timer" on stderr (or after 3 s, a deadlock
// guard). Before the fix uvgo's Stdout wrote synchronously and blocked the loop until
// everything was written: "after write true", then the timer only after the reader gave up.
func TestRev9StdoutPipeSlowReader(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the scenario's JS twin cannot run")
	}
	js := `const r = process.stdout.write(Buffer.alloc(1 << 20), () => process.stderr.write('write cb\n'));
process.stderr.write('after write ' + r + '\n');
setTimeout(() => process.stderr.write('timer\n'), 0);
`
	file := filepath.Join(t.TempDir(), "slow.js")
	if err := os.WriteFile(file, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(cmd *exec.Cmd) string {
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string)
		go func() {
			defer close(lines)
			buf := make([]byte, 4096)
			var acc string
			for {
				n, err := stderr.Read(buf)
				acc += string(buf[:n])
				for {
					i := strings.IndexByte(acc, '\n')
					if i < 0 {
						break
					}
					lines <- acc[:i]
					acc = acc[i+1:]
				}
				if err != nil {
					return
				}
			}
		}()
		var log []string
		guard := time.After(3 * time.Second)
	wait:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break wait
				}
				log = append(log, l)
				if l == "timer" {
					break wait
				}
			case <-guard:
				log = append(log, "(the reader stopped waiting)")
				break wait
			}
		}
		n, _ := io.Copy(io.Discard, stdout)
		for l := range lines {
			log = append(log, l)
		}
		cmd.Wait()
		return fmt.Sprintf("%s [%d bytes]", strings.Join(log, ", "), n)
	}
	want := run(exec.Command(node, file))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "UVGO_REV9_STDOUT_SLOW=1")
	if got := run(cmd); got != want {
		t.Errorf("got   %s\nnode's %s", got, want)
	}
}
