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
  fs.readFile(__filename, (err) => {
    log('F1:' + (err ? err.code : 'ok'));
    fs.stat(__filename + '.missing', (err) => {
      log('F2:' + (err ? err.code : 'ok'));
      fs.stat(__filename, (err) => {
        log('F3:' + (err ? err.code : 'ok'));
      });
      process.nextTick(() => {
        log('K4');
      });
      log('L5');
    });
    queueMicrotask(() => {
      log('M6');
    });
  });
  T[7] = setTimeout(() => {
    log('T7');
    fs.stat(__filename + '.missing', (err) => {
      log('F8:' + (err ? err.code : 'ok'));
      P[9] = Promise.resolve({ then(res, rej) {
        log('N10');
        throw new Error('e10');
      } });
    });
    P[11] = new Promise((res, rej) => {
      R[12] = { res, rej };
      log('X12');
      throw new Error('e13');
    });
  }, 100);
  queueMicrotask(() => {
    log('M14');
    P[15] = Promise.resolve('v16');
  });
}, 0);
