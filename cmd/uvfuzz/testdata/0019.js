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
  T[1] = setInterval(() => {
    C[1] = (C[1] || 0) + 1;
    log('V1.' + C[1]);
    if (C[1] === 3) clearInterval(T[1]);
  }, 50);
  fs.readFile(__filename, (err) => {
    log('F2:' + (err ? err.code : 'ok'));
    queueMicrotask(() => {
      log('M3');
    });
  });
  P[4] = new Promise((res, rej) => {
    R[6] = { res, rej };
    log('X6');
    rej(new Error('e7'));
  }).finally(() => {
    log('Y5');
    return Promise.resolve({ then(res, rej) {
      log('N8');
      res('v8');
      throw new Error('x8');
    } });
  });
  clearTimeout(T[1]);
  P[9] = P[4];
}, 0);
