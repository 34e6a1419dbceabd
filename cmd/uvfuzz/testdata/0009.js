'use strict';
const fs = require('fs');
const T = [], P = [], R = [], C = [];
// stdout is made (and its first write done) before any timer is set: made lazily, by the
// first console.log, it takes up to tens of milliseconds on a loaded machine.
const out = process.stdout;
out.write('');
const log = (s) => out.write(s + '\n');
function msg(e) {
  if (e instanceof AggregateError) return 'agg[' + e.errors.map(msg).join(',') + ']';
  return e instanceof Error ? e.message : 'non-error:' + String(e);
}
function show(v) {
  if (Array.isArray(v)) return '[' + v.map(show).join(',') + ']';
  if (v !== null && typeof v === 'object' && 'status' in v)
    return v.status === 'fulfilled' ? 'f:' + show(v.value) : 'r:' + msg(v.reason);
  return String(v);
}
const reasons = new Map();
process.on('unhandledRejection', (r, p) => { reasons.set(p, msg(r)); log('unhandled:' + msg(r)); });
process.on('rejectionHandled', (p) => { log('handled:' + reasons.get(p)); });
setTimeout(() => {
  T[1] = setImmediate(() => {
    log('I1');
    T[2] = setTimeout(() => {
      log('T2');
    }, 0);
  });
  P[3] = Promise.allSettled([Promise.race([Promise.resolve('v4'), (async () => {
    log('A5');
    try {
      const v = await { then(res, rej) {
        log('N7');
        log('L8');
        queueMicrotask(() => rej(new Error('e7')));
      } };
      log('W6:' + show(v));
    } catch (e) {
      log('W6!' + msg(e));
    }
    throw new Error('e9');
  })(), Promise.race([Promise.resolve('v12').then((v) => {
    log('H11:' + show(v));
    clearTimeout(T[2]);
    return 'v13';
  }).then((v) => {
    log('H10:' + show(v));
    clearInterval(T[2]);
    return (async () => {
      log('A15');
      return new Promise((res, rej) => {
        R[16] = { res, rej };
        log('X16');
        clearImmediate(T[1]);
        process.nextTick(() => {
          log('K17');
          queueMicrotask(() => {
            log('M18');
            log('L19');
          });
        });
        res({ then(res, rej) {
          log('N20');
          throw new Error('e20');
        } });
      });
    })().then((v) => {
      log('H14:' + show(v));
      return v;
    });
  }, (e) => {
    log('H10!' + msg(e));
    P[21] = Promise.race([Promise.resolve({ then(res, rej) {
      log('N23');
      P[24] = (async () => {
        log('A27');
        return 'v28';
      })().then((v) => {
        log('H26:' + show(v));
      }).then(undefined);
      process.nextTick(() => res('v23'));
    } }), 'v29', new Promise((res, rej) => {
      R[30] = { res, rej };
      log('X30');
      throw new Error('e31');
    })]).finally(() => {
      log('Y22');
    });
    throw new Error('e32');
  })])]), 'v33', Promise.reject(new Error('e34'))]);
}, 0);
