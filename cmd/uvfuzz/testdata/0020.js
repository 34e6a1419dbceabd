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
  fs.readFile(__filename, (err) => {
    log('F2:' + (err ? err.code : 'ok'));
    fs.readFile(__filename, (err) => {
      log('F3:' + (err ? err.code : 'ok'));
      T[4] = setInterval(() => {
        C[4] = (C[4] || 0) + 1;
        log('V4.' + C[4]);
        P[5] = (async () => {
          log('A6');
          queueMicrotask(() => {
            log('M7');
            P[8] = Promise.reject(new Error('e9'));
          });
          return (async () => {
            log('A12');
            clearTimeout(T[4]);
            return Promise.resolve('v13');
          })().finally(() => {
            log('Y11');
            throw new Error('e14');
          }).then((v) => {
            log('H10:' + show(v));
            return v;
          });
        })();
        if (C[4] === 1) clearInterval(T[4]);
      }, 50);
      fs.readFile(__filename, (err) => {
        log('F15:' + (err ? err.code : 'ok'));
        T[16] = setTimeout(() => {
          log('T16');
          fs.readFile(__filename, (err) => {
            log('F17:' + (err ? err.code : 'ok'));
            P[18] = Promise.resolve('v19');
          });
          clearTimeout(T[16]);
        }, 0);
        log('L20');
      });
    });
    T[21] = setTimeout(() => {
      log('T21');
      log('L22');
      log('L23');
    }, 100);
  });
  clearTimeout(T[21]);
}, 0);
