package nodetimers_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodetimers"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// abortInfo prints an AbortError as the twins print node's: name, code, message, cause.
func abortInfo(err error) string {
	var ae *nodeevents.AbortError
	if !errors.As(err, &ae) {
		return "not an AbortError: " + err.Error()
	}
	cause := ae.Cause.Error()
	var de *nodeevents.DOMException
	if errors.As(ae.Cause, &de) {
		cause = de.Name
	}
	return fmt.Sprintf("AbortError %s %s %s", ae.Code(), ae.Error(), cause)
}

// timers/promises' setTimeout and setImmediate against the callback forms, ticks and
// microtasks, with a signal (which settles later: node's finally), a signal aborted later and
// one aborted already, and ref: false (an unref'd timer neither keeps the loop nor settles;
// an unref'd immediate runs with the others).
const promisesJS = `
const tp = require('timers/promises');
const log = (...a) => console.log(a.join(' '));
const abortInfo = (e) => [e.name, e.code, e.message, e.cause.name === 'Error' ? e.cause.message : e.cause.name].join(' ');
setTimeout(() => {
  tp.setTimeout(0, 'a').then((v) => log('p timeout', v));
  setTimeout(() => log('cb timeout'), 0);
  tp.setImmediate('b').then((v) => log('p immediate', v));
  setImmediate(() => log('cb immediate'));
  const ac = new AbortController();
  tp.setTimeout(0, 'c', { signal: ac.signal }).then((v) => log('p timeout signal', v));
  tp.setImmediate('d', { signal: ac.signal }).then((v) => log('p immediate signal', v));
  const ac2 = new AbortController();
  tp.setTimeout(0, 'e', { signal: ac2.signal }).catch((e) => log('abort later', abortInfo(e)));
  tp.setImmediate('f', { signal: ac2.signal }).catch((e) => log('abort later imm', abortInfo(e)));
  ac2.abort();
  tp.setTimeout(0, 'g', { signal: AbortSignal.abort(new Error('why')) }).catch((e) => log('aborted already', abortInfo(e)));
  tp.setImmediate('g2', { signal: AbortSignal.abort(new Error('why2')) }).catch((e) => log('aborted already imm', abortInfo(e)));
  tp.setTimeout(10000, 'never', { ref: false }).then(() => log('unref fired'));
  tp.setImmediate('h', { ref: false }).then((v) => log('unref immediate', v));
  process.nextTick(() => log('tick'));
  Promise.resolve().then(() => log('m1')).then(() => log('m2')).then(() => log('m3')).then(() => log('m4')).then(() => log('m5'));
  log('sync');
}, 0);
process.on('exit', () => log('exit'));
`

func TestRev10ePromisesOrder(t *testing.T) {
	want := looptest.NodeLines(t, promisesJS)
	looptest.Scenario(t, want[:len(want)-1], func(l *uvloop.Loop, log func(...any)) {
		then := func(p *promise.Promise[string], f func(v string)) {
			promise.Then(p, func(v string) (any, error) { f(v); return nil, nil }, nil)
		}
		catch := func(p *promise.Promise[string], f func(err error)) {
			p.Catch(func(err error) (string, error) { f(err); return "", nil })
		}
		then(nodetimers.SetTimeout(l, 0, "a", nil), func(v string) { log("p timeout", v) })
		l.SetTimeout(func() { log("cb timeout") }, 0)
		then(nodetimers.SetImmediate(l, "b", nil), func(v string) { log("p immediate", v) })
		l.SetImmediate(func() { log("cb immediate") })
		ac := nodeevents.NewAbortController()
		then(nodetimers.SetTimeout(l, 0, "c", &nodetimers.Options{Signal: ac.Signal()}), func(v string) { log("p timeout signal", v) })
		then(nodetimers.SetImmediate(l, "d", &nodetimers.Options{Signal: ac.Signal()}), func(v string) { log("p immediate signal", v) })
		ac2 := nodeevents.NewAbortController()
		catch(nodetimers.SetTimeout(l, 0, "e", &nodetimers.Options{Signal: ac2.Signal()}), func(err error) { log("abort later", abortInfo(err)) })
		catch(nodetimers.SetImmediate(l, "f", &nodetimers.Options{Signal: ac2.Signal()}), func(err error) { log("abort later imm", abortInfo(err)) })
		ac2.Abort()
		catch(nodetimers.SetTimeout(l, 0, "g", &nodetimers.Options{Signal: nodeevents.AbortSignalAbort(errors.New("why"))}),
			func(err error) { log("aborted already", abortInfo(err)) })
		catch(nodetimers.SetImmediate(l, "g2", &nodetimers.Options{Signal: nodeevents.AbortSignalAbort(errors.New("why2"))}),
			func(err error) { log("aborted already imm", abortInfo(err)) })
		then(nodetimers.SetTimeout(l, 10*time.Second, "never", &nodetimers.Options{Unref: true}), func(string) { log("unref fired") })
		then(nodetimers.SetImmediate(l, "h", &nodetimers.Options{Unref: true}), func(v string) { log("unref immediate", v) })
		l.NextTick(func() { log("tick") })
		looptest.Chain(l, log, "m1", "m2", "m3", "m4", "m5")
		log("sync")
	})
	if want[len(want)-1] != "exit" {
		t.Fatalf("node's last line %q, want exit", want[len(want)-1])
	}
}

// timers/promises' setInterval is an async generator: its interval starts at the first
// next() (one never iterated holds no timer, and a signal is checked then), return() waits
// for the next() calls before it, an abort rejects the next() waiting and ends the
// iteration, and for await's break clears the interval. node exits at the end: nothing is
// left running.
const intervalJS = `
const tp = require('timers/promises');
const log = (...a) => console.log(a.join(' '));
const abortInfo = (e) => [e.name, e.code, e.message, e.cause.name === 'Error' ? e.cause.message : e.cause.name].join(' ');
process.on('exit', () => log('exit'));
setTimeout(async () => {
  tp.setInterval(1, 'never iterated');
  const r0 = tp.setInterval(1, 'returned first');
  r0.return().then((r) => log('r0 return', JSON.stringify(r)));
  r0.next().then((r) => log('r0 next', JSON.stringify(r)));

  const it = tp.setInterval(1, 'v');
  const p1 = it.next(), p2 = it.return(), p3 = it.next();
  p1.then((r) => log('p1', JSON.stringify(r)));
  p2.then((r) => log('p2', JSON.stringify(r)));
  p3.then((r) => log('p3', JSON.stringify(r)));
  await p3;

  const ac = new AbortController();
  const it2 = tp.setInterval(1, 'w', { signal: ac.signal });
  const q1 = it2.next(), q2 = it2.next(), q3 = it2.return();
  ac.abort();
  try { await q1; log('no throw'); } catch (e) { log('q1', abortInfo(e)); }
  log('q2', JSON.stringify(await q2));
  log('q3', JSON.stringify(await q3));
  log('it2 next', JSON.stringify(await it2.next()));

  const it3 = tp.setInterval(1, 'x', { signal: AbortSignal.abort(new Error('why')) });
  try { await it3.next(); log('no throw'); } catch (e) { log('it3', abortInfo(e)); }
  log('it3 next', JSON.stringify(await it3.next()));

  const ac4 = new AbortController();
  const it4 = tp.setInterval(1, 'y', { signal: ac4.signal });
  ac4.abort(new Error('between'));
  try { await it4.next(); log('no throw'); } catch (e) { log('it4', abortInfo(e)); }

  let n = 0;
  for await (const v of tp.setInterval(1, 'fa')) { log('fa', v); if (++n === 2) break; }
  log('done');
}, 0);
`

func TestRev10eIntervalIterator(t *testing.T) {
	want := looptest.NodeLines(t, intervalJS)
	if want[len(want)-1] != "exit" {
		t.Fatalf("node's last line %q, want exit", want[len(want)-1])
	}
	want = want[:len(want)-1]
	ms := time.Millisecond
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		var left []*nodetimers.Interval[string]
		// A deadlock guard: in node the loop ends here; if ours is still alive after 10 s,
		// something keeps it so. Return what the scenario left, so that Close succeeds.
		l.SetTimeout(func() {
			log("guard: the loop is still alive")
			for _, it := range left {
				it.Return()
			}
		}, 10*time.Second).Unref()
		logIter := func(name string, p *promise.Promise[nodeevents.IterResult[string]]) {
			promise.Then(p, func(r nodeevents.IterResult[string]) (any, error) {
				log(name, looptest.IterJSON(r.Value, r.Done))
				return nil, nil
			}, nil)
		}
		promise.Async(l, func() (any, error) {
			left = append(left, nodetimers.SetInterval(l, ms, "never iterated", nil))
			r0 := nodetimers.SetInterval(l, ms, "returned first", nil)
			left = append(left, r0)
			logIter("r0 return", r0.Return())
			logIter("r0 next", r0.Next())

			it := nodetimers.SetInterval(l, ms, "v", nil)
			left = append(left, it)
			p1, p2, p3 := it.Next(), it.Return(), it.Next()
			logIter("p1", p1)
			logIter("p2", p2)
			logIter("p3", p3)
			promise.Await(p3)

			ac := nodeevents.NewAbortController()
			it2 := nodetimers.SetInterval(l, ms, "w", &nodetimers.Options{Signal: ac.Signal()})
			left = append(left, it2)
			q1, q2, q3 := it2.Next(), it2.Next(), it2.Return()
			ac.Abort()
			if _, err := promise.Await(q1); err != nil {
				log("q1", abortInfo(err))
			} else {
				log("no throw")
			}
			r, _ := promise.Await(q2)
			log("q2", looptest.IterJSON(r.Value, r.Done))
			r, _ = promise.Await(q3)
			log("q3", looptest.IterJSON(r.Value, r.Done))
			r, _ = promise.Await(it2.Next())
			log("it2 next", looptest.IterJSON(r.Value, r.Done))

			it3 := nodetimers.SetInterval(l, ms, "x", &nodetimers.Options{Signal: nodeevents.AbortSignalAbort(errors.New("why"))})
			if _, err := promise.Await(it3.Next()); err != nil {
				log("it3", abortInfo(err))
			} else {
				log("no throw")
			}
			r, _ = promise.Await(it3.Next())
			log("it3 next", looptest.IterJSON(r.Value, r.Done))

			ac4 := nodeevents.NewAbortController()
			it4 := nodetimers.SetInterval(l, ms, "y", &nodetimers.Options{Signal: ac4.Signal()})
			left = append(left, it4)
			ac4.Abort(errors.New("between"))
			if _, err := promise.Await(it4.Next()); err != nil {
				log("it4", abortInfo(err))
			} else {
				log("no throw")
			}

			n := 0
			for v := range nodetimers.SetInterval(l, ms, "fa", nil).All() {
				log("fa", v)
				if n++; n == 2 {
					break
				}
			}
			log("done")
			return nil, nil
		})
	})
}

// The microtask turns of setInterval's async generator, against chains of microtasks: a
// buffered run is yielded a turn after next() (yield awaits its operand), each next() queued
// behind it a turn later again; return() awaits a turn, and the next() after it is answered
// with it; an abort while the body awaits a run rejects that next() three turns later (the
// awaited promise adopts a rejected one), the next() behind it with it, and the return()
// behind them a turn after. Each wait on a timer made after a run lets at least one more run
// come first (the interval's list expires earlier), so the buffered counts used are sure.
const intervalTurnsJS = `
const tp = require('timers/promises');
const log = (...a) => console.log(a.join(' '));
const chain = (p) => Promise.resolve().then(() => log(p + '1')).then(() => log(p + '2')).then(() => log(p + '3'))
  .then(() => log(p + '4')).then(() => log(p + '5'));
const show = (name) => (r) => log(name, JSON.stringify(r));
setTimeout(async () => {
  const it = tp.setInterval(1, 'v');
  await it.next();
  await tp.setTimeout(5);
  await tp.setTimeout(5);
  it.next().then(show('n1'));
  it.next().then(show('n2'));
  chain('m');
  await tp.setTimeout(5);
  it.return().then(show('ret'));
  it.next().then(show('after ret'));
  chain('k');
  await tp.setTimeout(5);

  const fresh = tp.setInterval(1, 'w');
  fresh.return().then(show('fresh ret'));
  fresh.next().then(show('fresh next'));
  chain('j');
  await tp.setTimeout(5);

  const ac = new AbortController();
  const ab = tp.setInterval(1, 'x', { signal: ac.signal });
  ab.next().catch((e) => log('q1', e.name));
  ab.next().then(show('q2'));
  ab.return().then(show('q3'));
  ac.abort();
  chain('a');
  await tp.setTimeout(5);

  const ac2 = new AbortController();
  const ab2 = tp.setInterval(1, 'y', { signal: ac2.signal });
  await ab2.next();
  await tp.setTimeout(5);
  ac2.abort();
  ab2.next().then(show('b1'), (e) => log('b1 rejected', e.name));
  ab2.return().then(show('b2'));
  chain('c');
}, 0);
`

func TestRev10eIntervalTurns(t *testing.T) {
	want := looptest.NodeLines(t, intervalTurnsJS)
	ms := time.Millisecond
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		show := func(name string, p *promise.Promise[nodeevents.IterResult[string]]) {
			promise.Then(p, func(r nodeevents.IterResult[string]) (any, error) {
				log(name, looptest.IterJSON(r.Value, r.Done))
				return nil, nil
			}, nil)
		}
		wait := func() { promise.Await(nodetimers.SetTimeout(l, 5*ms, 0, nil)) }
		promise.Async(l, func() (any, error) {
			it := nodetimers.SetInterval(l, ms, "v", nil)
			promise.Await(it.Next())
			wait()
			wait()
			show("n1", it.Next())
			show("n2", it.Next())
			looptest.Chain(l, log, "m1", "m2", "m3", "m4", "m5")
			wait()
			show("ret", it.Return())
			show("after ret", it.Next())
			looptest.Chain(l, log, "k1", "k2", "k3", "k4", "k5")
			wait()

			fresh := nodetimers.SetInterval(l, ms, "w", nil)
			show("fresh ret", fresh.Return())
			show("fresh next", fresh.Next())
			looptest.Chain(l, log, "j1", "j2", "j3", "j4", "j5")
			wait()

			ac := nodeevents.NewAbortController()
			ab := nodetimers.SetInterval(l, ms, "x", &nodetimers.Options{Signal: ac.Signal()})
			ab.Next().Catch(func(error) (nodeevents.IterResult[string], error) {
				log("q1", "AbortError")
				return nodeevents.IterResult[string]{}, nil
			})
			show("q2", ab.Next())
			show("q3", ab.Return())
			ac.Abort()
			looptest.Chain(l, log, "a1", "a2", "a3", "a4", "a5")
			wait()

			ac2 := nodeevents.NewAbortController()
			ab2 := nodetimers.SetInterval(l, ms, "y", &nodetimers.Options{Signal: ac2.Signal()})
			promise.Await(ab2.Next())
			wait()
			ac2.Abort()
			promise.Then(ab2.Next(), func(r nodeevents.IterResult[string]) (any, error) {
				log("b1", looptest.IterJSON(r.Value, r.Done))
				return nil, nil
			},
				func(err error) (any, error) { log("b1 rejected", "AbortError"); return nil, nil })
			show("b2", ab2.Return())
			looptest.Chain(l, log, "c1", "c2", "c3", "c4", "c5")
			return nil, nil
		})
	})
}
