package nodeprocess_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodeprocess"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// processScenario runs main as a Process's main script (nodeprocess.Process.Run) on every
// mode and compares what it logs, then "status N", with want: the twin's lines (node -e)
// and its exit status.
func processScenario(t *testing.T, want []string, main func(p *nodeprocess.Process, log func(args ...any))) {
	t.Helper()
	looptest.Logged(t, want, func(t *testing.T, l *uvloop.Loop, log func(args ...any)) {
		var stderr bytes.Buffer
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("stderr:\n%s", stderr.String())
			}
		})
		p := nodeprocess.New(l, nodeprocess.WithStderr(&stderr))
		log("status", p.Run(func() { main(p, log) }))
	})
}

// message is what the twins print of a thrown value: an error's message, else the value.
func message(v any) string {
	if err, ok := v.(error); ok {
		return err.Error()
	}
	return fmt.Sprint(v)
}

const tickThrowsJS = `
const log = (...a) => console.log(a.join(' '));
process.on('uncaughtException', (e, origin) => log('caught', e.message, origin));
process.on('exit', c => log('exit', c));
setImmediate(() => {
  log('imm 1');
  process.nextTick(() => { log('t1'); throw new Error('x'); });
  process.nextTick(() => log('t2'));
  Promise.resolve().then(() => log('m1'));
  queueMicrotask(() => { log('qm1'); throw new Error('qm'); });
  queueMicrotask(() => log('qm2'));
});
setImmediate(() => { log('imm 2'); process.nextTick(() => log('t3')); });
setImmediate(() => log('imm 3'));
process.nextTick(() => { log('main tick'); throw new Error('main'); });
process.nextTick(() => log('main tick 2'));
Promise.resolve().then(() => log('main m'));
log('main');
`

// TestRev10pTickThrows pins what runs after a nextTick callback throws, and after a
// queueMicrotask callback throws, with an 'uncaughtException' listener: in the main script
// the rest of its ticks and microtasks; after an immediate, the rest of the immediates'
// batch first, then the queues after the next one; a throwing microtask lets the next one
// run. Against node's, in every mode.
func TestRev10pTickThrows(t *testing.T) {
	want := append(looptest.NodeLines(t, tickThrowsJS), "status 0")
	processScenario(t, want, func(p *nodeprocess.Process, log func(...any)) {
		l := p.Loop()
		p.OnUncaughtException(func(e any, origin string) { log("caught", message(e), origin) })
		p.OnExit(func(c int) { log("exit", c) })
		l.SetImmediate(func() {
			log("imm 1")
			l.NextTick(func() { log("t1"); panic(errors.New("x")) })
			l.NextTick(func() { log("t2") })
			promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { log("m1"); return nil, nil }, nil)
			l.QueueMicrotask(func() { log("qm1"); panic(errors.New("qm")) })
			l.QueueMicrotask(func() { log("qm2") })
		})
		l.SetImmediate(func() { log("imm 2"); l.NextTick(func() { log("t3") }) })
		l.SetImmediate(func() { log("imm 3") })
		l.NextTick(func() { log("main tick"); panic(errors.New("main")) })
		l.NextTick(func() { log("main tick 2") })
		promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { log("main m"); return nil, nil }, nil)
		log("main")
	})
}

const mainThrowsJS = `
const log = (...a) => console.log(a.join(' '));
process.on('uncaughtException', (e, origin) => log('caught', e.message, origin));
process.nextTick(() => log('tick'));
Promise.resolve().then(() => log('m'));
setImmediate(() => log('imm'));
throw new Error('main');
`

// TestRev10pMainThrows pins a main script that throws with an 'uncaughtException'
// listener: its ticks and microtasks run right after the listener, before the loop's first
// callback, against node's, in every mode.
func TestRev10pMainThrows(t *testing.T) {
	want := append(looptest.NodeLines(t, mainThrowsJS), "status 0")
	processScenario(t, want, func(p *nodeprocess.Process, log func(...any)) {
		l := p.Loop()
		p.OnUncaughtException(func(e any, origin string) { log("caught", message(e), origin) })
		l.NextTick(func() { log("tick") })
		promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { log("m"); return nil, nil }, nil)
		l.SetImmediate(func() { log("imm") })
		panic(errors.New("main"))
	})
}

const mainQueuesThrowJS = `
const log = (...a) => console.log(a.join(' '));
process.on('uncaughtException', (e, origin) => log('caught', e.message, origin));
process.nextTick(() => log('tick'));
Promise.resolve().then(() => { log('m'); process.nextTick(() => { log('tick from m'); throw new Error('t'); }); Promise.resolve().then(() => log('m2')); });
process.nextTick(() => log('tick 2'));
queueMicrotask(() => { log('qm'); throw new Error('q'); });
queueMicrotask(() => { log('qm 2'); process.nextTick(() => log('tick from qm 2')); });
setImmediate(() => log('imm'));
`

// TestRev10pMainQueuesThrow pins a main script whose microtask and tick throw, with an
// 'uncaughtException' listener: what is left of its queues runs before the loop's first
// callback, against node's, in every mode.
func TestRev10pMainQueuesThrow(t *testing.T) {
	want := append(looptest.NodeLines(t, mainQueuesThrowJS), "status 0")
	processScenario(t, want, func(p *nodeprocess.Process, log func(...any)) {
		l := p.Loop()
		then := func(f func()) {
			promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { f(); return nil, nil }, nil)
		}
		p.OnUncaughtException(func(e any, origin string) { log("caught", message(e), origin) })
		l.NextTick(func() { log("tick") })
		then(func() {
			log("m")
			l.NextTick(func() { log("tick from m"); panic(errors.New("t")) })
			then(func() { log("m2") })
		})
		l.NextTick(func() { log("tick 2") })
		l.QueueMicrotask(func() { log("qm"); panic(errors.New("q")) })
		l.QueueMicrotask(func() { log("qm 2"); l.NextTick(func() { log("tick from qm 2") }) })
		l.SetImmediate(func() { log("imm") })
	})
}

const beforeExitThrowsJS = `
const log = (...a) => console.log(a.join(' '));
process.on('uncaughtException', (e, origin) => log('caught', e.message, origin));
let n = 0;
process.on('beforeExit', () => { if (n++) return; log('beforeExit');
  process.nextTick(() => { log('tick'); throw new Error('t'); });
  process.nextTick(() => log('tick 2'));
  Promise.resolve().then(() => log('m'));
  setImmediate(() => log('imm'));
});
`

// TestRev10pBeforeExitTickThrows pins a tick of a 'beforeExit' listener that throws: the
// rest of the listener's ticks and microtasks run before the loop's next callback, against
// node's, in every mode.
func TestRev10pBeforeExitTickThrows(t *testing.T) {
	want := append(looptest.NodeLines(t, beforeExitThrowsJS), "status 0")
	processScenario(t, want, func(p *nodeprocess.Process, log func(...any)) {
		l := p.Loop()
		p.OnUncaughtException(func(e any, origin string) { log("caught", message(e), origin) })
		n := 0
		p.OnBeforeExit(func(int) {
			if n++; n > 1 {
				return
			}
			log("beforeExit")
			l.NextTick(func() { log("tick"); panic(errors.New("t")) })
			l.NextTick(func() { log("tick 2") })
			promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { log("m"); return nil, nil }, nil)
			l.SetImmediate(func() { log("imm") })
		})
	})
}

const timeoutThrowsJS = `
const log = (...a) => console.log(a.join(' '));
process.on('uncaughtException', (e, origin) => log('caught', e.message, origin));
setTimeout(() => {
  log('timeout');
  setImmediate(() => log('imm'));
  process.nextTick(() => log('tick'));
  Promise.resolve().then(() => log('m'));
  throw new Error('t');
}, 0);
`

// TestRev10pTimeoutThrowsBeforeImmediate pins a timeout that queues an immediate, a tick and
// a microtask and throws: with no other timeout due, its tick and microtask run before the
// immediate (node's check phase begins with a callback scope that drains them), against
// node's, in every mode.
func TestRev10pTimeoutThrowsBeforeImmediate(t *testing.T) {
	want := append(looptest.NodeLines(t, timeoutThrowsJS), "status 0")
	processScenario(t, want, func(p *nodeprocess.Process, log func(...any)) {
		l := p.Loop()
		p.OnUncaughtException(func(e any, origin string) { log("caught", message(e), origin) })
		l.SetTimeout(func() {
			log("timeout")
			l.SetImmediate(func() { log("imm") })
			l.NextTick(func() { log("tick") })
			promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { log("m"); return nil, nil }, nil)
			panic(errors.New("t"))
		}, 0)
	})
}

// spin busies the loop goroutine for 5 ms, as the twins' while loops do, so that a 1 ms
// timeout is due when the loop starts.
func spin() {
	for end := time.Now().Add(5 * time.Millisecond); time.Now().Before(end); {
	}
}

const mainThrowsTimerDueJS = `
const log = (...a) => console.log(a.join(' '));
process.on('uncaughtException', (e, origin) => log('caught', e.message, origin));
setTimeout(() => log('timeout'), 1);
setImmediate(() => log('imm'));
const end = Date.now() + 5; while (Date.now() < end);
process.nextTick(() => log('tick'));
Promise.resolve().then(() => log('m'));
throw new Error('main');
`

// TestRev10pMainThrowsTimerDue pins a main script that throws with a timeout due: its tick
// and microtask run before the timeout (after node's main script the queues drain at once),
// against node's, in every mode.
func TestRev10pMainThrowsTimerDue(t *testing.T) {
	want := append(looptest.NodeLines(t, mainThrowsTimerDueJS), "status 0")
	processScenario(t, want, func(p *nodeprocess.Process, log func(...any)) {
		l := p.Loop()
		p.OnUncaughtException(func(e any, origin string) { log("caught", message(e), origin) })
		l.SetTimeout(func() { log("timeout") }, time.Millisecond)
		l.SetImmediate(func() { log("imm") })
		spin()
		l.NextTick(func() { log("tick") })
		promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { log("m"); return nil, nil }, nil)
		panic(errors.New("main"))
	})
}

const beforeExitThrowsTimerDueJS = `
const log = (...a) => console.log(a.join(' '));
process.on('uncaughtException', (e, origin) => log('caught', e.message, origin));
let n = 0;
process.on('beforeExit', () => { if (n++) return; log('beforeExit');
  setTimeout(() => log('timeout'), 1);
  setImmediate(() => log('imm'));
  const end = Date.now() + 5; while (Date.now() < end);
  process.nextTick(() => log('tick'));
  Promise.resolve().then(() => log('m'));
  throw new Error('b');
});
`

// TestRev10pBeforeExitThrowsTimerDue pins a 'beforeExit' listener that throws with a timeout
// due: unlike after the main script, its tick and microtask wait for the timeout, against
// node's, in every mode.
func TestRev10pBeforeExitThrowsTimerDue(t *testing.T) {
	want := append(looptest.NodeLines(t, beforeExitThrowsTimerDueJS), "status 0")
	processScenario(t, want, func(p *nodeprocess.Process, log func(...any)) {
		l := p.Loop()
		p.OnUncaughtException(func(e any, origin string) { log("caught", message(e), origin) })
		n := 0
		p.OnBeforeExit(func(int) {
			if n++; n > 1 {
				return
			}
			log("beforeExit")
			l.SetTimeout(func() { log("timeout") }, time.Millisecond)
			l.SetImmediate(func() { log("imm") })
			spin()
			l.NextTick(func() { log("tick") })
			promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { log("m"); return nil, nil }, nil)
			panic(errors.New("b"))
		})
	})
}

const ioTickThrowsJS = `
const log = (...a) => console.log(a.join(' '));
process.on('uncaughtException', (e, origin) => log('caught', e.message, origin));
require('fs').stat('.', () => {
  log('io');
  setTimeout(() => log('timeout'), 1);
  const end = Date.now() + 5; while (Date.now() < end);
  process.nextTick(() => { log('tick'); throw new Error('t'); });
  process.nextTick(() => log('tick 2'));
  Promise.resolve().then(() => log('m'));
});
`

// TestRev10pIOTickThrows pins a tick of an I/O callback that throws while a timeout is due:
// the rest of the queues drain in that iteration's check phase, before the next timers
// phase runs the timeout, against node's, in every mode.
func TestRev10pIOTickThrows(t *testing.T) {
	want := append(looptest.NodeLines(t, ioTickThrowsJS), "status 0")
	processScenario(t, want, func(p *nodeprocess.Process, log func(...any)) {
		l := p.Loop()
		p.OnUncaughtException(func(e any, origin string) { log("caught", message(e), origin) })
		err := l.FSStat(new(uvloop.FSReq), ".", func(*uvloop.FSReq) {
			log("io")
			l.SetTimeout(func() { log("timeout") }, time.Millisecond)
			spin()
			l.NextTick(func() { log("tick"); panic(errors.New("t")) })
			l.NextTick(func() { log("tick 2") })
			promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { log("m"); return nil, nil }, nil)
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

const immediateThrowsJS = `
const log = (...a) => console.log(a.join(' '));
process.on('uncaughtException', (e, origin) => log('caught', e.message, origin));
require('fs').stat('.', () => {
  log('io');
  setTimeout(() => log('timeout'), 1);
  setImmediate(() => { log('i1'); process.nextTick(() => log('tick')); throw new Error('i'); });
  setImmediate(() => { log('i2'); setImmediate(() => log('i3')); });
  const end = Date.now() + 5; while (Date.now() < end);
});
`

// TestRev10pImmediateThrows pins an immediate that throws while a timeout is due: the rest
// of its batch, then its tick, then the timeout, then the next batch, against node's, in
// every mode.
func TestRev10pImmediateThrows(t *testing.T) {
	want := append(looptest.NodeLines(t, immediateThrowsJS), "status 0")
	processScenario(t, want, func(p *nodeprocess.Process, log func(...any)) {
		l := p.Loop()
		p.OnUncaughtException(func(e any, origin string) { log("caught", message(e), origin) })
		err := l.FSStat(new(uvloop.FSReq), ".", func(*uvloop.FSReq) {
			log("io")
			l.SetTimeout(func() { log("timeout") }, time.Millisecond)
			l.SetImmediate(func() { log("i1"); l.NextTick(func() { log("tick") }); panic(errors.New("i")) })
			l.SetImmediate(func() { log("i2"); l.SetImmediate(func() { log("i3") }) })
			spin()
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

const ticksThrowTwiceJS = `
const log = (...a) => console.log(a.join(' '));
process.on('uncaughtException', (e, o) => log('caught', e.message, o));
process.nextTick(() => { throw new Error('A'); });
process.nextTick(() => { throw new Error('B'); });
process.nextTick(() => { log('t3'); setImmediate(() => log('imm from t3')); });
setImmediate(() => log('imm'));
setImmediate(() => log('imm2'));
`

// TestRev10pTicksThrowTwice pins two ticks of a main script that throw: the second throws
// in the drain that opens the check phase, whose immediates then run first, the first of
// them before the tick left, against node's, in every mode.
func TestRev10pTicksThrowTwice(t *testing.T) {
	want := append(looptest.NodeLines(t, ticksThrowTwiceJS), "status 0")
	processScenario(t, want, func(p *nodeprocess.Process, log func(...any)) {
		l := p.Loop()
		p.OnUncaughtException(func(e any, origin string) { log("caught", message(e), origin) })
		l.NextTick(func() { panic(errors.New("A")) })
		l.NextTick(func() { panic(errors.New("B")) })
		l.NextTick(func() { log("t3"); l.SetImmediate(func() { log("imm from t3") }) })
		l.SetImmediate(func() { log("imm") })
		l.SetImmediate(func() { log("imm2") })
	})
}
