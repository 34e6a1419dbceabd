'use strict';
const fs = require('fs');
const T = [], P = [], R = [], C = [];
const log = (s) => console.log(s);
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
T[1] = setTimeout(() => {
  log('T1');
  process.nextTick(() => {
    log('K2');
    T[3] = setImmediate(() => {
      log('I3');
    });
  });
  process.nextTick(() => {
    log('K4');
    log('L5');
  });
}, 0);
P[6] = Promise.allSettled([]).finally(() => {
  log('Y7');
  P[8] = Promise.resolve('v9');
  return Promise.resolve({ then(res, rej) {
    log('N10');
    queueMicrotask(() => rej(new Error('e10')));
  } });
});
log('L11');
queueMicrotask(() => {
  log('M12');
});
clearTimeout(T[1]);
clearTimeout(T[1]);
P[13] = P[6];
queueMicrotask(() => {
  log('M14');
});
P[15] = Promise.resolve({ then(res, rej) {
  log('N17');
  res('v17');
  rej(new Error('e17'));
} }).finally(() => {
  log('Y16');
  P[18] = Promise.reject(new Error('e19'));
});
