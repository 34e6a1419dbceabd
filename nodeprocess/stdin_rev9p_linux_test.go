package nodeprocess_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nodeprocess"
)

// init runs the child of TestRev9StdinFileEvents when asked to.
func init() {
	if os.Getenv("UVGO_REV9_STDIN_EVENTS") == "" {
		return
	}
	nodeprocess.Main(func(p *nodeprocess.Process) {
		out := func(a ...any) { fmt.Println(a...) }
		in, err := p.Stdin()
		if err != nil {
			out("stdin", err)
			return
		}
		in.OnData(func(d []byte) { out("data", jsonQuote(string(d))) })
		in.OnEnd(func() {
			out("end")
			p.Loop().SetImmediate(func() { out("immediate after end") })
			p.Loop().NextTick(func() { out("tick after end") })
		})
		in.On("close", func(...any) { out("close") })
		p.OnExit(func(int) { out("exit") })
	})
}

func jsonQuote(s string) string { return `"` + strings.ReplaceAll(s, "\n", `\n`) + `"` }

// process.stdin redirected from a file (and from /dev/null): 'data', 'end', and no 'close'
// (Node reads such a stdin with an fs.ReadStream that does not close fd 0), then 'exit'; as
// node v20 prints. Before the fix uvgo emitted 'close' after 'end'. From a pipe: a socket,
// whose 'close' follows 'end'.
func TestRev9StdinFileEvents(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the scenario's JS twin cannot run")
	}
	dir := t.TempDir()
	js := `const out = (...a) => require('fs').writeSync(1, a.join(' ') + '\n');
const s = process.stdin;
s.on('data', d => out('data', JSON.stringify(String(d))));
s.on('end', () => { out('end'); setImmediate(() => out('immediate after end')); process.nextTick(() => out('tick after end')); });
s.on('close', () => out('close'));
process.on('exit', () => out('exit'));
`
	file := filepath.Join(dir, "stdin.js")
	in := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(file, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{in, os.DevNull, "pipe"} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			run := func(cmd *exec.Cmd) string {
				if name == "pipe" {
					cmd.Stdin = strings.NewReader("through a pipe\n") // exec copies it into a pipe
				} else {
					f, err := os.Open(name)
					if err != nil {
						t.Fatal(err)
					}
					defer f.Close()
					cmd.Stdin = f
				}
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
				}
				return string(out)
			}
			want := run(exec.Command(node, file))
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "UVGO_REV9_STDIN_EVENTS=1")
			if got := run(cmd); got != want {
				t.Errorf("got\n%s\nnode's\n%s", got, want)
			}
		})
	}
}
