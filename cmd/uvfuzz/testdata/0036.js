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
    T[2] = setImmediate(() => {
      log('I2');
      P[3] = Promise.allSettled([Promise.resolve({ then(res, rej) {
        log('N4');
        clearImmediate(T[2]);
        res('v4');
        rej(new Error('e4'));
      } }), 'v5', new Promise((res, rej) => {
        R[6] = { res, rej };
        log('X6');
        R[6].res(Promise.resolve('v9').then((v) => {
          log('H8:' + show(v));
          throw new Error('e10');
        }));
        rej(new Error('e11'));
      })]);
      T[12] = setImmediate(() => {
        log('I12');
        queueMicrotask(() => {
          log('M13');
          fs.stat(__filename, (err) => {
            log('F14:' + (err ? err.code : 'ok'));
            clearImmediate(T[12]);
          });
        });
      });
    });
    process.nextTick(() => {
      log('K15');
    });
    T[16] = setTimeout(() => {
      log('T16');
    }, 100);
  });
  clearImmediate(T[12]);
  log('L17');
  P[18] = (async () => {
    log('A20');
    clearImmediate(T[1]);
    clearInterval(T[16]);
  })().finally(() => {
    log('Y19');
    clearTimeout(T[16]);
    clearTimeout(T[16]);
  });
  log('L21');
  process.nextTick(() => {
    log('K22');
    P[23] = Promise.resolve('v24');
  });
}, 0);
