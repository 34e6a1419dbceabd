package nodeevents_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// errName is a JavaScript error's name for the errors of this package.
func errName(err error) string {
	var ae *nodeevents.AbortError
	var de *nodeevents.DOMException
	switch {
	case errors.As(err, &ae):
		return "AbortError"
	case errors.As(err, &de):
		return de.Name
	}
	return "Error"
}

// events.once: the turn at which it settles (against a chain of microtasks and a
// nextTick), the listeners it leaves, an 'error' rejecting it with the error itself,
// once(e, 'error') resolving, and the AbortError of a signal aborted later or already
// (name, code, message, cause).
const onceJS = `
const { once, EventEmitter } = require('events');
const log = (...a) => console.log(a.join(' '));
const e = new EventEmitter();
once(e, 'x').then((v) => log('once x', v.join(',')));
log('listeners', e.listenerCount('x'), e.listenerCount('error'));
Promise.resolve().then(() => log('m1')).then(() => log('m2')).then(() => log('m3')).then(() => log('m4')).then(() => log('m5'));
process.nextTick(() => log('tick'));
e.emit('x', 1, 2);
log('after emit', e.listenerCount('x'), e.listenerCount('error'));
const boom = new Error('boom');
once(e, 'y').catch((err) => log('once y rejected', err === boom, e.listenerCount('y'), e.listenerCount('error')));
once(e, 'error').then((v) => log('once error resolved', v[0] === boom));
e.emit('error', boom);
const ac = new AbortController();
once(e, 'z', { signal: ac.signal }).catch((err) => log('once z', err.name, err.code, err.message, err.cause.name, e.listenerCount('z'), e.listenerCount('error')));
once(e, 'w', { signal: AbortSignal.abort(new Error('why')) }).catch((err) => log('once w', err.name, err.code, err.cause.message, e.listenerCount('w')));
ac.abort();
log('sync end');
`

func TestRev10eOnceTurns(t *testing.T) {
	want := looptest.NodeLines(t, onceJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		var e nodeevents.EventEmitter
		promise.Then(nodeevents.Once(l, &e, "x", nil), func(v []any) (any, error) {
			log("once x", fmt.Sprintf("%v,%v", v[0], v[1]))
			return nil, nil
		}, nil)
		log("listeners", e.ListenerCount("x"), e.ListenerCount("error"))
		looptest.Chain(l, log, "m1", "m2", "m3", "m4", "m5")
		l.NextTick(func() { log("tick") })
		e.Emit("x", 1, 2)
		log("after emit", e.ListenerCount("x"), e.ListenerCount("error"))
		boom := errors.New("boom")
		nodeevents.Once(l, &e, "y", nil).Catch(func(err error) ([]any, error) {
			log("once y rejected", err == boom, e.ListenerCount("y"), e.ListenerCount("error"))
			return nil, nil
		})
		promise.Then(nodeevents.Once(l, &e, "error", nil), func(v []any) (any, error) {
			log("once error resolved", v[0] == any(boom))
			return nil, nil
		}, nil)
		e.Emit("error", boom)
		ac := nodeevents.NewAbortController()
		nodeevents.Once(l, &e, "z", &nodeevents.Options{Signal: ac.Signal()}).Catch(func(err error) ([]any, error) {
			ae := err.(*nodeevents.AbortError)
			log("once z", errName(err), ae.Code(), err.Error(), errName(ae.Cause), e.ListenerCount("z"), e.ListenerCount("error"))
			return nil, nil
		})
		signal := nodeevents.AbortSignalAbort(errors.New("why"))
		nodeevents.Once(l, &e, "w", &nodeevents.Options{Signal: signal}).Catch(func(err error) ([]any, error) {
			ae := err.(*nodeevents.AbortError)
			log("once w", errName(err), ae.Code(), ae.Cause.Error(), e.ListenerCount("w"))
			return nil, nil
		})
		ac.Abort()
		log("sync end")
	})
}

// events.on: events buffered before a next are handed out in order, a break (return)
// removes the listeners and later nexts are done; an 'error' comes after the buffered
// events and ends the iteration; a close event answers the waiting nexts with done; an abort
// rejects the first waiting next and answers the others with done.
const onJS = `
const { on, EventEmitter } = require('events');
const log = (...a) => console.log(a.join(' '));
(async () => {
  const e = new EventEmitter();
  const it = on(e, 'd', { close: ['end'] });
  e.emit('d', 1); e.emit('d', 2, 'b'); e.emit('d', 3);
  log('counts', e.listenerCount('d'), e.listenerCount('error'), e.listenerCount('end'));
  log('next', JSON.stringify(await it.next()));
  for await (const v of it) { log('got', v.join(',')); break; }
  log('after break', e.listenerCount('d'), e.listenerCount('error'), e.listenerCount('end'));
  log('next after return', JSON.stringify(await it.next()));
  log('next after return', JSON.stringify(await it.next()));

  const e2 = new EventEmitter();
  const it2 = on(e2, 'd');
  e2.emit('d', 'a'); const boom = new Error('boom'); e2.emit('error', boom); e2.emit('d', 'late');
  log('it2 counts', e2.listenerCount('d'), e2.listenerCount('error'));
  log('it2', JSON.stringify(await it2.next()));
  try { await it2.next(); log('no throw'); } catch (err) { log('it2 threw', err === boom); }
  log('it2', JSON.stringify(await it2.next()));

  const e3 = new EventEmitter();
  const it3 = on(e3, 'd', { close: ['end'] });
  const n1 = it3.next(), n2 = it3.next(), n3 = it3.next();
  n1.then((r) => log('n1', JSON.stringify(r))); n2.then((r) => log('n2', JSON.stringify(r))); n3.then((r) => log('n3', JSON.stringify(r)));
  e3.emit('d', 'x'); e3.emit('end'); e3.emit('d', 'y');
  log('it3 counts', e3.listenerCount('d'), e3.listenerCount('end'));
  await n3;

  const ac = new AbortController();
  const e4 = new EventEmitter();
  const it4 = on(e4, 'd', { signal: ac.signal });
  const w = it4.next(), w2 = it4.next();
  ac.abort();
  try { await w; log('no throw'); } catch (err) { log('it4 threw', err.name, err.code, err.cause.name); }
  log('w2', JSON.stringify(await w2), e4.listenerCount('d'), e4.listenerCount('error'));
  log('done');
})();
`

func TestRev10eOnIterator(t *testing.T) {
	want := looptest.NodeLines(t, onJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		promise.Async(l, func() (any, error) {
			var e nodeevents.EventEmitter
			it := nodeevents.On(l, &e, "d", &nodeevents.Options{Close: []string{"end"}})
			e.Emit("d", 1)
			e.Emit("d", 2, "b")
			e.Emit("d", 3)
			log("counts", e.ListenerCount("d"), e.ListenerCount("error"), e.ListenerCount("end"))
			r, _ := promise.Await(it.Next())
			log("next", looptest.IterJSON(r.Value, r.Done))
			for v := range it.All() {
				log("got", fmt.Sprintf("%v,%v", v[0], v[1]))
				break
			}
			log("after break", e.ListenerCount("d"), e.ListenerCount("error"), e.ListenerCount("end"))
			r, _ = promise.Await(it.Next())
			log("next after return", looptest.IterJSON(r.Value, r.Done))
			r, _ = promise.Await(it.Next())
			log("next after return", looptest.IterJSON(r.Value, r.Done))

			var e2 nodeevents.EventEmitter
			it2 := nodeevents.On(l, &e2, "d", nil)
			e2.Emit("d", "a")
			boom := errors.New("boom")
			e2.Emit("error", boom)
			e2.Emit("d", "late")
			log("it2 counts", e2.ListenerCount("d"), e2.ListenerCount("error"))
			r, _ = promise.Await(it2.Next())
			log("it2", looptest.IterJSON(r.Value, r.Done))
			if _, err := promise.Await(it2.Next()); err != nil {
				log("it2 threw", err == boom)
			} else {
				log("no throw")
			}
			r, _ = promise.Await(it2.Next())
			log("it2", looptest.IterJSON(r.Value, r.Done))

			var e3 nodeevents.EventEmitter
			it3 := nodeevents.On(l, &e3, "d", &nodeevents.Options{Close: []string{"end"}})
			n1, n2, n3 := it3.Next(), it3.Next(), it3.Next()
			for i, n := range []*promise.Promise[nodeevents.IterResult[[]any]]{n1, n2, n3} {
				promise.Then(n, func(r nodeevents.IterResult[[]any]) (any, error) {
					log(fmt.Sprintf("n%d", i+1), looptest.IterJSON(r.Value, r.Done))
					return nil, nil
				}, nil)
			}
			e3.Emit("d", "x")
			e3.Emit("end")
			e3.Emit("d", "y")
			log("it3 counts", e3.ListenerCount("d"), e3.ListenerCount("end"))
			promise.Await(n3)

			ac := nodeevents.NewAbortController()
			var e4 nodeevents.EventEmitter
			it4 := nodeevents.On(l, &e4, "d", &nodeevents.Options{Signal: ac.Signal()})
			w, w2 := it4.Next(), it4.Next()
			ac.Abort()
			if _, err := promise.Await(w); err != nil {
				ae := err.(*nodeevents.AbortError)
				log("it4 threw", errName(err), ae.Code(), errName(ae.Cause))
			} else {
				log("no throw")
			}
			r, _ = promise.Await(w2)
			log("w2", looptest.IterJSON(r.Value, r.Done), e4.ListenerCount("d"), e4.ListenerCount("error"))
			log("done")
			return nil, nil
		})
	})
}

// AbortController and AbortSignal: the default reason (a DOMException AbortError, code 20),
// abort once (an abort inside an 'abort' listener changes nothing), AbortSignal.any taking
// the first aborted signal's reason, AbortSignal.timeout's TimeoutError before a timer of the
// same delay made after it, and the order of 'abort' listeners: node aborts the signals that
// AbortSignal.any made from a source after all the source's own listeners, those made first
// first, with any's of an any depending on the sources themselves.
const abortJS = `
const log = (...a) => console.log(a.join(' '));
const c = new AbortController();
c.signal.addEventListener('abort', () => log('src 1', c.signal.aborted));
const a = AbortSignal.any([c.signal]);
a.addEventListener('abort', () => log('any a', a.reason === c.signal.reason));
const b = AbortSignal.any([new AbortController().signal, c.signal]);
b.addEventListener('abort', () => log('any b'));
c.signal.addEventListener('abort', () => log('src 2'));
const a2 = AbortSignal.any([a]);
a2.addEventListener('abort', () => log('any of a'));
const d = AbortSignal.any([b, a]);
d.addEventListener('abort', () => log('any of b and a'));
log('before', a.aborted, a2.aborted);
c.abort();
log('reason', c.signal.reason.name, c.signal.reason.message, c.signal.reason.code, a2.reason === c.signal.reason);
const c3 = new AbortController();
c3.signal.addEventListener('abort', () => { log('l1'); c3.abort(new Error('second')); log('l1 after', c3.signal.reason.message); });
c3.signal.addEventListener('abort', () => log('l2'));
c3.abort(new Error('first'));
log('any aborted', AbortSignal.any([new AbortController().signal, AbortSignal.abort(new Error('r2')), AbortSignal.abort(new Error('r1'))]).reason.message);
const t = AbortSignal.timeout(1);
t.addEventListener('abort', () => log('timeout', t.reason.name, t.reason.message, t.reason.code));
setTimeout(() => log('timer'), 1);
`

func TestRev10eAbortSignals(t *testing.T) {
	want := looptest.NodeLines(t, abortJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		c := nodeevents.NewAbortController()
		src := c.Signal()
		src.On("abort", func(...any) { log("src 1", src.Aborted()) })
		a := nodeevents.AbortSignalAny(src)
		a.On("abort", func(...any) { log("any a", a.Reason() == src.Reason()) })
		b := nodeevents.AbortSignalAny(nodeevents.NewAbortController().Signal(), src)
		b.On("abort", func(...any) { log("any b") })
		src.On("abort", func(...any) { log("src 2") })
		a2 := nodeevents.AbortSignalAny(a)
		a2.On("abort", func(...any) { log("any of a") })
		d := nodeevents.AbortSignalAny(b, a)
		d.On("abort", func(...any) { log("any of b and a") })
		log("before", a.Aborted(), a2.Aborted())
		c.Abort()
		de := src.Reason().(*nodeevents.DOMException)
		log("reason", de.Name, de.Message, de.Code, a2.Reason() == src.Reason())
		c3 := nodeevents.NewAbortController()
		c3.Signal().On("abort", func(...any) {
			log("l1")
			c3.Abort(errors.New("second"))
			log("l1 after", c3.Signal().Reason().Error())
		})
		c3.Signal().On("abort", func(...any) { log("l2") })
		c3.Abort(errors.New("first"))
		anyOf := nodeevents.AbortSignalAny(nodeevents.NewAbortController().Signal(),
			nodeevents.AbortSignalAbort(errors.New("r2")), nodeevents.AbortSignalAbort(errors.New("r1")))
		log("any aborted", anyOf.Reason().Error())
		ts := nodeevents.AbortSignalTimeout(l, time.Millisecond)
		ts.On("abort", func(...any) {
			de := ts.Reason().(*nodeevents.DOMException)
			log("timeout", de.Name, de.Message, de.Code)
		})
		l.SetTimeout(func() { log("timer") }, time.Millisecond)
	})
}

// An AbortSignal's leak warning is an EventTarget's: node words it its own way ("Possible
// EventTarget memory leak detected. 11 abort listeners added to [AbortSignal]. ... Use
// events.setMaxListeners()") and raises it once per signal, whatever the event; the
// listeners events.once adds to a signal count, and its 'error' listeners on an emitter
// warn as an EventEmitter's do.
const signalWarnJS = `
const { once, setMaxListeners, EventEmitter } = require('events');
const log = (...a) => console.log(a.join(' '));
const ws = [];
process.on('warning', (w) => ws.push(w.name + ': ' + w.message));
const ac = new AbortController();
for (let i = 0; i < 11; i++) ac.signal.addEventListener('abort', () => {});
for (let i = 0; i < 11; i++) ac.signal.addEventListener('foo', () => {});
const ac2 = new AbortController(); setMaxListeners(2, ac2.signal);
for (let i = 0; i < 3; i++) ac2.signal.addEventListener('abort', () => {});
const ac3 = new AbortController(); const e = new EventEmitter();
for (let i = 0; i < 11; i++) once(e, 'x' + i, { signal: ac3.signal }).catch(() => {});
ac3.abort();
setTimeout(() => ws.forEach((w) => log(w)), 1);
`

func TestRev10eAbortSignalLeakWarning(t *testing.T) {
	want := looptest.NodeLines(t, signalWarnJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		defer logWarnings(l, log)()
		ac := nodeevents.NewAbortController()
		for range 11 {
			ac.Signal().On("abort", func(...any) {})
		}
		for range 11 {
			ac.Signal().On("foo", func(...any) {})
		}
		ac2 := nodeevents.NewAbortController()
		ac2.Signal().SetMaxListeners(2)
		for range 3 {
			ac2.Signal().On("abort", func(...any) {})
		}
		var ac3 nodeevents.AbortController // a zero value is a controller too
		var e nodeevents.EventEmitter
		for i := range 11 {
			nodeevents.Once(l, &e, fmt.Sprintf("x%d", i), &nodeevents.Options{Signal: ac3.Signal()}).
				Catch(func(error) ([]any, error) { return nil, nil })
		}
		ac3.Abort()
	})
}
