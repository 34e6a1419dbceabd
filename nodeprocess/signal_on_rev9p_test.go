package nodeprocess_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nodeprocess"
)

// process.on of a signal that cannot be caught (SIGKILL, SIGSTOP) throws at once, as Node's
// 'newListener' hook does (uv_signal_start EINVAL, errno -22), and the listener is not
// added; no 'error' event follows; a signal that can be is watched. Before the fix uvgo
// added the listener and emitted 'error' on process from a nextTick.
func TestRev9SignalOnUncatchableThrows(t *testing.T) {
	js := `process.on('error', e => console.log('error event', e.code));
for (const sig of ['SIGKILL', 'SIGSTOP', 'SIGUSR2']) {
  try {
    const fn = () => {};
    process.on(sig, fn);
    console.log(sig, 'added', process.listenerCount(sig));
    process.removeListener(sig, fn);
  } catch (e) {
    console.log(sig, 'throw', e.code, e.errno, e.syscall, e.message, process.listenerCount(sig));
  }
}
process.nextTick(() => console.log('tick'));
`
	want := nodeLinesP(t, js)
	var got []string
	out := func(format string, a ...any) { got = append(got, fmt.Sprintf(format, a...)) }
	status, err := nodeprocess.Run(func(p *nodeprocess.Process) {
		p.On("error", func(a ...any) { out("error event %v", a[0]) })
		for _, sig := range []string{"SIGKILL", "SIGSTOP", "SIGUSR2"} {
			func() {
				defer func() {
					if v := recover(); v != nil {
						e, ok := v.(*nodeprocess.Error)
						if !ok {
							panic(v)
						}
						out("%s throw %s %d %s %s %d", sig, e.Code, e.Errno, e.Syscall, e.Message, p.ListenerCount(sig))
					}
				}()
				l := p.On(sig, func(...any) {})
				out("%s added %d", sig, p.ListenerCount(sig))
				p.Off(sig, l)
			}()
		}
		p.Loop().NextTick(func() { out("tick") })
	}, nodeprocess.WithStderr(io.Discard))
	if err != nil || status != 0 {
		t.Fatal(status, err)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nnode's\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
