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
  clearTimeout(T[1]);
}, 0);
queueMicrotask(() => {
  log('M2');
});
P[3] = (async () => {
  log('A4');
  clearTimeout(T[1]);
  clearInterval(T[1]);
  throw new Error('e5');
})();
P[6] = (async () => {
  log('A7');
  clearTimeout(T[1]);
  clearInterval(T[1]);
  throw new Error('e8');
})();
T[9] = setTimeout(() => {
  log('T9');
  process.nextTick(() => {
    log('K10');
    log('L11');
  });
}, 100);
P[12] = Promise.resolve({ then(res, rej) {
  log('N13');
  process.nextTick(() => {
    log('K14');
  });
  rej(new Error('e13'));
} });
clearTimeout(T[1]);
clearTimeout(T[1]);
T[15] = setInterval(() => {
  C[15] = (C[15] || 0) + 1;
  log('V15.' + C[15]);
  queueMicrotask(() => {
    log('M16');
    clearTimeout(T[9]);
  });
  P[17] = Promise.race([Promise.race([]), (async () => {
    log('A18');
    clearTimeout(T[15]);
    clearTimeout(T[1]);
    return Promise.any([]);
  })()]);
  if (C[15] === 1) clearInterval(T[15]);
}, 50);
log('L19');
clearInterval(T[15]);
queueMicrotask(() => {
  log('M20');
  T[21] = setInterval(() => {
    C[21] = (C[21] || 0) + 1;
    log('V21.' + C[21]);
    if (C[21] === 2) clearInterval(T[21]);
  }, 100);
});
clearTimeout(T[9]);
clearInterval(T[1]);
P[22] = Promise.resolve('v23');
log('L24');
