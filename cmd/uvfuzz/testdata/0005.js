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
  P[1] = Promise.reject(new Error('e3')).catch((e) => {
    log('H2!' + msg(e));
    queueMicrotask(() => {
      log('M4');
    });
  });
  P[5] = new Promise((res, rej) => {
    R[6] = { res, rej };
    log('X6');
    T[7] = setTimeout(() => {
      log('T7');
      P[8] = (async () => {
        log('A9');
        clearInterval(T[7]);
        clearInterval(T[7]);
        throw new Error('e10');
      })();
      P[11] = (async () => {
        log('A12');
        clearInterval(T[7]);
        try {
          const v = await P[8];
          log('W13:' + show(v));
        } catch (e) {
          log('W13!' + msg(e));
        }
        P[14] = Promise.resolve('v15');
        return 'v16';
      })();
    }, 100);
    rej(new Error('e17'));
  });
}, 0);
