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
  log('L1');
  queueMicrotask(() => {
    log('M2');
    T[3] = setTimeout(() => {
      log('T3');
      P[4] = Promise.resolve('v6').then((v) => {
        log('H5:' + show(v));
        process.nextTick(() => {
          log('K7');
          clearInterval(T[3]);
        });
        throw new Error('e8');
      });
      fs.readFile(__filename, (err) => {
        log('F9:' + (err ? err.code : 'ok'));
        T[10] = setTimeout(() => {
          log('T10');
        }, 100);
      });
      P[11] = Promise.reject(new Error('e12'));
    }, 50);
  });
}, 0);
