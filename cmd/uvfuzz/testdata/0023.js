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
const D = fs.mkdtempSync(require('path').join(require('os').tmpdir(), 'uvfuzz-'));
process.on('exit', () => fs.rmSync(D, { recursive: true, force: true }));
setTimeout(() => {
  P[1] = Promise.resolve({ then(res, rej) {
    log('N2');
    process.nextTick(() => {
      log('K3');
      queueMicrotask(() => {
        log('M4');
      });
      process.nextTick(() => {
        log('K5');
        queueMicrotask(() => {
          log('M6');
        });
      });
    });
    res('v2');
    rej(new Error('e2'));
  } });
  T[7] = setImmediate(() => {
    log('I7');
    fs.stat(D + '/f1', (err, st) => {
      log('F8:' + (err ? err.code : 'ok:' + st.size));
      log('L9');
      clearImmediate(T[7]);
      T[10] = setImmediate(() => {
        log('I10');
        clearImmediate(T[7]);
        P[11] = Promise.resolve('v12');
      });
    });
  });
}, 0);
