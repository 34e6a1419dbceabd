package nodechild_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodechild"
	"github.com/uvgo/uvgo/uvloop"
)

// execText is what a scenario logs of exec's callback: the error's fields that Node sets
// and the lengths of the output.
func execText(name string, err error, stdout, stderr string) string {
	var e *nodechild.ExecError
	if !errors.As(err, &e) {
		return fmt.Sprintf("%s err=%v stdout=%d stderr=%d", name, err, len(stdout), len(stderr))
	}
	return fmt.Sprintf("%s code=%v killed=%v signal=%q message=%q stdout=%d stderr=%d",
		name, e.Code, e.Killed, e.Signal, e.Message, len(stdout), len(stderr))
}

// exec's maxBuffer against a child that ignores the kill signal and writes forever (on
// stdout, then on stderr): Node's kill() destroys the child's stdout and stderr before it
// signals, so the child's next write fails (EPIPE, or SIGPIPE) and it ends; the callback
// gets ERR_CHILD_PROCESS_STDIO_MAXBUFFER and maxBuffer bytes. Before the fix uvgo kept
// reading the pipes, the child never ended and the loop never did either (the watchdog
// stopped it after 20 s); the guard here fails the test every 5 s and ends the children.
func TestRev9ExecMaxBufferKillDestroysStdio(t *testing.T) {
	js := `const {exec} = require('child_process');
function text(name, e, so, se) {
  return name + ' code=' + e.code + ' killed=' + (e.killed || false) + ' signal="' + (e.signal || '') +
    '" message=' + JSON.stringify(e.message) + ' stdout=' + so.length + ' stderr=' + se.length;
}
exec("trap '' TERM; yes", {maxBuffer: 1000}, (e, so, se) => {
  console.log(text('stdout', e, so, se));
  exec("trap '' TERM; yes >&2", {maxBuffer: 1000}, (e, so, se) => console.log(text('stderr', e, so, se)));
});
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		var kids []*nodechild.ChildProcess
		guard := l.SetInterval(func() {
			t.Error("exec's callback did not come in 5 s")
			for _, c := range kids { // let the loop end: what the fix does, then SIGKILL
				c.Stdout.Destroy(nil)
				c.Stderr.Destroy(nil)
				c.Kill("SIGKILL")
			}
		}, 5*time.Second)
		guard.Unref()
		c, err := nodechild.Exec(l, "trap '' TERM; yes", &nodechild.ExecOptions{MaxBuffer: 1000}, func(err error, so, se string) {
			out("%s", execText("stdout", err, so, se))
			c, err := nodechild.Exec(l, "trap '' TERM; yes >&2", &nodechild.ExecOptions{MaxBuffer: 1000}, func(err error, so, se string) {
				out("%s", execText("stderr", err, so, se))
			})
			if err != nil {
				t.Fatal(err)
			}
			kids = append(kids, c)
		})
		if err != nil {
			t.Fatal(err)
		}
		kids = append(kids, c)
	})
}

// exec's maxBuffer counts bytes but, with the default utf8 encoding, cuts the chunk that
// crosses it as a string: maxBuffer - (bytes before it) UTF-16 units of its text, so the
// output ends on a whole character and may hold more bytes than maxBuffer (11 units of
// "aéaé..." are 16 bytes; 8 units of emoji, two each, are 16 bytes), as node v20 gives it.
// Before the fix uvgo cut 11 bytes, in the middle of an "é", and 8 bytes of emoji.
func TestRev9ExecMaxBufferCutsCharacters(t *testing.T) {
	const out1 = `printf 'a\303\251%.0s' $(seq 1 100)`
	const err2 = `printf '\360\237\230\200%.0s' $(seq 1 10) >&2`
	js := `const {exec} = require('child_process');
exec(String.raw` + "`" + out1 + "`" + `, {maxBuffer: 11}, (e, so, se) => {
  console.log(e.code, JSON.stringify(so), Buffer.byteLength(so));
  exec(String.raw` + "`" + err2 + "`" + `, {maxBuffer: 8}, (e, so, se) => console.log(e.code, JSON.stringify(se), Buffer.byteLength(se)));
});
`
	want := nodeLines(t, js)
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		_, err := nodechild.Exec(l, out1, &nodechild.ExecOptions{MaxBuffer: 11}, func(err error, so, se string) {
			out("%v %s %d", err.(*nodechild.ExecError).Code, quote(so), len(so))
			if _, err := nodechild.Exec(l, err2, &nodechild.ExecOptions{MaxBuffer: 8}, func(err error, so, se string) {
				out("%v %s %d", err.(*nodechild.ExecError).Code, quote(se), len(se))
			}); err != nil {
				t.Fatal(err)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// An unknown killSignal is refused at once, as Node's sanitizeKillSignal throws from
// exec, execFile and spawn (ERR_UNKNOWN_SIGNAL, the name as given), and a known one in any
// case is taken. Before the fix uvgo accepted it and panicked later, in the timeout's kill
// (an uncaught exception in a timer).
func TestRev9KillSignalValidated(t *testing.T) {
	js := `const {spawn, exec, execFile} = require('child_process');
const show = (name, f) => { try { const c = f(); console.log(name, 'ok'); c.kill('SIGKILL'); } catch (e) { console.log(name, e.code, e.message); } };
show('exec', () => exec('sleep 10', {killSignal: 'SIGFOO'}, () => {}));
show('execFile', () => execFile('sleep', ['10'], {killSignal: 'sigfoo'}, () => {}));
show('spawn', () => spawn('sleep', ['10'], {killSignal: 'SIGFOO'}));
show('spawn lower', () => spawn('sleep', ['10'], {killSignal: 'sigkill'}));
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		show := func(name string, c *nodechild.ChildProcess, err error) {
			if err != nil {
				e := err.(*nodechild.Error)
				out("%s %s %s", name, e.Code, e.Message)
				return
			}
			out("%s ok", name)
			c.Kill("SIGKILL")
		}
		c, err := nodechild.Exec(l, "sleep 10", &nodechild.ExecOptions{KillSignal: "SIGFOO"}, func(error, string, string) {})
		show("exec", c, err)
		c, err = nodechild.ExecFile(l, "sleep", []string{"10"}, &nodechild.ExecOptions{KillSignal: "sigfoo"}, func(error, string, string) {})
		show("execFile", c, err)
		c, err = nodechild.Spawn(l, "sleep", []string{"10"}, &nodechild.SpawnOptions{KillSignal: "SIGFOO"})
		show("spawn", c, err)
		c, err = nodechild.Spawn(l, "sleep", []string{"10"}, &nodechild.SpawnOptions{KillSignal: "sigkill"})
		show("spawn lower", c, err)
	})
}
