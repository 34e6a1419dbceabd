package promise_test

import (
	"errors"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

const asyncJS = `
const log = (...a) => console.log(a.join(' '));
setTimeout(() => {
  (async () => { for (let i = 0; i < 3; i++) { await Promise.resolve(i); log('loop', i); } })();
  (async () => { log('throw start'); throw new Error('sync throw'); })().catch(e => log('caught', e.message));
  (async () => { await null; throw new Error('late throw'); })().catch(e => log('caught', e.message));
  (async () => { try { await Promise.reject(new Error('rej')); } catch (e) { log('await rejected', e.message); } })();
  (async () => { const v = await { then(r) { r(3); } }; log('await thenable', v); })();
  (async () => { return Promise.resolve(4); })().then(v => log('async returns native', v));
  (async () => { return await Promise.resolve(5); })().then(v => log('return await', v));
  (async () => { return { then(r) { r(6); } }; })().then(v => log('async returns thenable', v));
  let res; const pend = new Promise(r => { res = r; });
  (async () => { const v = await pend; log('await pending', v); await pend; log('await again'); })();
  const inner = async (n) => { await null; log('inner', n); return n; };
  (async () => { const a = await inner(1); const b = await inner(2); log('outer', a + b); })();
  (async () => { const [x, y] = await Promise.all([inner(3), inner(4)]); log('all inner', x + y); })();
  Promise.resolve().then(() => log('m1')).then(() => { log('m2'); res(7); })
    .then(() => log('m3')).then(() => log('m4')).then(() => log('m5')).then(() => log('m6')).then(() => log('m7')).then(() => log('m8'));
  log('sync');
}, 0);
`

// TestRev10pAsyncAwait pins async bodies against node's turns in every mode: awaits in a
// loop, a body that throws before and after its first await, an await of a rejected
// promise, of a foreign thenable, of a pending promise twice, a body returning a native
// promise, a thenable, or awaiting what it returns, nested bodies and Promise.all of them.
func TestRev10pAsyncAwait(t *testing.T) {
	want := looptest.NodeLines(t, asyncJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		promise.Async(l, func() (any, error) {
			for i := 0; i < 3; i++ {
				promise.Await(promise.Resolve(l, i))
				log("loop", i)
			}
			return nil, nil
		})
		logReason(promise.Async(l, func() (any, error) { log("throw start"); return nil, errors.New("sync throw") }), log, "caught")
		logReason(promise.Async(l, func() (any, error) {
			promise.Await(promise.Resolve[any](l, nil))
			panic(errors.New("late throw"))
		}), log, "caught")
		promise.Async(l, func() (any, error) {
			if _, err := promise.Await(promise.Reject[int](l, errors.New("rej"))); err != nil {
				log("await rejected", err.Error())
			}
			return nil, nil
		})
		promise.Async(l, func() (any, error) {
			v, _ := promise.Await(promise.From[int](l, thenableFunc[int](func(r *promise.Resolvers[int]) { r.Resolve(3) })))
			log("await thenable", v)
			return nil, nil
		})
		logValue(promise.AsyncPromise(l, func() (promise.Thenable[int], error) { return promise.Resolve(l, 4), nil }), log, "async returns native")
		logValue(promise.Async(l, func() (int, error) { return promise.Await(promise.Resolve(l, 5)) }), log, "return await")
		logValue(promise.AsyncPromise(l, func() (promise.Thenable[int], error) {
			return thenableFunc[int](func(r *promise.Resolvers[int]) { r.Resolve(6) }), nil
		}), log, "async returns thenable")
		pend, res := promise.WithResolvers[int](l)
		promise.Async(l, func() (any, error) {
			v, _ := promise.Await(pend)
			log("await pending", v)
			promise.Await(pend)
			log("await again")
			return nil, nil
		})
		inner := func(n int) *promise.Promise[int] {
			return promise.Async(l, func() (int, error) {
				promise.Await(promise.Resolve[any](l, nil))
				log("inner", n)
				return n, nil
			})
		}
		promise.Async(l, func() (any, error) {
			a, _ := promise.Await(inner(1))
			b, _ := promise.Await(inner(2))
			log("outer", a+b)
			return nil, nil
		})
		promise.Async(l, func() (any, error) {
			v, _ := promise.Await(promise.All(l, inner(3), inner(4)))
			log("all inner", v[0]+v[1])
			return nil, nil
		})
		rev10pRuler(l, log, 8, map[int]func(){2: func() { res.Resolve(7) }})
		log("sync")
	})
}

const asyncTicksJS = `
const log = (...a) => console.log(a.join(' '));
setTimeout(() => {
  (async () => {
    await null;
    log('a1');
    process.nextTick(() => log('tick from a'));
    await null;
    log('a2');
    const r = Promise.reject(new Error('r'));
    await null;
    r.catch(() => log('r caught'));
    await Promise.resolve();
    log('a3');
    queueMicrotask(() => log('qm from a'));
    await null;
    log('a4');
  })();
  (async () => { await null; log('b1'); await null; log('b2'); await null; log('b3'); })();
  process.on('unhandledRejection', r => log('unhandled', r.message));
  Promise.resolve().then(() => log('m1')).then(() => log('m2')).then(() => log('m3')).then(() => log('m4')).then(() => log('m5'));
}, 0);
`

// TestRev10pAsyncTicks pins awaits of settled promises in bodies resumed by the microtask
// queue (Await's shortcut must not move them) with a tick, a queueMicrotask and a rejection
// handled after an await, interleaved with another body and a ruler, against node's, in
// every mode.
func TestRev10pAsyncTicks(t *testing.T) {
	want := looptest.NodeLines(t, asyncTicksJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		null := func() { promise.Await(promise.Resolve[any](l, nil)) }
		promise.Async(l, func() (any, error) {
			null()
			log("a1")
			l.NextTick(func() { log("tick from a") })
			null()
			log("a2")
			r := promise.Reject[int](l, errors.New("r"))
			null()
			r.Catch(func(error) (int, error) { log("r caught"); return 0, nil })
			null()
			log("a3")
			l.QueueMicrotask(func() { log("qm from a") })
			null()
			log("a4")
			return nil, nil
		})
		promise.Async(l, func() (any, error) {
			null()
			log("b1")
			null()
			log("b2")
			null()
			log("b3")
			return nil, nil
		})
		promise.SetRejectionHook(l, func(ev promise.RejectionEvent) { log("unhandled", ev.Reason.Error()) })
		rev10pRuler(l, log, 5, nil)
	})
}

const asyncAloneJS = `
const log = (...a) => console.log(a.join(' '));
process.on('unhandledRejection', r => log('unhandled', r.message));
setTimeout(() => {
  (async () => {
    await null;
    log('a1');
    const r = Promise.reject(new Error('r'));
    await null;
    log('a2');
    await null;
    r.catch(() => log('r caught'));
    const s = Promise.reject(new Error('s'));
    process.nextTick(() => { log('tick'); s.catch(() => log('s caught')); });
    await null;
    log('a3');
    const u = Promise.reject(new Error('u'));
    await null;
    log('a4');
  })();
}, 0);
`

// TestRev10pAsyncAlone pins one body alone on the microtask queue, where Await's shortcut
// continues without a switch: a rejection caught two awaits later is not reported, one
// caught from a tick queued before an await is not either, one never caught is, after the
// body ends, against node's, in every mode.
func TestRev10pAsyncAlone(t *testing.T) {
	want := looptest.NodeLines(t, asyncAloneJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		promise.SetRejectionHook(l, func(ev promise.RejectionEvent) { log("unhandled", ev.Reason.Error()) })
		null := func() { promise.Await(promise.Resolve[any](l, nil)) }
		promise.Async(l, func() (any, error) {
			null()
			log("a1")
			r := promise.Reject[int](l, errors.New("r"))
			null()
			log("a2")
			null()
			r.Catch(func(error) (int, error) { log("r caught"); return 0, nil })
			s := promise.Reject[int](l, errors.New("s"))
			l.NextTick(func() { log("tick"); s.Catch(func(error) (int, error) { log("s caught"); return 0, nil }) })
			null()
			log("a3")
			promise.Reject[int](l, errors.New("u"))
			null()
			log("a4")
			return nil, nil
		})
	})
}
