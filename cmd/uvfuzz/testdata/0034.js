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
  T[1] = setTimeout(() => {
    log('T1');
    queueMicrotask(() => {
      log('M2');
      queueMicrotask(() => {
        log('M3');
        fs.stat(__filename + '.missing', (err) => {
          log('F4:' + (err ? err.code : 'ok'));
          P[5] = (async () => {
            log('A6');
            log('L7');
            return 'v8';
          })();
          fs.readFile(__filename, (err) => {
            log('F9:' + (err ? err.code : 'ok'));
            clearTimeout(T[1]);
          });
        });
      });
      T[10] = setTimeout(() => {
        log('T10');
        fs.stat(__filename + '.missing', (err) => {
          log('F11:' + (err ? err.code : 'ok'));
          P[12] = Promise.reject(new Error('e13'));
        });
        P[14] = (async () => {
          log('A15');
          return { then(res, rej) {
            log('N16');
            clearInterval(T[10]);
            res('v16');
            throw new Error('x16');
          } };
        })();
      }, 50);
    });
  }, 0);
  queueMicrotask(() => {
    log('M17');
  });
  P[18] = Promise.resolve('v19');
  P[20] = new Promise((res, rej) => {
    R[21] = { res, rej };
    log('X21');
    res('v22');
  });
  queueMicrotask(() => {
    log('M23');
    T[24] = setImmediate(() => {
      log('I24');
    });
  });
  P[25] = Promise.reject(new Error('e26'));
}, 0);
