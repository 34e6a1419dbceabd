package nodeprocess

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Each case is a Node v20 script ported line for line; want is what node printed to
// stdout, status its exit status (both recorded by running the script in node).
type processCase struct {
	name   string
	script string // the Node script, for the reader
	main   func(p *Process, out func(...any))
	want   string
	status int
	stderr string // a substring of stderr, if not empty
}

func str(v any) string {
	if v == nil {
		return "undefined"
	}
	return fmt.Sprint(v)
}

func exitCodeString(p *Process) string {
	if c, ok := p.ExitCode(); ok {
		return fmt.Sprint(c)
	}
	return "undefined"
}

var processCases = []processCase{
	{
		name: "beforeExit again, exit with exitCode, ticks in exit never run, microtasks do",
		script: `process.on('beforeExit', (c) => { console.log('beforeExit', c, process.exitCode); if (!n) { n = 1;
  setTimeout(() => console.log('timeout from beforeExit'), 1); process.nextTick(() => console.log('tick from beforeExit')); } });
process.on('exit', (c) => { console.log('exit', c, process.exitCode); process.nextTick(() => console.log('never'));
  setTimeout(() => console.log('never2')); Promise.resolve().then(() => console.log('micro in exit')); });
process.exitCode = 3; console.log('main');`,
		main: func(p *Process, out func(...any)) {
			l := p.Loop()
			n := 0
			p.OnBeforeExit(func(c int) {
				out("beforeExit", c, exitCodeString(p))
				if n == 0 {
					n = 1
					l.SetTimeout(func() { out("timeout from beforeExit") }, time.Millisecond)
					l.NextTick(func() { out("tick from beforeExit") })
				}
			})
			p.OnExit(func(c int) {
				out("exit", c, exitCodeString(p))
				l.NextTick(func() { out("never") })
				l.SetTimeout(func() { out("never2") }, 0)
				promise.Then(promise.Resolve(l, 0), func(int) (int, error) { out("micro in exit"); return 0, nil }, nil)
			})
			p.SetExitCode(3)
			out("main")
		},
		want:   "main\nbeforeExit 3 3\ntick from beforeExit\ntimeout from beforeExit\nbeforeExit 3 3\nexit 3 3\nmicro in exit\n",
		status: 3,
	},
	{
		name: "fatal exception: exit with 1, an exit listener sets the status, no beforeExit",
		script: `process.on('exit', (c) => { console.log('exit', c, process.exitCode); process.exitCode = 9; });
process.on('beforeExit', (c) => console.log('beforeExit', c));
setTimeout(() => { throw new Error('boom'); }, 1); console.log('main');`,
		main: func(p *Process, out func(...any)) {
			p.OnExit(func(c int) { out("exit", c, exitCodeString(p)); p.SetExitCode(9) })
			p.OnBeforeExit(func(c int) { out("beforeExit", c) })
			p.Loop().SetTimeout(func() { panic(errors.New("boom")) }, time.Millisecond)
			out("main")
		},
		want:   "main\nexit 1 1\n",
		status: 9,
		stderr: "Error: boom\n    at ",
	},
	{
		name: "uncaughtException: ticks, timers, immediates and a rejection go on in Node's order",
		script: `process.on('uncaughtException', (err, origin) => { console.log('uE', err.message, origin, process.exitCode); });
setTimeout(() => { console.log('t1'); process.nextTick(() => console.log('tick after throw'));
  Promise.resolve().then(() => console.log('micro after throw')); throw new Error('boom'); }, 1);
setTimeout(() => { console.log('t2'); }, 1);
setImmediate(() => { console.log('im1'); throw new Error('imboom'); }); setImmediate(() => { console.log('im2'); });
process.nextTick(() => { console.log('tick1'); throw new Error('tickboom'); }); process.nextTick(() => { console.log('tick2'); });
Promise.reject(new Error('rej')); console.log('main');`,
		main: func(p *Process, out func(...any)) {
			l := p.Loop()
			p.OnExit(func(c int) { out("exit", c, exitCodeString(p)) })
			p.OnBeforeExit(func(c int) { out("beforeExit", c) })
			p.OnUncaughtException(func(err any, origin string) { out("uE", err, origin, exitCodeString(p)) })
			l.SetTimeout(func() {
				out("t1")
				l.NextTick(func() { out("tick after throw") })
				promise.Then(promise.Resolve(l, 0), func(int) (int, error) { out("micro after throw"); return 0, nil }, nil)
				panic(errors.New("boom"))
			}, time.Millisecond)
			l.SetTimeout(func() { out("t2") }, time.Millisecond)
			l.SetImmediate(func() { out("im1"); panic(errors.New("imboom")) })
			l.SetImmediate(func() { out("im2") })
			l.NextTick(func() { out("tick1"); panic(errors.New("tickboom")) })
			l.NextTick(func() { out("tick2") })
			promise.Reject[int](l, errors.New("rej"))
			busy(2 * time.Millisecond) // Node's start-up makes the 1 ms timeouts due
			out("main")
		},
		want: "main\ntick1\nuE tickboom uncaughtException undefined\nt1\nuE boom uncaughtException undefined\nt2\n" +
			"tick2\ntick after throw\nmicro after throw\nuE rej unhandledRejection undefined\nim1\n" +
			"uE imboom uncaughtException undefined\nim2\nbeforeExit 0\nexit 0 undefined\n",
	},
	{
		name: "a panicking microtask: the rest of the microtasks and the ticks run before the next timeout",
		script: `process.on('uncaughtException', (err, origin) => { console.log('uE', err.message, origin);
  process.nextTick(() => console.log('tick from uE ' + err.message)); Promise.resolve().then(() => console.log('micro from uE ' + err.message)); });
setTimeout(() => { console.log('t1'); queueMicrotask(() => { console.log('m1'); throw new Error('m1'); });
  queueMicrotask(() => { console.log('m2'); process.nextTick(() => console.log('tick from m2')) }); process.nextTick(() => console.log('tick1')); }, 0);
setTimeout(() => { console.log('t2'); }, 0); setImmediate(() => console.log('im')); console.log('main');`,
		main: func(p *Process, out func(...any)) {
			l := p.Loop()
			p.OnUncaughtException(func(err any, origin string) {
				out("uE", err, origin)
				l.NextTick(func() { out("tick from uE", err) })
				l.QueueMicrotask(func() { out("micro from uE", err) })
			})
			l.SetTimeout(func() {
				out("t1")
				l.QueueMicrotask(func() { out("m1"); panic(errors.New("m1")) })
				l.QueueMicrotask(func() { out("m2"); l.NextTick(func() { out("tick from m2") }) })
				l.NextTick(func() { out("tick1") })
			}, 0)
			l.SetTimeout(func() { out("t2") }, 0)
			l.SetImmediate(func() { out("im") })
			busy(2 * time.Millisecond) // Node's start-up makes the 1 ms timeouts due
			out("main")
		},
		want: "main\nt1\ntick1\nm1\nuE m1 uncaughtException\nm2\nmicro from uE m1\ntick from uE m1\ntick from m2\nt2\nim\n",
	},
	{
		name: "a throwing tick in the main script: the next tick waits for the no-op immediate",
		script: `process.on('uncaughtException', (err, origin) => { console.log('uE', err.message, origin); });
process.nextTick(() => { console.log('tick1'); throw new Error('tick1'); }); process.nextTick(() => { console.log('tick2'); });
setTimeout(() => { console.log('t 50'); }, 50); console.log('main');`,
		main: func(p *Process, out func(...any)) {
			l := p.Loop()
			p.OnUncaughtException(func(err any, origin string) { out("uE", err, origin) })
			l.NextTick(func() { out("tick1"); panic(errors.New("tick1")) })
			l.NextTick(func() { out("tick2") })
			l.SetTimeout(func() { out("t 50") }, 50*time.Millisecond)
			out("main")
		},
		want: "main\ntick1\nuE tick1 uncaughtException\ntick2\nt 50\n",
	},
	{
		name: "unhandledRejection and rejectionHandled listeners",
		script: `process.on('unhandledRejection', (r, p) => { console.log('uR', r.message, p instanceof Promise);
  setTimeout(() => { p.catch(() => console.log('caught late')); }, 1); });
process.on('rejectionHandled', (p) => console.log('rH', p instanceof Promise));
const p = Promise.reject(new Error('x')); console.log('main');`,
		main: func(p *Process, out func(...any)) {
			l := p.Loop()
			p.OnExit(func(c int) { out("exit", c, exitCodeString(p)) })
			p.OnWarning(func(w error) { out("warning event:", w) })
			p.OnUnhandledRejection(func(r error, pr promise.AnyPromise) {
				out("uR", r, pr != nil)
				l.SetTimeout(func() {
					pr.(*promise.Promise[int]).Catch(func(error) (int, error) { out("caught late"); return 0, nil })
				}, time.Millisecond)
			})
			p.OnRejectionHandled(func(pr promise.AnyPromise) { out("rH", pr != nil) })
			promise.Reject[int](l, errors.New("x"))
			out("main")
		},
		want: "main\nuR x true\ncaught late\nrH true\nexit 0 undefined\n",
	},
	{
		name: "a rejection handled late with no rejectionHandled listener is a warning",
		script: `process.on('warning', (w) => { console.log('warning event:', w.name, w.message); });
process.on('unhandledRejection', (r, p) => { console.log('uR', r.message); setTimeout(() => { p.catch(() => console.log('caught late')); }, 1); });
const p = Promise.reject(new Error('x')); console.log('main');`,
		main: func(p *Process, out func(...any)) {
			l := p.Loop()
			p.OnExit(func(c int) { out("exit", c, exitCodeString(p)) })
			p.OnWarning(func(w error) { out("warning event:", w.(*Warning).Name, w) })
			p.OnUnhandledRejection(func(r error, pr promise.AnyPromise) {
				out("uR", r)
				l.SetTimeout(func() {
					pr.(*promise.Promise[int]).Catch(func(error) (int, error) { out("caught late"); return 0, nil })
				}, time.Millisecond)
			})
			promise.Reject[int](l, errors.New("x"))
			out("main")
		},
		want: "main\nuR x\ncaught late\nwarning event: PromiseRejectionHandledWarning Promise rejection was handled asynchronously (rejection id: 1)\n" +
			"exit 0 undefined\n",
		stderr: "PromiseRejectionHandledWarning: Promise rejection was handled asynchronously (rejection id: 1)\n",
	},
	{
		name: "a panicking uncaughtException listener: status 7, no exit",
		script: `process.on('exit', (c) => { console.log('exit', c, process.exitCode); });
process.on('uncaughtException', (e, o) => { console.log('uE', e.message, o); throw new Error('again'); });
setTimeout(() => { throw new Error('first'); }, 1);`,
		main: func(p *Process, out func(...any)) {
			p.OnExit(func(c int) { out("exit", c, exitCodeString(p)) })
			p.OnUncaughtException(func(err any, origin string) { out("uE", err, origin); panic(errors.New("again")) })
			p.Loop().SetTimeout(func() { panic(errors.New("first")) }, time.Millisecond)
		},
		want:   "uE first uncaughtException\n",
		status: 7,
		stderr: "Error: again",
	},
	{
		name: "a panicking exit listener: the later ones do not run, status 1 with no exit code",
		script: `process.on('exit', (c) => { console.log('exit', c, process.exitCode); throw new Error('in exit'); });
process.on('exit', (c) => { console.log('exit2'); }); console.log('main');`,
		main: func(p *Process, out func(...any)) {
			p.OnExit(func(c int) { out("exit", c, exitCodeString(p)); panic(errors.New("in exit")) })
			p.OnExit(func(c int) { out("exit2") })
			out("main")
		},
		want:   "main\nexit 0 undefined\n",
		status: 1,
		stderr: "Error: in exit",
	},
	{
		name:   "a panicking exit listener keeps a set exit code",
		script: `process.exitCode = 5; process.on('exit', (c) => { console.log('exit', c); throw new Error('in exit'); });`,
		main: func(p *Process, out func(...any)) {
			p.SetExitCode(5)
			p.OnExit(func(c int) { out("exit", c); panic(errors.New("in exit")) })
		},
		want:   "exit 5\n",
		status: 5,
	},
	{
		name: "a panicking beforeExit listener is fatal",
		script: `process.on('exit', (c) => { console.log('exit', c, process.exitCode); });
process.on('beforeExit', (c) => { console.log('beforeExit', c); throw new Error('in beforeExit'); });`,
		main: func(p *Process, out func(...any)) {
			p.OnExit(func(c int) { out("exit", c, exitCodeString(p)) })
			p.OnBeforeExit(func(c int) { out("beforeExit", c); panic(errors.New("in beforeExit")) })
		},
		want:   "beforeExit 0\nexit 1 1\n",
		status: 1,
	},
	{
		name: "process.exit in a timeout, and again in an exit listener",
		script: `process.on('exit', (c) => { console.log('exit', c, process.exitCode); process.exit(4); console.log('after exit in exit'); });
setTimeout(() => { console.log('t'); process.nextTick(() => console.log('tick')); process.exit(); console.log('not reached'); }, 1);
setTimeout(() => { console.log('t2'); }, 1); process.exitCode = 2;`,
		main: func(p *Process, out func(...any)) {
			l := p.Loop()
			p.OnExit(func(c int) { out("exit", c, exitCodeString(p)); p.Exit(4); out("after exit in exit") })
			l.SetTimeout(func() {
				out("t")
				l.NextTick(func() { out("tick") })
				p.Exit()
				out("not reached")
			}, time.Millisecond)
			l.SetTimeout(func() { out("t2") }, time.Millisecond)
			p.SetExitCode(2)
		},
		want:   "t\nexit 2 2\n",
		status: 4,
	},
	{
		name: "an unhandled rejection of a non-error: the monitor sees ERR_UNHANDLED_REJECTION, fatal",
		script: `process.on('exit', (c) => { console.log('exit', c, process.exitCode); });
process.on('uncaughtExceptionMonitor', (e, o) => console.log('monitor', e.message, o)); Promise.reject(42);`,
		main: func(p *Process, out func(...any)) {
			p.OnExit(func(c int) { out("exit", c, exitCodeString(p)) })
			p.On("uncaughtExceptionMonitor", func(a ...any) { out("monitor", a[0], a[1]) })
			promise.Reject[int](p.Loop(), promise.Reason(42))
		},
		want: "monitor This error originated either by throwing inside of an async function without a catch block, or by " +
			"rejecting a promise which was not handled with .catch(). The promise rejected with the reason \"42\". unhandledRejection\n" +
			"exit 1 1\n",
		status: 1,
		stderr: "UnhandledPromiseRejection: This error originated",
	},
	{
		name: "process.exit from an uncaughtException listener",
		script: `process.on('exit', (c) => { console.log('exit', c); Promise.resolve().then(() => console.log('micro in exit')); });
process.on('uncaughtException', (e) => { console.log('uE', e.message); process.exit(6); });
setTimeout(() => { throw new Error('x'); }, 1);`,
		main: func(p *Process, out func(...any)) {
			l := p.Loop()
			p.OnExit(func(c int) {
				out("exit", c)
				promise.Then(promise.Resolve(l, 0), func(int) (int, error) { out("micro in exit"); return 0, nil }, nil)
			})
			p.OnUncaughtException(func(err any, _ string) { out("uE", err); p.Exit(6) })
			l.SetTimeout(func() { panic(errors.New("x")) }, time.Millisecond)
		},
		want:   "uE x\nexit 6\n",
		status: 6,
	},
	{
		name:   "process.exit in the main script",
		script: `process.on('exit', (c) => console.log('exit', c)); setTimeout(() => console.log('never')); console.log('a'); process.exit(3); console.log('b');`,
		main: func(p *Process, out func(...any)) {
			p.OnExit(func(c int) { out("exit", c) })
			p.Loop().SetTimeout(func() { out("never") }, 0)
			out("a")
			p.Exit(3)
			out("b")
		},
		want:   "a\nexit 3\n",
		status: 3,
	},
	{
		name: "process.exit in a promise handler: nothing else runs",
		script: `process.on('exit', (c) => console.log('exit', c)); setTimeout(() => console.log('never'));
Promise.resolve().then(() => { console.log('then'); process.exit(2); }); queueMicrotask(() => console.log('micro'));`,
		main: func(p *Process, out func(...any)) {
			l := p.Loop()
			p.OnExit(func(c int) { out("exit", c) })
			l.SetTimeout(func() { out("never") }, 0)
			promise.Then(promise.Resolve(l, 0), func(int) (int, error) { out("then"); p.Exit(2); return 0, nil }, nil)
			l.QueueMicrotask(func() { out("micro") })
		},
		want:   "then\nexit 2\n",
		status: 2,
	},
}

func busy(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}

func TestProcessCases(t *testing.T) {
	for _, tc := range processCases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			out := func(a ...any) {
				for i, v := range a {
					if i > 0 {
						stdout.WriteByte(' ')
					}
					stdout.WriteString(str(v))
				}
				stdout.WriteByte('\n')
			}
			status, err := Run(func(p *Process) { tc.main(p, out) }, WithStderr(&stderr))
			if err != nil {
				t.Fatal(err)
			}
			if got := stdout.String(); got != tc.want {
				t.Errorf("stdout:\n%s\nwant:\n%s", got, tc.want)
			}
			if status != tc.status {
				t.Errorf("status %d, want %d", status, tc.status)
			}
			if tc.stderr != "" && !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), tc.stderr)
			}
			if t.Failed() {
				t.Logf("stderr:\n%s", stderr.String())
			}
		})
	}
}

var _ = uvloop.RunDefault
