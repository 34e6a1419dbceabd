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
  P[1] = Promise.resolve({ then(res, rej) {
    log('N2');
    process.nextTick(() => {
      log('K3');
      queueMicrotask(() => {
        log('M4');
      });
      process.nextTick(() => {
        log('K5');
        log('L6');
      });
    });
    res('v2');
    rej(new Error('e2'));
  } });
  T[7] = setInterval(() => {
    C[7] = (C[7] || 0) + 1;
    log('V7.' + C[7]);
    queueMicrotask(() => {
      log('M8');
      log('L9');
    });
    if (C[7] === 1) clearInterval(T[7]);
  }, 50);
  T[10] = setImmediate(() => {
    log('I10');
    T[11] = setImmediate(() => {
      log('I11');
      clearTimeout(T[7]);
    });
  });
}, 0);
