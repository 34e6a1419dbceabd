package nodechild_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodechild"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// netErr is what a scenario logs of a stream error: message, code, syscall.
func netErr(err error) string {
	var e *nodenet.Error
	if !errors.As(err, &e) {
		return fmt.Sprint(err)
	}
	return e.Message + " " + e.Code + " " + e.Syscall
}

// A write to the stdin of a child that closed it: the write returns false, its callback
// gets EPIPE, then stdin's 'error' ("write EPIPE", syscall write), then its 'close', as
// node v20 prints them; the child, killed from the error listener, ends with SIGKILL.
func TestRev9SpawnStdinEPIPE(t *testing.T) {
	js := `const {spawn} = require('child_process');
const out = console.log;
const c = spawn('sh', ['-c', 'exec 0<&-; echo closed; exec sleep 10']);
c.stdin.on('error', e => { out('stdin error', e.message, e.code, e.syscall); out('kill', c.kill('SIGKILL')); });
c.stdin.on('close', () => out('stdin close'));
c.stdout.on('data', d => {
  out('data', String(d).trim());
  out('write', c.stdin.write('x\n', err => out('write cb', err && err.code)));
});
c.on('exit', (a, b) => out('exit', a, b));
c.on('close', (a, b) => out('close', a, b));
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		c, err := nodechild.Spawn(l, "sh", []string{"-c", "exec 0<&-; echo closed; exec sleep 10"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.Stdin.OnError(func(err error) { out("stdin error %s", netErr(err)); out("kill %v", c.Kill("SIGKILL")) })
		c.Stdin.OnClose(func(bool) { out("stdin close") })
		c.Stdout.OnData(func(d []byte) {
			out("data %s", strings.TrimSpace(string(d)))
			out("write %v", c.Stdin.WriteString("x\n", func(err error) {
				code := "undefined"
				if err != nil {
					code = err.(*nodenet.Error).Code
				}
				out("write cb %s", code)
			}))
		})
		c.On("exit", func(a ...any) { out("exit %s %s", str(a[0]), str(a[1])) })
		c.On("close", func(a ...any) { out("close %s %s", str(a[0]), str(a[1])) })
	})
}

// A child that exits while a grandchild (sleep in the background) holds its stdout: 'exit'
// comes, 'close' waits for the pipe, which ends when the grandchild is killed; node v20
// prints the same.
func TestRev9SpawnGrandchildHoldsStdout(t *testing.T) {
	js := `const {spawn} = require('child_process');
const out = console.log;
const c = spawn('sh', ['-c', 'sleep 30 & echo $!']);
let pid = null, exited = false;
const maybe = () => { if (pid && exited) { out('killing grandchild'); process.kill(pid, 'SIGTERM'); } };
c.stdout.on('data', d => { pid = +String(d).trim(); maybe(); });
c.stdout.on('end', () => out('stdout end'));
c.on('exit', (a, b) => { out('exit', a, b); exited = true; maybe(); });
c.on('close', (a, b) => out('close', a, b));
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		c, err := nodechild.Spawn(l, "sh", []string{"-c", "sleep 30 & echo $!"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		pid, exited := 0, false
		maybe := func() {
			if pid != 0 && exited {
				out("killing grandchild")
				if err := uvloop.Kill(pid, syscall.SIGTERM); err != nil {
					t.Error(err)
				}
			}
		}
		c.Stdout.OnData(func(d []byte) { pid, _ = strconv.Atoi(strings.TrimSpace(string(d))); maybe() })
		c.Stdout.OnEnd(func() { out("stdout end") })
		c.On("exit", func(a ...any) { out("exit %s %s", str(a[0]), str(a[1])); exited = true; maybe() })
		c.On("close", func(a ...any) { out("close %s %s", str(a[0]), str(a[1])) })
	})
}

// stdio ['ignore', 'pipe', 'inherit', 'pipe']: no stdin or stderr stream, four stdio
// entries, fd 3 a pipe the child writes, as node v20 prints. The child's fds (ls -l
// /proc/self/fd on fd 3) hold no descriptor of the loop: no epoll, io_uring or eventfd
// instance, and no socket but its fd 3 (and fd 1, which the redirect made fd 3's).
func TestRev9SpawnStdioKinds(t *testing.T) {
	js := `const {spawn} = require('child_process');
const out = console.log;
const c = spawn('sh', ['-c', 'echo out; ls -l /proc/self/fd >&3'], {stdio: ['ignore', 'pipe', 'inherit', 'pipe']});
out('stdin', c.stdin, 'stderr', c.stderr, 'len', c.stdio.length, 'stdio0', c.stdio[0], 'stdio2', c.stdio[2]);
let fd3 = '';
c.stdio[3].on('data', d => fd3 += d);
c.stdout.on('data', d => out('fd1', JSON.stringify(String(d))));
c.on('close', (a, b) => { out('fd3 has fd 3', /\b3 -> socket:/.test(fd3)); out('close', a, b); });
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		c, err := nodechild.Spawn(l, "sh", []string{"-c", `echo out; ls -l /proc/self/fd >&3`},
			&nodechild.SpawnOptions{Stdio: []string{"ignore", "pipe", "inherit", "pipe"}})
		if err != nil {
			t.Fatal(err)
		}
		null := func(s *nodenet.Socket) string {
			if s == nil {
				return "null"
			}
			return "a socket"
		}
		out("stdin %s stderr %s len %d stdio0 %s stdio2 %s", null(c.Stdin), null(c.Stderr), len(c.Stdio), null(c.Stdio[0]), null(c.Stdio[2]))
		var fd3 strings.Builder
		c.Stdio[3].OnData(func(d []byte) { fd3.Write(d) })
		c.Stdout.OnData(func(d []byte) { out("fd1 %q", d) })
		c.On("close", func(a ...any) {
			ls := fd3.String()
			out("fd3 has fd 3 %v", strings.Contains(ls, " 3 -> socket:"))
			for _, line := range strings.Split(ls, "\n") {
				if strings.Contains(line, "anon_inode") || strings.Contains(line, "socket:") &&
					!strings.Contains(line, " 1 -> ") && !strings.Contains(line, " 3 -> ") {
					t.Errorf("the child inherited %q", line)
				}
			}
			out("close %s %s", str(a[0]), str(a[1]))
		})
	})
}

// kill's results: kill(0) probes and counts as a kill (killed true), an unknown name
// throws ERR_UNKNOWN_SIGNAL, SIGKILL from 'spawn' is delivered (signalCode still null),
// a kill after 'exit' returns false; as node v20 prints.
func TestRev9SpawnKillResults(t *testing.T) {
	js := `const {spawn} = require('child_process');
const out = console.log;
const c = spawn('sleep', ['10']);
out('kill0', c.kill(0), 'killed', c.killed);
try { c.kill('SIGFOO'); } catch (e) { out('throw', e.code, e.message); }
c.on('exit', (a, b) => out('exit', a, b, 'kill after exit', c.kill(), 'killed', c.killed));
c.on('close', (a, b) => out('close', a, b));
c.on('spawn', () => out('kill9', c.kill('SIGKILL'), 'killed', c.killed, 'signalCode', c.signalCode));
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		c, err := nodechild.Spawn(l, "sleep", []string{"10"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		out("kill0 %v killed %v", c.Kill("0"), c.Killed)
		func() {
			defer func() {
				e := recover().(*nodechild.Error)
				out("throw %s %s", e.Code, e.Message)
			}()
			c.Kill("SIGFOO")
		}()
		c.On("exit", func(a ...any) {
			out("exit %s %s kill after exit %v killed %v", str(a[0]), str(a[1]), c.Kill(""), c.Killed)
		})
		c.On("close", func(a ...any) { out("close %s %s", str(a[0]), str(a[1])) })
		c.On("spawn", func(...any) {
			sc := "null"
			if c.SignalCode != "" {
				sc = c.SignalCode
			}
			out("kill9 %v killed %v signalCode %s", c.Kill("SIGKILL"), c.Killed, sc)
		})
	})
}

// 4 MiB through cat: written to stdin in one write (false: more than highWaterMark), ended;
// every byte comes back on stdout; stdin finishes and closes before stdout ends, and
// 'close' has the count; as node v20 prints.
func TestRev9SpawnLargeRoundTrip(t *testing.T) {
	js := `const {spawn} = require('child_process');
const out = console.log;
const c = spawn('cat');
let n = 0;
out('write', c.stdin.write(Buffer.alloc(4 << 20, 'x'), e => out('write cb', e)));
c.stdin.end(() => out('end cb'));
c.stdin.on('finish', () => out('stdin finish'));
c.stdin.on('close', () => out('stdin close'));
c.stdout.on('data', d => { n += d.length; });
c.stdout.on('end', () => out('stdout end', n));
c.on('close', (a, b) => out('close', a, b, n));
`
	want := nodeLines(t, js)
	big := []byte(strings.Repeat("x", 4<<20))
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		c, err := nodechild.Spawn(l, "cat", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		out("write %v", c.Stdin.Write(big, func(err error) {
			if err != nil {
				out("write cb %v", err)
				return
			}
			out("write cb null")
		}))
		c.Stdin.End(nil)
		c.Stdin.OnFinish(func() { out("end cb") })
		c.Stdin.OnFinish(func() { out("stdin finish") })
		c.Stdin.OnClose(func(bool) { out("stdin close") })
		c.Stdout.OnData(func(d []byte) { n += len(d) })
		c.Stdout.OnEnd(func() { out("stdout end %d", n) })
		c.On("close", func(a ...any) { out("close %s %s %d", str(a[0]), str(a[1]), n) })
	})
}

// A write to a child's stdin once it has exited: 'exit' destroyed stdin (Node's onexit), so
// the write returns false and calls back with ERR_STREAM_DESTROYED before a tick queued
// after it, with no 'error'; stdin's 'close' follows; as node v20. The child's 'close'
// races with them in node too (stdout may have ended before 'exit'): it is logged apart.
func TestRev9SpawnStdinWriteAfterExit(t *testing.T) {
	js := `const {spawn} = require('child_process');
const out = console.log;
const c = spawn('true');
c.stdin.on('error', e => out('stdin error', e.code));
c.stdin.on('close', () => out('stdin close'));
c.on('exit', (a, b) => {
  out('exit', a, b, 'destroyed', c.stdin.destroyed, 'writable', c.stdin.writable);
  out('write', c.stdin.write('x', e => out('write cb', e && e.code, e && e.message)));
  process.nextTick(() => out('tick'));
});
c.on('close', (a, b) => out('server close', a, b));
`
	want := looptest.BySide(nodeLines(t, js))
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		c, err := nodechild.Spawn(l, "true", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.Stdin.OnError(func(err error) { out("stdin error %s", netErr(err)) })
		c.Stdin.OnClose(func(bool) { out("stdin close") })
		c.On("exit", func(a ...any) {
			out("exit %s %s destroyed %v writable %v", str(a[0]), str(a[1]), c.Stdin.Destroyed(), c.Stdin.Writable())
			out("write %v", c.Stdin.WriteString("x", func(err error) {
				var e *nodenet.Error
				if errors.As(err, &e) {
					out("write cb %s %s", e.Code, e.Message)
				} else {
					out("write cb %v", err)
				}
			}))
			l.NextTick(func() { out("tick") })
		})
		c.On("close", func(a ...any) { out("server close %s %s", str(a[0]), str(a[1])) })
	})
}

// stdio 'ignore': libuv opens /dev/null read-only for the child's fd 0 and read-write for
// its fds 1 and 2, so a write to fd 0 fails (EBADF: "I/O error" from sh's echo, status 1)
// and fd 2 takes writes; as node v20. Before the fix uvgo gave fd 0 a read-write /dev/null.
func TestRev9SpawnIgnoredStdinReadOnly(t *testing.T) {
	js := `const {spawn} = require('child_process');
const c = spawn('sh', ['-c', 'echo x >&0; echo status $?; echo y >&2; echo status $?'], {stdio: ['ignore', 'pipe', 'ignore']});
let s = '';
c.stdout.on('data', d => s += d);
c.on('close', code => console.log(JSON.stringify(s), code));
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		c, err := nodechild.Spawn(l, "sh", []string{"-c", "echo x >&0; echo status $?; echo y >&2; echo status $?"},
			&nodechild.SpawnOptions{Stdio: []string{"ignore", "pipe", "ignore"}})
		if err != nil {
			t.Fatal(err)
		}
		var s strings.Builder
		c.Stdout.OnData(func(d []byte) { s.Write(d) })
		c.OnClose(func(code *int, _ string) { out("%s %d", jsonString(s.String()), *code) })
	})
}

// jsonString is JSON.stringify of a string of printable ASCII and newlines.
func jsonString(s string) string { return `"` + strings.ReplaceAll(s, "\n", `\n`) + `"` }

// subprocess.kill takes the signal's name in any case (Node's convertToValidSignal
// upper-cases it): 'sigterm' and 'SIGterm' are SIGTERM; as node v20. Before the fix uvgo
// panicked with ERR_UNKNOWN_SIGNAL.
func TestRev9SpawnKillSignalNameCase(t *testing.T) {
	js := `const {spawn} = require('child_process');
const c = spawn('sleep', ['10']);
console.log('kill', c.kill('sigterm'), c.killed);
c.on('exit', (a, b) => {
  console.log('exit', a, b);
  const d = spawn('sleep', ['10']);
  d.on('exit', (a, b) => console.log('exit', a, b));
  console.log('kill', d.kill('SIGterm'));
});
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		kill := func(c *nodechild.ChildProcess, sig string) (ok bool) {
			defer func() {
				if e := recover(); e != nil {
					out("kill %s panicked: %v", sig, e)
					c.Kill("SIGKILL")
				}
			}()
			return c.Kill(sig)
		}
		c, err := nodechild.Spawn(l, "sleep", []string{"10"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		out("kill %v %v", kill(c, "sigterm"), c.Killed)
		c.On("exit", func(a ...any) {
			out("exit %s %s", str(a[0]), str(a[1]))
			d, err := nodechild.Spawn(l, "sleep", []string{"10"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			d.On("exit", func(a ...any) { out("exit %s %s", str(a[0]), str(a[1])) })
			out("kill %v", kill(d, "SIGterm"))
		})
	})
}

// A 'pipe' beyond fd 2 is duplex, as Node's (process_wrap gives every stdio pipe
// UV_READABLE_PIPE | UV_WRITABLE_PIPE, and its socket is readable and writable): the parent
// writes to the child's fd 3 and reads its answer there; as node v20. Before the fix
// uvgo's fd 3 socket was read-only and the write failed.
func TestRev9SpawnExtraPipeDuplex(t *testing.T) {
	js := `const {spawn} = require('child_process');
const c = spawn('sh', ['-c', 'read x <&3; echo got $x >&3'], {stdio: ['ignore', 'ignore', 'ignore', 'pipe']});
const s = c.stdio[3];
console.log('readable', s.readable, 'writable', s.writable);
s.write('hello\n', e => console.log('write cb', e));
s.on('data', d => console.log('data', JSON.stringify(String(d))));
c.on('close', code => console.log('close', code));
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		c, err := nodechild.Spawn(l, "sh", []string{"-c", "read x <&3; echo got $x >&3"},
			&nodechild.SpawnOptions{Stdio: []string{"ignore", "ignore", "ignore", "pipe"}})
		if err != nil {
			t.Fatal(err)
		}
		s := c.Stdio[3]
		out("readable %v writable %v", s.Readable(), s.Writable())
		s.WriteString("hello\n", func(err error) {
			if err != nil {
				out("write cb %v", err)
				return
			}
			out("write cb null")
		})
		s.OnData(func(d []byte) { out("data %s", jsonString(string(d))) })
		c.OnClose(func(code *int, _ string) { out("close %d", *code) })
	})
}

// The signal that ended a child, by its name as Node's signo_string gives it (6 SIGABRT,
// 29 SIGIO); a real-time signal has no name there, so Node reports the exit as code 0 and
// no signal. Before the fix uvgo reported both as null for a real-time signal.
func TestRev9SpawnExitSignalNames(t *testing.T) {
	js := `const {spawn} = require('child_process');
const sigs = [6, 29, 34, 64];
(function next() {
  const s = sigs.shift();
  if (s === undefined) return;
  const c = spawn('sh', ['-c', 'kill -' + s + ' $$']);
  c.on('exit', (a, b) => { console.log(s, a, b, c.exitCode, c.signalCode); next(); });
})();
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		sigs := []int{6, 29, 34, 64}
		var next func()
		next = func() {
			if len(sigs) == 0 {
				return
			}
			s := sigs[0]
			sigs = sigs[1:]
			c, err := nodechild.Spawn(l, "sh", []string{"-c", fmt.Sprintf("kill -%d $$", s)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.On("exit", func(a ...any) {
				code, sig := "null", "null"
				if c.ExitCode != nil {
					code = fmt.Sprint(*c.ExitCode)
				}
				if c.SignalCode != "" {
					sig = c.SignalCode
				}
				out("%d %s %s %s %s", s, str(a[0]), str(a[1]), code, sig)
				next()
			})
		}
		next()
	})
}
