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
  queueMicrotask(() => {
    log('M1');
  });
  fs.stat(__filename + '.missing', (err) => {
    log('F2:' + (err ? err.code : 'ok'));
    T[3] = setImmediate(() => {
      log('I3');
    });
    P[4] = Promise.resolve({ then(res, rej) {
      log('N6');
      clearImmediate(T[3]);
      res('v6');
    } }).then((v) => {
      log('H5:' + show(v));
      return Promise.resolve('v7');
    });
  });
  T[8] = setInterval(() => {
    C[8] = (C[8] || 0) + 1;
    log('V8.' + C[8]);
    if (C[8] === 2) clearInterval(T[8]);
  }, 50);
  clearImmediate(T[3]);
  process.nextTick(() => {
    log('K9');
  });
  queueMicrotask(() => {
    log('M10');
  });
  process.nextTick(() => {
    log('K11');
  });
  queueMicrotask(() => {
    log('M12');
    process.nextTick(() => {
      log('K13');
    });
  });
  process.nextTick(() => {
    log('K14');
  });
}, 0);
