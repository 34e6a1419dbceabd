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
    process.nextTick(() => {
      log('K2');
      T[3] = setTimeout(() => {
        log('T3');
      }, 100);
    });
    process.nextTick(() => {
      log('K4');
      P[5] = new Promise((res, rej) => {
        R[6] = { res, rej };
        log('X6');
        rej(new Error('e7'));
      });
      P[8] = Promise.resolve({ then(res, rej) {
        log('N9');
        res('v9');
        throw new Error('x9');
      } });
    });
  });
  clearTimeout(T[3]);
  T[10] = setTimeout(() => {
    log('T10');
    P[11] = Promise.resolve('v12');
    clearImmediate(T[1]);
  }, 0);
}, 0);
