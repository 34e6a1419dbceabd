package uvloop_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// The last FSEvent closed from its own callback closes the loop's watch instance while the
// dispatch is still reading it (review rev3-proc). A descriptor opened in that callback
// takes the instance's number; the finished dispatch must not read it.

// TestFSEventCloseInCallbackFdReuse: a pipe opened in the callback that closed the last
// watch (likely under the instance's old number) reads its own bytes.
func TestFSEventCloseInCallbackFdReuse(t *testing.T) {
	runOnBackends(t, 10*time.Second, func(t *testing.T, l *uvloop.Loop) func() {
		dir := t.TempDir()
		var got []byte
		var end error
		calls := 0
		e := l.NewFSEvent()
		mustOK(t, e.Start(dir, func(e *uvloop.FSEvent, name string, events int, err error) {
			if calls++; calls > 1 {
				t.Errorf("callback %d (%q, %v) after Close", calls, name, err)
				return
			}
			e.Close(nil)
			var fds [2]int
			mustOK(t, unix.Pipe(fds[:]))
			unix.CloseOnExec(fds[0])
			unix.CloseOnExec(fds[1])
			unix.Write(fds[1], []byte("hello"))
			unix.Close(fds[1])
			p, err := l.NewPipe()
			mustOK(t, err)
			mustOK(t, p.Open(fds[0]))
			mustOK(t, p.ReadStart(func(b []byte, err error) {
				if err != nil {
					end = err
					p.Close(nil)
					return
				}
				got = append(got, b...)
			}))
		}))
		mustOK(t, os.WriteFile(filepath.Join(dir, "x"), nil, 0o600))
		return func() {
			if string(got) != "hello" || end == nil {
				t.Errorf("the pipe read %q then %v, want \"hello\" then EOF", got, end)
			}
		}
	})
}

// TestFSEventRestartInCallback: a watch closed from its callback, which starts the next
// one (a new instance, likely under the same number), 20 times over: each hears its own
// change.
func TestFSEventRestartInCallback(t *testing.T) {
	const rounds = 20
	runOnBackends(t, 10*time.Second, func(t *testing.T, l *uvloop.Loop) func() {
		var heard []string
		dir := t.TempDir()
		var start func(i int)
		start = func(i int) {
			e := l.NewFSEvent()
			mustOK(t, e.Start(dir, func(e *uvloop.FSEvent, name string, events int, err error) {
				if e.IsClosing() {
					return // more changes of the same round: the handle is done
				}
				if err != nil {
					t.Errorf("round %d: %v", i, err)
				}
				heard = append(heard, fmt.Sprint(i))
				e.Close(nil)
				if i+1 < rounds {
					start(i + 1)
				}
			}))
			mustOK(t, os.WriteFile(filepath.Join(dir, fmt.Sprint(i)), nil, 0o600))
		}
		start(0)
		return func() {
			if len(heard) != rounds {
				t.Errorf("rounds heard: %q, want all %d", heard, rounds)
			}
		}
	})
}
