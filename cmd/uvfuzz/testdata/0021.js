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
    T[2] = setTimeout(() => {
      log('T2');
      T[3] = setInterval(() => {
        C[3] = (C[3] || 0) + 1;
        log('V3.' + C[3]);
        if (C[3] === 2) clearInterval(T[3]);
      }, 100);
      process.nextTick(() => {
        log('K4');
        queueMicrotask(() => {
          log('M5');
        });
        fs.readFile(__filename, (err) => {
          log('F6:' + (err ? err.code : 'ok'));
          P[7] = Promise.resolve({ then(res, rej) {
            log('N8');
            res('v8');
            rej(new Error('e8'));
          } });
        });
      });
    }, 50);
  }, 0);
}, 0);
