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
  fs.stat(__filename, (err) => {
    log('F1:' + (err ? err.code : 'ok'));
  });
  P[2] = Promise.race([Promise.resolve({ then(res, rej) {
    log('N3');
    rej(new Error('e3'));
  } })]);
  queueMicrotask(() => {
    log('M4');
  });
  queueMicrotask(() => {
    log('M5');
  });
  T[6] = setInterval(() => {
    C[6] = (C[6] || 0) + 1;
    log('V6.' + C[6]);
    clearTimeout(T[6]);
    P[7] = P[2].finally(() => {
      log('Y8');
      throw new Error('e9');
    });
    if (C[6] === 2) clearInterval(T[6]);
  }, 50);
  log('L10');
  clearInterval(T[6]);
  clearTimeout(T[6]);
  clearInterval(T[6]);
  clearInterval(T[6]);
  clearInterval(T[6]);
  queueMicrotask(() => {
    log('M11');
    log('L12');
  });
  queueMicrotask(() => {
    log('M13');
  });
  clearTimeout(T[6]);
  clearInterval(T[6]);
  queueMicrotask(() => {
    log('M14');
    clearTimeout(T[6]);
  });
  clearTimeout(T[6]);
}, 0);
