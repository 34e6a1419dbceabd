package promise_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// thenableFunc is a foreign thenable: its Then is f.
type thenableFunc[T any] func(r *promise.Resolvers[T])

func (f thenableFunc[T]) Then(r *promise.Resolvers[T]) { f(r) }

// rev10pRuler logs m1, m2, ... one microtask turn after another, and calls at[i] in the
// turn of m<i>.
func rev10pRuler(l *uvloop.Loop, log func(...any), n int, at map[int]func()) {
	p := promise.Resolve[any](l, nil)
	for i := 1; i <= n; i++ {
		p = promise.Then(p, func(any) (any, error) {
			log(fmt.Sprintf("m%d", i))
			if f := at[i]; f != nil {
				f()
			}
			return nil, nil
		}, nil)
	}
}

// logValue logs msg and the value p is fulfilled with.
func logValue[T any](p *promise.Promise[T], log func(...any), msg string) {
	promise.Then(p, func(v T) (any, error) { log(msg, v); return nil, nil }, nil)
}

// logReason logs msg and the message of the reason p rejects with.
func logReason[T any](p *promise.Promise[T], log func(...any), msg string) {
	p.Catch(func(err error) (T, error) { log(msg, err.Error()); var z T; return z, nil })
}

const handlersJS = `
const log = (...a) => console.log(a.join(' '));
setTimeout(() => {
  const r = Promise.resolve(1);
  r.then(v => v + 1).then(v => log('value', v));
  r.then(() => { throw new Error('boom'); }).catch(e => log('throw', e.message));
  r.then(() => Promise.resolve(5)).then(v => log('native settled', v));
  r.then(() => Promise.reject(new Error('nr'))).catch(e => log('native rejected', e.message));
  r.then(() => ({ then(res) { res(7); } })).then(v => log('thenable sync', v));
  r.then(() => ({ then(res, rej) { rej(new Error('tr')); } })).catch(e => log('thenable rejects', e.message));
  let res9; const pend = new Promise(r => { res9 = r; });
  r.then(() => pend).then(v => log('native pending', v));
  r.then(() => ({ then(res) { res(8); throw new Error('ignored'); } })).then(v => log('thenable throws after', v));
  r.then(() => ({ then() { throw new Error('tt'); } })).catch(e => log('thenable throws', e.message));
  r.then(() => ({ then(res) { res(Promise.resolve(10)); } })).then(v => log('thenable resolves native', v));
  r.then(() => ({ then(res) { res(11); res(12); } })).then(v => log('thenable twice', v));
  const cyc = r.then(() => cyc); cyc.catch(e => log('cycle', e.constructor.name));
  Promise.reject(new Error('rr')).then(v => log('skipped')).then(null, e => log('pass through', e.message));
  r.then(null, null).then(v => log('nil handlers', v));
  Promise.resolve().then(() => log('m1')).then(() => log('m2')).then(() => log('m3')).then(() => { log('m4'); res9(9); })
    .then(() => log('m5')).then(() => log('m6')).then(() => log('m7')).then(() => log('m8'));
  log('sync');
}, 0);
`

// TestRev10pHandlerResults pins the microtask turns of what a handler returns (a value, a
// throw, a settled, rejected or pending native promise, foreign thenables that resolve,
// reject, throw, resolve twice or resolve with a native promise, the derived promise itself)
// against node's, in every mode.
func TestRev10pHandlerResults(t *testing.T) {
	want := looptest.NodeLines(t, handlersJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		r := promise.Resolve(l, 1)
		logValue(promise.Then(r, func(v int) (int, error) { return v + 1, nil }, nil), log, "value")
		logReason(promise.Then(r, func(int) (int, error) { return 0, errors.New("boom") }, nil), log, "throw")
		logValue(promise.Chain(r, func(int) promise.Thenable[int] { return promise.Resolve(l, 5) }, nil), log, "native settled")
		logReason(promise.Chain(r, func(int) promise.Thenable[int] { return promise.Reject[int](l, errors.New("nr")) }, nil), log, "native rejected")
		logValue(promise.Chain(r, func(int) promise.Thenable[int] {
			return thenableFunc[int](func(r *promise.Resolvers[int]) { r.Resolve(7) })
		}, nil), log, "thenable sync")
		logReason(promise.Chain(r, func(int) promise.Thenable[int] {
			return thenableFunc[int](func(r *promise.Resolvers[int]) { r.Reject(errors.New("tr")) })
		}, nil), log, "thenable rejects")
		pend, res9 := promise.WithResolvers[int](l)
		logValue(promise.Chain(r, func(int) promise.Thenable[int] { return pend }, nil), log, "native pending")
		logValue(promise.Chain(r, func(int) promise.Thenable[int] {
			return thenableFunc[int](func(r *promise.Resolvers[int]) { r.Resolve(8); panic(errors.New("ignored")) })
		}, nil), log, "thenable throws after")
		logReason(promise.Chain(r, func(int) promise.Thenable[int] {
			return thenableFunc[int](func(r *promise.Resolvers[int]) { panic(errors.New("tt")) })
		}, nil), log, "thenable throws")
		logValue(promise.Chain(r, func(int) promise.Thenable[int] {
			return thenableFunc[int](func(r *promise.Resolvers[int]) { r.Adopt(promise.Resolve(l, 10)) })
		}, nil), log, "thenable resolves native")
		logValue(promise.Chain(r, func(int) promise.Thenable[int] {
			return thenableFunc[int](func(r *promise.Resolvers[int]) { r.Resolve(11); r.Resolve(12) })
		}, nil), log, "thenable twice")
		var cyc *promise.Promise[int]
		cyc = promise.Chain(r, func(int) promise.Thenable[int] { return cyc }, nil)
		cyc.Catch(func(err error) (int, error) {
			if errors.Is(err, promise.ErrCycle) {
				log("cycle", "TypeError")
			} else {
				log("cycle", err)
			}
			return 0, nil
		})
		rr := promise.Then(promise.Reject[int](l, errors.New("rr")), func(int) (int, error) { log("skipped"); return 0, nil }, nil)
		promise.Then(rr, nil, func(err error) (int, error) { log("pass through", err.Error()); return 0, nil })
		logValue(promise.Then[int, int](r, nil, nil), log, "nil handlers")
		rev10pRuler(l, log, 8, map[int]func(){4: func() { res9.Resolve(9) }})
		log("sync")
	})
}

const adoptJS = `
const log = (...a) => console.log(a.join(' '));
setTimeout(() => {
  const p = Promise.resolve(1);
  log('identity', Promise.resolve(p) === p);
  const q = new Promise(r => r(p));
  log('adopting is new', q !== p);
  q.then(v => log('adopted', v));
  Promise.resolve(p).then(v => log('resolved', v));
  let res; const pend = new Promise(r => { res = r; });
  const q2 = new Promise(r => r(pend));
  q2.then(v => log('adopted pending', v));
  const q3 = new Promise((r, j) => { r(p); j(new Error('ignored')); });
  q3.then(v => log('first call counts', v));
  Promise.resolve().then(() => log('m1')).then(() => { log('m2'); res(2); }).then(() => log('m3')).then(() => log('m4')).then(() => log('m5'));
}, 0);
`

// TestRev10pResolveVsAdopt pins From of a native promise (itself, no turn) against
// NewAdopting of one (a new promise, two turns later), of a pending one, and a reject after
// the resolve that adopts (ignored), against node's Promise.resolve and new Promise, in
// every mode.
func TestRev10pResolveVsAdopt(t *testing.T) {
	want := looptest.NodeLines(t, adoptJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		p := promise.Resolve(l, 1)
		log("identity", promise.From[int](l, p) == p)
		q := promise.NewAdopting(l, func(resolve func(promise.Thenable[int]), _ func(error)) { resolve(p) })
		log("adopting is new", q != p)
		logValue(q, log, "adopted")
		logValue(promise.From[int](l, p), log, "resolved")
		pend, res := promise.WithResolvers[int](l)
		logValue(promise.NewAdopting(l, func(resolve func(promise.Thenable[int]), _ func(error)) { resolve(pend) }), log, "adopted pending")
		logValue(promise.NewAdopting(l, func(resolve func(promise.Thenable[int]), reject func(error)) {
			resolve(p)
			reject(errors.New("ignored"))
		}), log, "first call counts")
		rev10pRuler(l, log, 5, map[int]func(){2: func() { res.Resolve(2) }})
	})
}
