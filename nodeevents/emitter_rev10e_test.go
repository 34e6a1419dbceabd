package nodeevents_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/uvloop"
)

// The emitter's bookkeeping, as node v20 runs the twin: 'newListener' before the change and
// 'removeListener' after it, an emit over a snapshot (a listener removed during it still
// runs, one added waits), a once listener removed before it fires, prepend, listenerCount
// with a listener, rawListeners and calling a once wrapper, and emit's result.
const emitterJS = `
const EE = require('events'); const log = (...a) => console.log(a.join(' '));
const e = new EE();
e.on('newListener', (ev) => log('newListener', String(ev), e.listenerCount(ev)));
e.on('removeListener', (ev) => log('removeListener', String(ev), e.listenerCount(ev)));
const b = () => log('b'), c = () => log('c'), d = () => log('d'), o = () => log('o');
const a = () => { log('a'); e.removeListener('x', b); e.on('x', d); };
e.on('x', a); e.on('x', b); e.once('x', c);
log('emit', e.emit('x', 1));
log('emit', e.emit('x', 2));
log('emit none', e.emit('nothing'));
e.once('y', o); log('count o', e.listenerCount('y', o)); e.removeListener('y', o); log('emit y', e.emit('y'));
e.on('z', () => { log('z1'); e.removeListener('z', o); }); e.once('z', o); e.emit('z'); e.emit('z');
e.prependListener('p', () => log('p2')); e.prependOnceListener('p', () => log('p1')); e.emit('p'); e.emit('p');
e.on('q', b); e.once('q', b); e.on('q', c);
log('count', e.listenerCount('q'), e.listenerCount('q', b), e.listenerCount('q', c), e.listenerCount('q', d));
log('raw', e.rawListeners('q').map((f) => f.listener === b ? 'once(b)' : f === b ? 'b' : f === c ? 'c' : '?').join(','));
e.listeners('q').forEach((f) => f());
e.rawListeners('q')[1](); log('after raw call', e.listenerCount('q'));
e.rawListeners('q')[0](); log('after raw call', e.listenerCount('q'));
log('names', e.eventNames().join(','));
e.removeAllListeners('q');
log('names', e.eventNames().join(','));
e.removeAllListeners();
log('names after', e.eventNames().join(','), e.emit('x'));
`

func TestRev10eEmitterBookkeeping(t *testing.T) {
	want := looptest.NodeLines(t, emitterJS)
	looptest.Scenario(t, want, func(_ *uvloop.Loop, log func(...any)) {
		var e nodeevents.EventEmitter
		e.On("newListener", func(args ...any) { log("newListener", args[0], e.ListenerCount(args[0].(string))) })
		e.On("removeListener", func(args ...any) { log("removeListener", args[0], e.ListenerCount(args[0].(string))) })
		b := func(...any) { log("b") }
		c := func(...any) { log("c") }
		d := func(...any) { log("d") }
		o := func(...any) { log("o") }
		a := func(...any) { log("a"); e.RemoveListener("x", b); e.On("x", d) }
		e.On("x", a)
		e.On("x", b)
		e.Once("x", c)
		log("emit", e.Emit("x", 1))
		log("emit", e.Emit("x", 2))
		log("emit none", e.Emit("nothing"))
		e.Once("y", o)
		log("count o", e.ListenerCount("y", o))
		e.RemoveListener("y", o)
		log("emit y", e.Emit("y"))
		e.On("z", func(...any) { log("z1"); e.RemoveListener("z", o) })
		e.Once("z", o)
		e.Emit("z")
		e.Emit("z")
		e.PrependListener("p", func(...any) { log("p2") })
		e.PrependOnceListener("p", func(...any) { log("p1") })
		e.Emit("p")
		e.Emit("p")
		e.On("q", b)
		e.Once("q", b)
		e.On("q", c)
		log("count", e.ListenerCount("q"), e.ListenerCount("q", b), e.ListenerCount("q", c), e.ListenerCount("q", d))
		var raw []string
		for _, l := range e.RawListeners("q") {
			switch {
			case l.IsOnce():
				raw = append(raw, "once(b)")
			case len(raw) == 0:
				raw = append(raw, "b")
			default:
				raw = append(raw, "c")
			}
		}
		log("raw", strings.Join(raw, ","))
		for _, f := range e.Listeners("q") {
			f()
		}
		e.RawListeners("q")[1].Call()
		log("after raw call", e.ListenerCount("q"))
		e.RawListeners("q")[0].Call()
		log("after raw call", e.ListenerCount("q"))
		log("names", strings.Join(e.EventNames(), ","))
		e.RemoveAllListeners("q")
		log("names", strings.Join(e.EventNames(), ","))
		e.RemoveAllListeners()
		log("names after", strings.Join(e.EventNames(), ","), e.Emit("x"))
	})
}

// 'error' with no listener: node throws the error itself, or an ERR_UNHANDLED_ERROR whose
// message shows the value as util.inspect does (a string in quotes, undefined for none);
// errorMonitor listeners see it first.
const unhandledJS = `
const EE = require('events'); const log = (...a) => console.log(a.join(' '));
const e = new EE();
e.on(EE.errorMonitor, (err) => log('monitor', String(err).replace(/\n/g, '\\n')));
const boom = new Error('boom');
for (const v of [boom, 'str', "it's", 'a\\b\n\x01', 'it\'s "q"', 'it\'s "q" \x60b\x60', 42, undefined]) {
  try { v === undefined ? e.emit('error') : e.emit('error', v); log('no throw'); }
  catch (err) { log('threw', err === boom, String(err.code), err.message); }
}
e.on('error', (err) => log('handled', err.message));
log('emit', e.emit('error', boom));
`

func TestRev10eUnhandledError(t *testing.T) {
	want := looptest.NodeLines(t, unhandledJS)
	looptest.Scenario(t, want, func(_ *uvloop.Loop, log func(...any)) {
		var e nodeevents.EventEmitter
		e.On(nodeevents.ErrorMonitor, func(args ...any) {
			if len(args) == 0 {
				log("monitor", "undefined")
				return
			}
			s := fmt.Sprint(args[0])
			if err, ok := args[0].(error); ok {
				s = "Error: " + err.Error()
			}
			log("monitor", strings.ReplaceAll(s, "\n", `\n`))
		})
		boom := fmt.Errorf("boom")
		for _, v := range []any{boom, "str", "it's", "a\\b\n\x01", `it's "q"`, "it's \"q\" `b`", 42, nil} {
			func() {
				defer func() {
					r := recover()
					if r == nil {
						return
					}
					code := "undefined"
					if c, ok := r.(interface{ Code() string }); ok {
						code = c.Code()
					}
					log("threw", r == any(boom), code, r.(error).Error())
				}()
				if v == nil {
					e.Emit("error")
				} else {
					e.Emit("error", v)
				}
				log("no throw")
			}()
		}
		e.On("error", func(args ...any) { log("handled", args[0].(error).Error()) })
		log("emit", e.Emit("error", boom))
	})
}

// eventNames lists names as Reflect.ownKeys does: array-index names first, in numeric
// order, then the others in insertion order, then symbols (errorMonitor); removeAllListeners()
// removes in that order, 'removeListener' last, each event's listeners last added first.
const namesJS = `
const EE = require('events'); const log = (...a) => console.log(a.join(' '));
const e = new EE();
const f = (n) => () => log(n);
e.on('b', f('b')); e.on('10', f('10')); e.on(EE.errorMonitor, f('m')); e.on('2', f('2')); e.on('a', f('a'));
e.on('02', f('02')); e.on('4294967295', f('big')); e.on('4294967294', f('max')); e.on('-1', f('neg'));
e.on('2', f('2 again'));
log('names', e.eventNames().map(String).join(','));
e.on('removeListener', (n, fn) => { log('removed', String(n)); fn(); });
e.removeAllListeners();
log('names', e.eventNames().join(','));
`

func TestRev10eEventNamesOrder(t *testing.T) {
	want := looptest.NodeLines(t, namesJS)
	looptest.Scenario(t, want, func(_ *uvloop.Loop, log func(...any)) {
		var e nodeevents.EventEmitter
		f := func(n string) func(...any) { return func(...any) { log(n) } }
		e.On("b", f("b"))
		e.On("10", f("10"))
		e.On(nodeevents.ErrorMonitor, f("m"))
		e.On("2", f("2"))
		e.On("a", f("a"))
		e.On("02", f("02"))
		e.On("4294967295", f("big"))
		e.On("4294967294", f("max"))
		e.On("-1", f("neg"))
		e.On("2", f("2 again"))
		log("names", strings.Join(e.EventNames(), ","))
		e.On("removeListener", func(args ...any) { log("removed", args[0]); args[1].(func(...any))() })
		e.RemoveAllListeners()
		log("names", strings.Join(e.EventNames(), ","))
	})
}

// The leak warning: node keeps its "warned" mark on the listener array, which goes when the
// event is down to one listener, so an event that falls back and grows again warns again.
const warnJS = `
const EE = require('events'); const log = (...a) => console.log(a.join(' '));
const ws = [];
process.on('warning', (w) => ws.push(w.name + ': ' + w.message));
const e = new EE(); e.setMaxListeners(1);
const f1 = () => {}, f2 = () => {}, f3 = () => {}, f4 = () => {};
e.on('x', f1); e.on('x', f2); log('count', e.listenerCount('x'));
e.on('x', f3); e.removeListener('x', f3); e.removeListener('x', f2); log('count', e.listenerCount('x'));
e.prependListener('x', f4); log('count', e.listenerCount('x'));
e.removeAllListeners('x'); e.on('x', f1); e.once('x', f2); e.on('y', f1); e.on('y', f2);
setTimeout(() => ws.forEach((w) => log(w)), 1);
`

func TestRev10eLeakWarningAgain(t *testing.T) {
	want := looptest.NodeLines(t, warnJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		defer logWarnings(l, log)()
		var e nodeevents.EventEmitter
		e.SetMaxListeners(1)
		f1, f2, f3, f4 := func(...any) {}, func(...any) {}, func(...any) {}, func(...any) {}
		e.On("x", f1)
		e.On("x", f2)
		log("count", e.ListenerCount("x"))
		e.On("x", f3)
		e.RemoveListener("x", f3)
		e.RemoveListener("x", f2)
		log("count", e.ListenerCount("x"))
		e.PrependListener("x", f4)
		log("count", e.ListenerCount("x"))
		e.RemoveAllListeners("x")
		e.On("x", f1)
		e.Once("x", f2)
		e.On("y", f1)
		e.On("y", f2)
	})
}

// logWarnings makes this package's warnings go to a list until the returned func is called,
// and logs the list from a timer, as the twins print what their process.on('warning')
// collected.
func logWarnings(l *uvloop.Loop, log func(...any)) (restore func()) {
	var ws []string
	restore = nodeevents.SetWarningHandler(func(w error) { ws = append(ws, nodeevents.WarningName(w)+": "+w.Error()) })
	l.SetTimeout(func() {
		for _, w := range ws {
			log(w)
		}
	}, time.Millisecond)
	return restore
}
