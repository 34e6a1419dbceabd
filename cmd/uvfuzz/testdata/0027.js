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
  queueMicrotask(() => {
    log('M1');
    fs.readFile(__filename, (err) => {
      log('F2:' + (err ? err.code : 'ok'));
      T[3] = setImmediate(() => {
        log('I3');
        clearImmediate(T[3]);
        P[4] = new Promise((res, rej) => {
          R[5] = { res, rej };
          log('X5');
          res('v6');
        });
      });
      T[7] = setTimeout(() => {
        log('T7');
        P[8] = new Promise((res, rej) => {
          R[10] = { res, rej };
          log('X10');
          T[11] = setTimeout(() => {
            log('T11');
            clearInterval(T[7]);
          }, 150);
          res('v12');
        }).then((v) => {
          log('H9:' + show(v));
          return 'v13';
        }, (e) => {
          log('H9!' + msg(e));
          return 'v14';
        });
      }, 150);
    });
    T[15] = setTimeout(() => {
      log('T15');
    }, 50);
  });
  clearTimeout(T[15]);
  T[16] = setTimeout(() => {
    log('T16');
    log('L17');
  }, 50);
  T[18] = setTimeout(() => {
    log('T18');
  }, 100);
}, 0);
