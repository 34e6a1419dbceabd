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

const unhandledWhichJS = `
const log = (...a) => console.log(a.join(' '));
process.on('unhandledRejection', (r, p) => log('unhandled', r.message));
process.on('rejectionHandled', p => log('handled', p.tag));
setTimeout(() => {
  const e = (m) => Promise.reject(new Error(m));
  e('then without onRejected').then(() => {});
  Promise.all([e('all input')]);
  Promise.race([new Promise(() => {}), e('race 1'), e('race 2')]);
  (async () => { await e('await'); })();
  e('finally').finally(() => {});
  new Promise(r => r(e('adopted')));
  Promise.any([e('any 1'), e('any 2')]).catch(err => log('any caught', err.errors.length));
  Promise.allSettled([e('allSettled')]).then(v => log('allSettled', v.length));
  const late = e('late'); late.tag = 'late';
  setImmediate(() => { late.then(() => {}).catch(() => log('late caught')); });
  Promise.resolve().then(() => { throw new Error('handler throws'); });
  (async () => { throw new Error('async throws'); })();
  e('caught twice').catch(() => {}).catch(() => {});
  log('sync');
}, 0);
`

// TestRev10pUnhandledWhich pins which promises are reported unhandled, and in which order:
// the derived promise of a Then with no onRejected, of All, Race, an async body awaiting a
// rejection, Finally and a promise adopting a rejected one, not their inputs; a handler's
// and an async body's error; none for Any, AllSettled or a caught chain; a late handler on
// a derived promise counts for the original, against node's, in every mode.
func TestRev10pUnhandledWhich(t *testing.T) {
	want := looptest.NodeLines(t, unhandledWhichJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		var late *promise.Promise[int]
		promise.SetRejectionHook(l, func(ev promise.RejectionEvent) {
			if ev.Kind == promise.Handled {
				if ev.Promise == promise.AnyPromise(late) {
					log("handled", "late")
				} else {
					log("handled", "?")
				}
				return
			}
			log("unhandled", ev.Reason.Error())
		})
		e := func(m string) *promise.Promise[int] { return promise.Reject[int](l, errors.New(m)) }
		nop := func(int) (int, error) { return 0, nil }
		promise.Then(e("then without onRejected"), nop, nil)
		promise.All(l, e("all input"))
		never, _ := promise.WithResolvers[int](l)
		promise.Race(l, never, e("race 1"), e("race 2"))
		promise.Async(l, func() (int, error) { return promise.Await(e("await")) })
		e("finally").Finally(func() promise.AnyPromise { return nil })
		promise.NewAdopting(l, func(resolve func(promise.Thenable[int]), _ func(error)) { resolve(e("adopted")) })
		promise.Any(l, e("any 1"), e("any 2")).Catch(func(err error) (int, error) {
			var ae *promise.AggregateError
			errors.As(err, &ae)
			log("any caught", len(ae.Errors))
			return 0, nil
		})
		promise.Then(promise.AllSettled(l, e("allSettled")), func(v []promise.Settlement[int]) (any, error) { log("allSettled", len(v)); return nil, nil }, nil)
		late = e("late")
		l.SetImmediate(func() {
			promise.Then(late, nop, nil).Catch(func(error) (int, error) { log("late caught"); return 0, nil })
		})
		promise.Then(promise.Resolve(l, 0), func(int) (int, error) { return 0, errors.New("handler throws") }, nil)
		promise.Async(l, func() (int, error) { return 0, errors.New("async throws") })
		e("caught twice").Catch(nop2).Catch(nop2)
		log("sync")
	})
}

func nop2(error) (int, error) { return 0, nil }

const listenerHandlesJS = `
const log = (...a) => console.log(a.join(' '));
process.on('unhandledRejection', (r, p) => {
  log('unhandled', r.message);
  p.catch(() => log('caught by listener'));
  process.nextTick(() => log('tick from listener'));
});
process.on('rejectionHandled', p => log('handled', p.tag));
setTimeout(() => {
  const a = Promise.reject(new Error('a')); a.tag = 'a';
  const b = Promise.reject(new Error('b')); b.tag = 'b';
  log('sync');
}, 0);
`

// TestRev10pListenerHandles pins a hook that handles the promise it is told about: the
// Handled event follows in the next round of the drain, after the hook's ticks and the
// handlers' microtasks, against node's, in every mode.
func TestRev10pListenerHandles(t *testing.T) {
	want := looptest.NodeLines(t, listenerHandlesJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		var a, b *promise.Promise[int]
		promise.SetRejectionHook(l, func(ev promise.RejectionEvent) {
			p := ev.Promise.(*promise.Promise[int])
			if ev.Kind == promise.Handled {
				tag := map[*promise.Promise[int]]string{a: "a", b: "b"}[p]
				log("handled", tag)
				return
			}
			log("unhandled", ev.Reason.Error())
			p.Catch(func(error) (int, error) { log("caught by listener"); return 0, nil })
			l.NextTick(func() { log("tick from listener") })
		})
		a = promise.Reject[int](l, errors.New("a"))
		b = promise.Reject[int](l, errors.New("b"))
		log("sync")
	})
}
