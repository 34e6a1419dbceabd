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
    log('L2');
    process.nextTick(() => {
      log('K3');
    });
  });
  queueMicrotask(() => {
    log('M4');
    log('L5');
  });
  log('L6');
  log('L7');
  P[8] = Promise.race(['v9']);
  queueMicrotask(() => {
    log('M10');
    log('L11');
  });
  T[12] = setInterval(() => {
    C[12] = (C[12] || 0) + 1;
    log('V12.' + C[12]);
    if (C[12] === 1) clearInterval(T[12]);
  }, 50);
  clearTimeout(T[12]);
}, 0);
