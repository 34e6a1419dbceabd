package promise_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

const callbackJS = `
const log = (...a) => console.log(a.join(' '));
const util = require('util');
setTimeout(() => {
  const ok = util.callbackify(async () => 1);
  ok((err, v) => { log('cb ok', err, v); Promise.resolve().then(() => log('m from cb')); process.nextTick(() => log('tick from cb')); });
  const bad = util.callbackify(async () => { throw new Error('x'); });
  bad((err, v) => log('cb bad', err.message, v));
  const falsy = util.callbackify(() => Promise.reject(null));
  falsy((err) => log('cb falsy', err.name, err.code, err.message, err.reason));
  const zero = util.callbackify(() => Promise.reject(0));
  zero((err) => log('cb zero', err.name, err.code, err.message, err.reason));
  const str = util.callbackify(() => Promise.reject('why'));
  str((err) => log('cb string', err));
  process.nextTick(() => log('tick'));
  Promise.resolve().then(() => log('m1')).then(() => log('m2')).then(() => log('m3'));
  util.promisify((cb) => cb(null, 5))().then(v => log('promisify sync', v));
  util.promisify((cb) => setImmediate(() => cb(new Error('late'))))().catch(e => log('promisify late', e.message));
  util.promisify((cb) => { throw new Error('sync'); })().catch(e => log('promisify throws', e.message));
  util.promisify((cb) => { cb(null, 1); throw new Error('after'); })().then(v => log('promisify throws after', v));
  util.promisify((cb) => { cb(null, 1); cb(null, 2); })().then(v => log('twice', v));
  log('sync');
}, 0);
`

// falsyLine prints a Callbackify error as the twin prints node's: name, code, message and
// reason of an ERR_FALSY_VALUE_REJECTION, else the error's text.
func falsyLine(err error) string {
	var fe *promise.FalsyValueRejectionError
	if !errors.As(err, &fe) {
		return fmt.Sprintf("not ERR_FALSY_VALUE_REJECTION: %v", err)
	}
	reason := ""
	if fe.Reason != nil {
		reason = fmt.Sprint(fe.Reason)
	}
	return fmt.Sprintf("%s %s %s %s", fe.Name(), fe.Code(), fe.Error(), reason)
}

// TestRev10pCallbackify pins Callbackify (the callback from a nextTick queued by the
// reaction, so after the microtasks queued before; a falsy reason, nil or 0, becomes
// ERR_FALSY_VALUE_REJECTION with the reason kept; another non-error reason passes as it is)
// and Promisify (the callback settles the promise in its call; a panic before it rejects,
// after it is ignored, and so is a second call), against node's util, in every mode.
func TestRev10pCallbackify(t *testing.T) {
	want := looptest.NodeLines(t, callbackJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		promise.Callbackify(promise.Async(l, func() (int, error) { return 1, nil }), func(err error, v int) {
			e := ""
			if err != nil {
				e = err.Error()
			}
			log("cb ok", e, v)
			thenLog(l, func() { log("m from cb") })
			l.NextTick(func() { log("tick from cb") })
		})
		promise.Callbackify(promise.Async(l, func() (int, error) { return 0, errors.New("x") }), func(err error, v int) {
			log("cb bad", err.Error(), "")
		})
		promise.Callbackify(promise.Reject[int](l, nil), func(err error, v int) { log("cb falsy", falsyLine(err)) })
		promise.Callbackify(promise.Reject[int](l, promise.Reason(0)), func(err error, v int) { log("cb zero", falsyLine(err)) })
		promise.Callbackify(promise.Reject[int](l, promise.Reason("why")), func(err error, v int) {
			var ve *promise.ValueError
			if errors.As(err, &ve) {
				log("cb string", ve.Value)
			} else {
				log("cb string", err)
			}
		})
		l.NextTick(func() { log("tick") })
		rev10pRuler(l, log, 3, nil)
		logValue(promise.Promisify(l, func(cb func(error, int)) { cb(nil, 5) }), log, "promisify sync")
		logReason(promise.Promisify(l, func(cb func(error, int)) {
			l.SetImmediate(func() { cb(errors.New("late"), 0) })
		}), log, "promisify late")
		logReason(promise.Promisify(l, func(cb func(error, int)) { panic(errors.New("sync")) }), log, "promisify throws")
		logValue(promise.Promisify(l, func(cb func(error, int)) { cb(nil, 1); panic(errors.New("after")) }), log, "promisify throws after")
		logValue(promise.Promisify(l, func(cb func(error, int)) { cb(nil, 1); cb(nil, 2) }), log, "twice")
		log("sync")
	})
}
