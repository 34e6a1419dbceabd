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
  T[2] = setTimeout(() => {
    log('T2');
    T[3] = setInterval(() => {
      C[3] = (C[3] || 0) + 1;
      log('V3.' + C[3]);
      if (C[3] === 3) clearInterval(T[3]);
    }, 100);
  }, 0);
  clearInterval(T[2]);
  process.nextTick(() => {
    log('K4');
  });
  P[5] = Promise.allSettled(['v7', new Promise((res, rej) => {
    R[8] = { res, rej };
    log('X8');
    rej(new Error('e9'));
  }), Promise.resolve({ then(res, rej) {
    log('N10');
    clearTimeout(T[3]);
    res('v10');
  } })]).finally(() => {
    log('Y6');
    clearTimeout(T[2]);
  });
  P[11] = P[5].finally(() => {
    log('Y12');
    P[13] = new Promise((res, rej) => {
      R[15] = { res, rej };
      log('X15');
      R[15].res({ then(res, rej) {
        log('N17');
        process.nextTick(() => res('v17'));
      } });
      R[15].res('v18');
      rej(new Error('e19'));
    }).then((v) => {
      log('H14:' + show(v));
      throw new Error('e20');
    }, (e) => {
      log('H14!' + msg(e));
      return 'v21';
    });
  });
}, 0);
