package nodeprocess_test

import (
	"errors"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodeprocess"
	"github.com/uvgo/uvgo/promise"
)

const handledWarningJS = `
const log = (...a) => console.log(a.join(' '));
process.on('warning', w => log('warning', w.name, w.message));
process.on('unhandledRejection', (r) => log('unhandled', r.message));
process.on('exit', c => log('exit', c));
const a = Promise.reject(new Error('a'));
setTimeout(() => {
  a.catch(() => log('caught'));
  process.nextTick(() => log('tick'));
  Promise.resolve().then(() => log('m'));
  setImmediate(() => log('imm'));
}, 1);
`

// TestRev10pHandledWarningEvent pins a rejection of the main script handled in a timeout,
// with an 'unhandledRejection' listener and none of 'rejectionHandled': the
// PromiseRejectionHandledWarning reaches 'warning' listeners from a tick queued by the
// checkpoint, after the timeout's ticks and microtasks, against node's, in every mode.
func TestRev10pHandledWarningEvent(t *testing.T) {
	want := append(looptest.NodeLines(t, handledWarningJS), "status 0")
	processScenario(t, want, func(p *nodeprocess.Process, log func(...any)) {
		l := p.Loop()
		p.OnWarning(func(w error) {
			log("warning", nodeevents.WarningName(w), w.Error())
		})
		p.OnUnhandledRejection(func(r error, _ promise.AnyPromise) { log("unhandled", r.Error()) })
		p.OnExit(func(c int) { log("exit", c) })
		a := promise.Reject[int](l, errors.New("a"))
		l.SetTimeout(func() {
			a.Catch(func(error) (int, error) { log("caught"); return 0, nil })
			l.NextTick(func() { log("tick") })
			promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { log("m"); return nil, nil }, nil)
			l.SetImmediate(func() { log("imm") })
		}, time.Millisecond)
	})
}

const beforeExitRejectsJS = `
const log = (...a) => console.log(a.join(' '));
let n = 0;
process.on('beforeExit', (c) => { log('beforeExit', c); if (n++) return; Promise.reject(new Error('late')); process.nextTick(() => log('tick')); });
process.on('exit', c => log('exit', c));
process.on('uncaughtException', (e, o) => log('caught', e.message, o));
Promise.reject(new Error('main'));
log('main');
`

// TestRev10pBeforeExitRejects pins unhandled rejections of the main script and of a
// 'beforeExit' listener with an 'uncaughtException' listener: each is reported (origin
// unhandledRejection) after the ticks, and 'beforeExit' comes again, against node's, in
// every mode.
func TestRev10pBeforeExitRejects(t *testing.T) {
	want := append(looptest.NodeLines(t, beforeExitRejectsJS), "status 0")
	processScenario(t, want, func(p *nodeprocess.Process, log func(...any)) {
		l := p.Loop()
		n := 0
		p.OnBeforeExit(func(c int) {
			log("beforeExit", c)
			if n++; n > 1 {
				return
			}
			promise.Reject[int](l, errors.New("late"))
			l.NextTick(func() { log("tick") })
		})
		p.OnExit(func(c int) { log("exit", c) })
		p.OnUncaughtException(func(e any, origin string) { log("caught", message(e), origin) })
		promise.Reject[int](l, errors.New("main"))
		log("main")
	})
}
