package nodechild_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/uvgo/uvgo/nodechild"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/uvloop"
)

func abortText(err error) string {
	var ae *nodeevents.AbortError
	if !errors.As(err, &ae) {
		return fmt.Sprintf("not an AbortError: %v", err)
	}
	return ae.WarningName() + " " + ae.Code() + " " + ae.Error() + " / " + ae.Cause.Error()
}

func exitText(code *int, sig string) string {
	if code == nil {
		return "null " + sig
	}
	return fmt.Sprint(*code, " ", sig)
}

// spawn's signal option, aborted once the child runs: the kill and the "error" happen
// inside Abort, "exit" and "close" follow (node v20 prints the same lines).
func TestAbortSpawn(t *testing.T) {
	got := run(t, func(l *uvloop.Loop, out func(string)) {
		ac := nodeevents.NewAbortController()
		c, err := nodechild.Spawn(l, "sleep", []string{"10"}, &nodechild.SpawnOptions{Signal: ac.Signal()})
		if err != nil {
			t.Fatal(err)
		}
		c.OnError(func(err error) { out("error " + abortText(err)) })
		c.OnExit(func(code *int, sig string) { out(fmt.Sprint("exit ", exitText(code, sig), " ", c.Killed)) })
		c.OnClose(func(code *int, sig string) { out("close " + exitText(code, sig)) })
		c.On("spawn", func(...any) {
			out("spawned")
			ac.Abort(errors.New("stop"))
			out(fmt.Sprint("after abort ", c.Killed))
		})
	})
	check(t, got,
		"spawned",
		"error AbortError ABORT_ERR The operation was aborted / stop",
		"after abort true",
		"exit null SIGTERM true",
		"close null SIGTERM")
}

// A signal aborted already: "spawn", then the kill and "error" on the next tick.
func TestAbortSpawnPreAborted(t *testing.T) {
	got := run(t, func(l *uvloop.Loop, out func(string)) {
		c, err := nodechild.Spawn(l, "sleep", []string{"10"}, &nodechild.SpawnOptions{Signal: nodeevents.AbortSignalAbort()})
		if err != nil {
			t.Fatal(err)
		}
		c.On("spawn", func(...any) { out("spawn") })
		c.OnError(func(err error) { out("error " + abortText(err)) })
		c.OnExit(func(code *int, sig string) { out("exit " + exitText(code, sig)) })
		c.OnClose(func(code *int, sig string) { out("close " + exitText(code, sig)) })
		l.NextTick(func() { out("tick") })
	})
	check(t, got,
		"spawn",
		"error AbortError ABORT_ERR The operation was aborted / This operation was aborted",
		"tick",
		"exit null SIGTERM",
		"close null SIGTERM")
}

// exec's signal: the callback gets the AbortError itself and no output, before the
// child's "exit"; as in Node, the abort sends SIGTERM, not KillSignal (SIGKILL here).
func TestAbortExec(t *testing.T) {
	got := run(t, func(l *uvloop.Loop, out func(string)) {
		ac := nodeevents.NewAbortController()
		c, err := nodechild.Exec(l, "sleep 10", &nodechild.ExecOptions{Signal: ac.Signal(), KillSignal: "SIGKILL"},
			func(err error, stdout, stderr string) {
				out(fmt.Sprintf("cb %s %q %q", abortText(err), stdout, stderr))
			})
		if err != nil {
			t.Fatal(err)
		}
		c.OnError(func(err error) { out("error " + abortText(err)) })
		c.OnExit(func(code *int, sig string) { out("exit " + exitText(code, sig)) })
		c.On("spawn", func(...any) { ac.Abort() })
	})
	check(t, got,
		`cb AbortError ABORT_ERR The operation was aborted / This operation was aborted "" ""`,
		"error AbortError ABORT_ERR The operation was aborted / This operation was aborted",
		"exit null SIGTERM")
}

// A signal never aborted changes nothing, and its listener is gone after "exit".
func TestAbortExecFileNotAborted(t *testing.T) {
	ac := nodeevents.NewAbortController()
	got := run(t, func(l *uvloop.Loop, out func(string)) {
		nodechild.ExecFile(l, "echo", []string{"hi"}, &nodechild.ExecOptions{Signal: ac.Signal()},
			func(err error, stdout, _ string) { out(fmt.Sprintf("cb %v %q", err, stdout)) })
	})
	check(t, got, `cb <nil> "hi\n"`)
	if n := ac.Signal().ListenerCount("abort"); n != 0 {
		t.Errorf("%d abort listeners left", n)
	}
	ac.Abort()
}
