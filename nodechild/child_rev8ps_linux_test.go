package nodechild_test

import (
	"fmt"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodechild"
	"github.com/uvgo/uvgo/uvloop"
)

// A child killed from 'spawn' while the loop waits in the kernel (on io_uring, in the ring:
// the child's stdio pipes are registered), on both backends, plain and own thread (review
// rev8-pollsig), as node v20 prints it:
//
//	const c = spawn('sleep', ['10']);
//	c.stdout.on('end', () => console.log('stdout end'));
//	c.on('spawn', () => console.log('kill', c.kill()));
//	c.on('exit', (code, sig) => console.log('exit', code, sig, 'killed', c.killed));
//	c.on('close', (code, sig) => { console.log('close', code, sig); console.log('kill after exit', c.kill('SIGKILL')); });
//
// 'exit' and stdout's 'end' race, in node too: 'exit' is logged as "server ..." so that
// looptest.BySide keeps it apart.
func TestRev8SpawnKilledModes(t *testing.T) {
	want := []string{"kill true", "stdout end", "close null SIGTERM", "kill after exit false",
		"server exit null SIGTERM killed true"}
	var ref []string
	for _, m := range looptest.Modes {
		t.Run(m.Name, func(t *testing.T) {
			fds := openFds()
			l, ok := m.New(t)
			if !ok {
				t.Skip(m.Name + ": not available")
			}
			var got []string
			out := func(s string) { got = append(got, s) }
			c, err := nodechild.Spawn(l, "sleep", []string{"10"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.Stdout.OnEnd(func() { out("stdout end") })
			c.On("spawn", func(...any) { out(fmt.Sprint("kill ", c.Kill(""))) })
			c.On("exit", func(a ...any) { out("server exit " + str(a[0]) + " " + str(a[1]) + fmt.Sprint(" killed ", c.Killed)) })
			c.On("close", func(a ...any) {
				out("close " + str(a[0]) + " " + str(a[1]))
				out(fmt.Sprint("kill after exit ", c.Kill("SIGKILL")))
			})
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				t.Fatal(err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			if n := openFds(); n != fds {
				t.Errorf("%d fds open, %d before", n, fds)
			}
			looptest.Compare(t, m, got, want, &ref)
		})
	}
}
