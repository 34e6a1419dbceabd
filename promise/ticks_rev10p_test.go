package promise_test

import (
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// mainScenario is looptest.MainScenario: main runs before Run, as node's main script runs
// before its loop, on every mode.
func mainScenario(t *testing.T, want []string, main func(l *uvloop.Loop, log func(args ...any))) {
	t.Helper()
	looptest.MainScenario(t, want, main)
}

// then logs msg in a reaction to a fulfilled promise: Promise.resolve().then(...).
func thenLog(l *uvloop.Loop, f func()) {
	promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { f(); return nil, nil }, nil)
}

const mainTimersJS = `
const log = (...a) => console.log(a.join(' '));
setTimeout(() => log('t0'), 0);
setTimeout(() => { log('t1'); process.nextTick(() => log('tick from t1')); Promise.resolve().then(() => log('m from t1')); }, 1);
setTimeout(() => log('t0b'), 0);
process.nextTick(() => { log('tick1'); Promise.resolve().then(() => log('m from tick1')); process.nextTick(() => log('tick from tick1')); });
Promise.resolve().then(() => { log('m1'); process.nextTick(() => { log('tick from m1'); queueMicrotask(() => log('qm from tick from m1')); }); queueMicrotask(() => log('qm from m1')); });
queueMicrotask(() => log('qm'));
process.nextTick(() => log('tick2'));
log('main');
`

// TestRev10pMainTimers pins a main script's ticks, microtasks (promise reactions and
// queueMicrotask share one queue) and timeouts of 0 and 1 ms (one list, in creation order)
// against node's, in every mode.
func TestRev10pMainTimers(t *testing.T) {
	want := looptest.NodeLines(t, mainTimersJS)
	mainScenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		l.SetTimeout(func() { log("t0") }, 0)
		l.SetTimeout(func() {
			log("t1")
			l.NextTick(func() { log("tick from t1") })
			thenLog(l, func() { log("m from t1") })
		}, time.Millisecond)
		l.SetTimeout(func() { log("t0b") }, 0)
		l.NextTick(func() {
			log("tick1")
			thenLog(l, func() { log("m from tick1") })
			l.NextTick(func() { log("tick from tick1") })
		})
		thenLog(l, func() {
			log("m1")
			l.NextTick(func() { log("tick from m1"); l.QueueMicrotask(func() { log("qm from tick from m1") }) })
			l.QueueMicrotask(func() { log("qm from m1") })
		})
		l.QueueMicrotask(func() { log("qm") })
		l.NextTick(func() { log("tick2") })
		log("main")
	})
}

const mainImmediatesJS = `
const log = (...a) => console.log(a.join(' '));
setImmediate(() => { log('imm1'); process.nextTick(() => log('tick from imm1')); Promise.resolve().then(() => log('m from imm1')); setImmediate(() => log('imm from imm1')); });
setImmediate(() => { log('imm2'); queueMicrotask(() => { log('qm from imm2'); process.nextTick(() => log('tick from qm')); }); });
process.nextTick(() => { log('tick1'); setImmediate(() => log('imm from tick')); });
Promise.resolve().then(() => { log('m1'); setImmediate(() => log('imm from m1')); });
log('main');
`

// TestRev10pMainImmediates pins a main script's immediates, and those queued by its tick, its
// microtask and an immediate (the next iteration's), with the ticks and microtasks after
// each immediate, against node's, in every mode.
func TestRev10pMainImmediates(t *testing.T) {
	want := looptest.NodeLines(t, mainImmediatesJS)
	mainScenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		l.SetImmediate(func() {
			log("imm1")
			l.NextTick(func() { log("tick from imm1") })
			thenLog(l, func() { log("m from imm1") })
			l.SetImmediate(func() { log("imm from imm1") })
		})
		l.SetImmediate(func() {
			log("imm2")
			l.QueueMicrotask(func() { log("qm from imm2"); l.NextTick(func() { log("tick from qm") }) })
		})
		l.NextTick(func() { log("tick1"); l.SetImmediate(func() { log("imm from tick") }) })
		thenLog(l, func() { log("m1"); l.SetImmediate(func() { log("imm from m1") }) })
		log("main")
	})
}

const ioTimersJS = `
const log = (...a) => console.log(a.join(' '));
require('fs').stat('.', () => {
  log('io');
  setTimeout(() => log('t0'), 0);
  setTimeout(() => log('t1'), 1);
  setImmediate(() => { log('imm'); setTimeout(() => log('t0 from imm'), 0); process.nextTick(() => log('tick from imm')); });
  setImmediate(() => log('imm2'));
  process.nextTick(() => log('tick'));
  Promise.resolve().then(() => log('m'));
  queueMicrotask(() => log('qm'));
});
`

// TestRev10pIOTimers pins what an I/O callback (an fs stat's) queues: its tick and
// microtasks, then the immediates (the check phase comes before the next timers phase),
// then the timeouts of 0 and 1 ms and the one an immediate set, against node's, in every
// mode.
func TestRev10pIOTimers(t *testing.T) {
	want := looptest.NodeLines(t, ioTimersJS)
	mainScenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		err := l.FSStat(new(uvloop.FSReq), ".", func(*uvloop.FSReq) {
			log("io")
			l.SetTimeout(func() { log("t0") }, 0)
			l.SetTimeout(func() { log("t1") }, time.Millisecond)
			l.SetImmediate(func() {
				log("imm")
				l.SetTimeout(func() { log("t0 from imm") }, 0)
				l.NextTick(func() { log("tick from imm") })
			})
			l.SetImmediate(func() { log("imm2") })
			l.NextTick(func() { log("tick") })
			thenLog(l, func() { log("m") })
			l.QueueMicrotask(func() { log("qm") })
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

const timerImmediateJS = `
const log = (...a) => console.log(a.join(' '));
setTimeout(() => {
  log('timer');
  setTimeout(() => log('t0 from timer'), 0);
  setImmediate(() => { log('imm from timer'); process.nextTick(() => log('tick from imm')); });
  process.nextTick(() => { log('tick from timer'); Promise.resolve().then(() => log('m from tick')); });
  Promise.resolve().then(() => { log('m from timer'); process.nextTick(() => log('tick from m')); });
}, 0);
`

// TestRev10pTimerImmediate pins what a timeout queues: its ticks and microtasks in node's
// order, then its immediate (and the immediate's tick) before the timeout it set, against
// node's, in every mode.
func TestRev10pTimerImmediate(t *testing.T) {
	want := looptest.NodeLines(t, timerImmediateJS)
	mainScenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		l.SetTimeout(func() {
			log("timer")
			l.SetTimeout(func() { log("t0 from timer") }, 0)
			l.SetImmediate(func() { log("imm from timer"); l.NextTick(func() { log("tick from imm") }) })
			l.NextTick(func() { log("tick from timer"); thenLog(l, func() { log("m from tick") }) })
			thenLog(l, func() { log("m from timer"); l.NextTick(func() { log("tick from m") }) })
		}, 0)
	})
}

const clearImmediateJS = `
const log = (...a) => console.log(a.join(' '));
setTimeout(() => {
  let i2, i3, i5;
  setImmediate(() => {
    log('i1');
    clearImmediate(i2);
    i5 = setImmediate(() => log('i5 never'));
    process.nextTick(() => { log('tick i1'); clearImmediate(i3); });
    Promise.resolve().then(() => { log('m i1'); clearImmediate(i5); setImmediate(() => log('i6 from m')); });
  });
  i2 = setImmediate(() => log('i2 never'));
  i3 = setImmediate(() => log('i3 never'));
  const i4 = setImmediate(() => { log('i4'); clearImmediate(i4); });
  setImmediate(() => log('i7 unref')).unref();
  process.nextTick(() => log('tick'));
  log('sync');
}, 0);
`

// TestRev10pClearImmediate pins ClearImmediate of immediates later in the running batch
// (from the callback, its tick and its microtask), of one queued for the next batch, of
// itself, and an unref'd immediate in a batch that runs anyway, against node's, in every
// mode.
func TestRev10pClearImmediate(t *testing.T) {
	want := looptest.NodeLines(t, clearImmediateJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		var i2, i3, i4, i5 *uvloop.Immediate
		l.SetImmediate(func() {
			log("i1")
			l.ClearImmediate(i2)
			i5 = l.SetImmediate(func() { log("i5 never") })
			l.NextTick(func() { log("tick i1"); l.ClearImmediate(i3) })
			thenLog(l, func() { log("m i1"); l.ClearImmediate(i5); l.SetImmediate(func() { log("i6 from m") }) })
		})
		i2 = l.SetImmediate(func() { log("i2 never") })
		i3 = l.SetImmediate(func() { log("i3 never") })
		i4 = l.SetImmediate(func() { log("i4"); l.ClearImmediate(i4) })
		l.SetImmediate(func() { log("i7 unref") }).Unref()
		l.NextTick(func() { log("tick") })
		log("sync")
	})
}
