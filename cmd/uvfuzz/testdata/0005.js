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
  P[1] = Promise.reject(new Error('e3')).catch((e) => {
    log('H2!' + msg(e));
    queueMicrotask(() => {
      log('M4');
    });
  });
  P[5] = new Promise((res, rej) => {
    R[6] = { res, rej };
    log('X6');
    T[7] = setInterval(() => {
      C[7] = (C[7] || 0) + 1;
      log('V7.' + C[7]);
      if (C[7] === 2) clearInterval(T[7]);
    }, 100);
    P[8] = Promise.allSettled(['v9', Promise.resolve({ then(res, rej) {
      log('N10');
      res('v10');
    } }), 'v11']);
  });
  process.nextTick(() => {
    log('K12');
    fs.readdir(D, (err, names) => {
      log('F13:' + (err ? err.code : 'ok:' + names.sort().join(',')));
      fs.writeFile(D + '/f1', 'w14', (err) => {
        log('F14:' + (err ? err.code : 'ok'));
        process.nextTick(() => {
          log('K15');
        });
        T[16] = setImmediate(() => {
          log('I16');
        });
        T[17] = setImmediate(() => {
          log('I17');
          clearImmediate(T[17]);
        });
      });
    });
  });
}, 0);
