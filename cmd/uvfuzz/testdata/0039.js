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
  P[1] = Promise.resolve('v2');
  log('L3');
  process.nextTick(() => {
    log('K4');
  });
  P[5] = Promise.resolve({ then(res, rej) {
    log('N9');
    queueMicrotask(() => {
      log('M10');
      queueMicrotask(() => {
        log('M11');
        process.nextTick(() => {
          log('K12');
        });
      });
    });
    throw new Error('e9');
  } }).finally(() => {
    log('Y8');
  }).then((v) => {
    log('H7:' + show(v));
    log('L13');
    return 'v14';
  }).finally(() => {
    log('Y6');
    queueMicrotask(() => {
      log('M15');
    });
  });
  T[16] = setTimeout(() => {
    log('T16');
  }, 50);
  fs.stat(__filename, (err) => {
    log('F17:' + (err ? err.code : 'ok'));
    P[18] = Promise.resolve({ then(res, rej) {
      log('N19');
      clearTimeout(T[16]);
      rej(new Error('e19'));
    } });
    process.nextTick(() => {
      log('K20');
      process.nextTick(() => {
        log('K21');
        fs.stat(__filename, (err) => {
          log('F22:' + (err ? err.code : 'ok'));
          queueMicrotask(() => {
            log('M23');
            clearTimeout(T[16]);
            clearInterval(T[16]);
          });
        });
      });
    });
  });
}, 0);
