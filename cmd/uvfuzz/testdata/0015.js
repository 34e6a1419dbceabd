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
  T[1] = setTimeout(() => {
    log('T1');
    process.nextTick(() => {
      log('K2');
      T[3] = setImmediate(() => {
        log('I3');
      });
    });
    process.nextTick(() => {
      log('K4');
      log('L5');
    });
  }, 0);
  P[6] = Promise.allSettled([]).finally(() => {
    log('Y7');
    P[8] = Promise.resolve('v9');
    return Promise.resolve({ then(res, rej) {
      log('N10');
      queueMicrotask(() => rej(new Error('e10')));
    } });
  });
  log('L11');
  queueMicrotask(() => {
    log('M12');
  });
  T[13] = setImmediate(() => {
    log('I13');
    clearTimeout(T[1]);
  });
  P[14] = P[6];
  queueMicrotask(() => {
    log('M15');
  });
  P[16] = Promise.resolve({ then(res, rej) {
    log('N18');
    res('v18');
    rej(new Error('e18'));
  } }).finally(() => {
    log('Y17');
  });
}, 0);
