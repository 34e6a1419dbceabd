package promise_test

import (
	"errors"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

const rejectionsJS = `
const log = (...a) => console.log(a.join(' '));
process.on('unhandledRejection', (r, p) => {
  log('unhandled', r.message);
  if (r.message === 'a') {
    process.nextTick(() => log('tick from listener'));
    Promise.resolve().then(() => log('microtask from listener'));
    Promise.reject(new Error('from listener'));
  }
});
process.on('rejectionHandled', p => log('handled', p.tag));
setTimeout(() => {
  const a = Promise.reject(new Error('a')); a.tag = 'a';
  process.nextTick(() => log('tick'));
  Promise.resolve().then(() => log('m1'));
  setImmediate(() => { log('immediate'); a.catch(() => log('a caught late')); });
  const b = Promise.reject(new Error('b'));
  Promise.resolve().then(() => b.catch(() => log('b caught in microtask')));
  const c = Promise.reject(new Error('c'));
  process.nextTick(() => c.catch(() => log('c caught in tick')));
  Promise.resolve().then(() => { Promise.reject(new Error('d')); process.nextTick(() => log('tick from m')); });
  const e = Promise.reject(new Error('e')); e.tag = 'e';
  setTimeout(() => log('timeout'), 0);
  setTimeout(() => { e.then(null, () => log('e caught in timeout')); log('timeout 2'); }, 0);
  log('sync');
}, 0);
`

// TestRev10pRejectionEvents pins when the rejection hook sees Unhandled and Handled events
// against node's 'unhandledRejection' and 'rejectionHandled', in every mode: after the
// ticks and microtasks of the callback, a handler added in a tick or a microtask in time, a
// rejection in a microtask, handlers added in a later immediate or timeout, and a listener
// that queues a tick and a microtask and rejects another promise (node reports that one
// after the listener's tick and microtask, in the next round of its drain).
func TestRev10pRejectionEvents(t *testing.T) {
	want := looptest.NodeLines(t, rejectionsJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		catch := func(p *promise.Promise[int], msg string) {
			p.Catch(func(error) (int, error) { log(msg); return 0, nil })
		}
		var a, e *promise.Promise[int]
		tag := func(p promise.AnyPromise) string {
			switch p {
			case promise.AnyPromise(a):
				return "a"
			case promise.AnyPromise(e):
				return "e"
			}
			return "?"
		}
		promise.SetRejectionHook(l, func(ev promise.RejectionEvent) {
			if ev.Kind == promise.Handled {
				log("handled", tag(ev.Promise))
				return
			}
			log("unhandled", ev.Reason.Error())
			if ev.Reason.Error() == "a" {
				l.NextTick(func() { log("tick from listener") })
				promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { log("microtask from listener"); return nil, nil }, nil)
				promise.Reject[int](l, errors.New("from listener"))
			}
		})
		a = promise.Reject[int](l, errors.New("a"))
		l.NextTick(func() { log("tick") })
		promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { log("m1"); return nil, nil }, nil)
		l.SetImmediate(func() { log("immediate"); catch(a, "a caught late") })
		b := promise.Reject[int](l, errors.New("b"))
		promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) { catch(b, "b caught in microtask"); return nil, nil }, nil)
		c := promise.Reject[int](l, errors.New("c"))
		l.NextTick(func() { catch(c, "c caught in tick") })
		promise.Then(promise.Resolve[any](l, nil), func(any) (any, error) {
			promise.Reject[int](l, errors.New("d"))
			l.NextTick(func() { log("tick from m") })
			return nil, nil
		}, nil)
		e = promise.Reject[int](l, errors.New("e"))
		l.SetTimeout(func() { log("timeout") }, 0)
		l.SetTimeout(func() {
			promise.Then(e, nil, func(error) (int, error) { log("e caught in timeout"); return 0, nil })
			log("timeout 2")
		}, 0)
		log("sync")
	})
}
