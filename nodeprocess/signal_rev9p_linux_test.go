package nodeprocess_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodeprocess"
)

// init runs the child of TestRev9SignalListeners when asked to.
func init() {
	if os.Getenv("UVGO_REV9_SIGNALS") == "" {
		return
	}
	nodeprocess.Main(func(p *nodeprocess.Process) {
		out := func(a ...any) { fmt.Println(a...) }
		l := p.Loop()
		l.SetTimeout(func() { out("guard") }, 5*time.Second)
		count := 0
		a := p.OnSignal("SIGTERM", func(s string, n int) { out("a", s, n) })
		var b func(string, int)
		var lb = p.OnSignal("SIGTERM", func(s string, n int) { b(s, n) })
		b = func(s string, n int) {
			out("b", s, n)
			p.Off("SIGTERM", a)
			if count++; count == 2 {
				p.Off("SIGTERM", lb)
				out("removed all")
			}
			p.Kill(p.Pid(), "SIGTERM")
		}
		p.Once("SIGTERM", func(args ...any) { out("once", args[0], args[1]) })
		p.OnExit(func(c int) { out("exit", c) })
		p.Kill(p.Pid(), "SIGTERM")
		out("after kill")
	})
}

// process.on of one signal with several listeners: a kill of the process itself runs them
// in order with the name and the number, once listeners once; removing one leaves the
// others; removing the last gives the signal its default back, and the next SIGTERM ends
// the process (no 'exit'), as node v20 prints and ends. A child runs it: it signals itself.
func TestRev9SignalListeners(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the scenario's JS twin cannot run")
	}
	js := `const out = (...a) => require('fs').writeSync(1, a.join(' ') + '\n');
setTimeout(() => out('guard'), 5000);
let count = 0;
const a = (s, n) => out('a', s, n);
const b = (s, n) => {
  out('b', s, n);
  process.removeListener('SIGTERM', a);
  if (++count === 2) { process.removeListener('SIGTERM', b); out('removed all'); }
  process.kill(process.pid, 'SIGTERM');
};
process.on('SIGTERM', a);
process.on('SIGTERM', b);
process.once('SIGTERM', (s, n) => out('once', s, n));
process.on('exit', c => out('exit', c));
process.kill(process.pid, 'SIGTERM');
out('after kill');
`
	file := filepath.Join(t.TempDir(), "signals.js")
	if err := os.WriteFile(file, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(cmd *exec.Cmd) string {
		out, err := cmd.Output()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%v did not fail: %v\n%s", cmd.Args, err, out)
		}
		ws := ee.Sys().(syscall.WaitStatus)
		return fmt.Sprintf("%s[signaled %v %v]", out, ws.Signaled(), ws.Signal())
	}
	want := run(exec.Command(node, file))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "UVGO_REV9_SIGNALS=1")
	if got := run(cmd); got != want {
		t.Errorf("got\n%s\nnode's\n%s", got, want)
	}
	if !strings.Contains(want, "removed all") {
		t.Errorf("node's run: %s", want)
	}
}
