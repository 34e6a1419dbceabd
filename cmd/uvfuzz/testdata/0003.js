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
  });
  T[2] = setTimeout(() => {
    log('T2');
    clearImmediate(T[1]);
    P[3] = Promise.resolve('v4');
  }, 50);
  process.nextTick(() => {
    log('K5');
    P[6] = new Promise((res, rej) => {
      R[7] = { res, rej };
      log('X7');
      R[7].res('v8');
      throw new Error('e9');
    });
  });
  T[10] = setImmediate(() => {
    log('I10');
  });
  log('L11');
  P[12] = new Promise((res, rej) => {
    R[15] = { res, rej };
    log('X15');
    res(Promise.resolve('v16'));
  }).finally(() => {
    log('Y14');
  }).finally(() => {
    log('Y13');
    throw new Error('e17');
  });
}, 0);
