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
