'use strict';
const fs = require('fs');
const net = require('net');
const T = [], P = [], R = [], C = [];
// stdout is made (and its first write done) before any timer is set: made lazily, by the
// first console.log, it takes up to tens of milliseconds on a loaded machine.
const out = process.stdout;
out.write('');
let cur = ''; // the actor that logged last
const log = (s) => {
  const i = s.indexOf('|');
  cur = i < 0 ? '' : s.slice(0, i + 1);
  out.write(s + '\n');
};
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
process.on('unhandledRejection', (r, p) => { reasons.set(p, msg(r)); log(cur + 'unhandled:' + msg(r)); });
process.on('rejectionHandled', (p) => { log(cur + 'handled:' + reasons.get(p)); });
setTimeout(() => {
  log('L1');
  P[2] = Promise.any([]).then((v) => {
    log('H3:' + show(v));
    queueMicrotask(() => {
      log('M4');
    });
    P[5] = Promise.allSettled([new Promise((res, rej) => {
      R[7] = { res, rej };
      log('X7');
      rej(new Error('e8'));
    }).then(undefined)]);
    return { then(res, rej) {
      log('N9');
      res('v9');
      throw new Error('x9');
    } };
  });
}, 0);
