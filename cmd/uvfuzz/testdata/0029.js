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
  T[2] = setInterval(() => {
    C[2] = (C[2] || 0) + 1;
    log('V2.' + C[2]);
    if (C[2] === 3) clearInterval(T[2]);
  }, 50);
  T[3] = setImmediate(() => {
    log('I3');
    fs.stat(__filename + '.missing', (err) => {
      log('F4:' + (err ? err.code : 'ok'));
      T[5] = setImmediate(() => {
        log('I5');
      });
    });
    P[6] = Promise.resolve('v8').then((v) => {
      log('H7:' + show(v));
      clearTimeout(T[2]);
      clearTimeout(T[2]);
      return Promise.reject(new Error('e9'));
    });
  });
  P[10] = Promise.resolve('v11');
  process.nextTick(() => {
    log('K12');
  });
  T[13] = setImmediate(() => {
    log('I13');
    P[14] = Promise.any([Promise.resolve({ then(res, rej) {
      log('N15');
      res('v15');
    } }), Promise.resolve({ then(res, rej) {
      log('N16');
      rej(new Error('e16'));
    } })]);
  });
  T[17] = setImmediate(() => {
    log('I17');
  });
  P[18] = P[10];
  P[19] = Promise.reject(new Error('e22')).then((v) => {
    log('H21:' + show(v));
    return v;
  }).then((v) => {
    log('H20:' + show(v));
    clearTimeout(T[2]);
    clearTimeout(T[2]);
    return v;
  }, (e) => {
    log('H20!' + msg(e));
    queueMicrotask(() => {
      log('M23');
    });
    log('L24');
    return 'v25';
  });
  P[26] = (async () => {
    log('A27');
    return 'v28';
  })();
}, 0);
