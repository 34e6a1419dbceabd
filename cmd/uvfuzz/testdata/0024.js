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
  T[1] = setImmediate(() => {
    log('I1');
    fs.readFile(__filename, (err) => {
      log('F2:' + (err ? err.code : 'ok'));
    });
  });
  clearImmediate(T[1]);
  process.nextTick(() => {
    log('K3');
    clearImmediate(T[1]);
  });
  P[4] = new Promise((res, rej) => {
    R[8] = { res, rej };
    log('X8');
    P[9] = (async () => {
      log('A10');
      R[8].rej(new Error('e11'));
      return 'v12';
    })();
  }).finally(() => {
    log('Y7');
    return (async () => {
      log('A13');
      P[14] = Promise.resolve('v16').then(undefined);
      try {
        const v = await new Promise((res, rej) => {
          R[18] = { res, rej };
          log('X18');
          rej(new Error('e19'));
        });
        log('W17:' + show(v));
      } catch (e) {
        log('W17!' + msg(e));
      }
      log('L20');
      return 'v21';
    })();
  }).then((v) => {
    log('H6:' + show(v));
    process.nextTick(() => {
      log('K22');
    });
    clearImmediate(T[1]);
  }, (e) => {
    log('H6!' + msg(e));
  }).then((v) => {
    log('H5:' + show(v));
    return Promise.resolve('v23');
  });
}, 0);
