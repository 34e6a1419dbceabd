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
  P[1] = Promise.any([new Promise((res, rej) => {
    R[2] = { res, rej };
    log('X2');
    T[3] = setImmediate(() => {
      log('I3');
      P[4] = new Promise((res, rej) => {
        R[5] = { res, rej };
        log('X5');
        T[6] = setTimeout(() => {
          log('T6');
          fs.readFile(__filename, (err) => {
            log('F7:' + (err ? err.code : 'ok'));
          });
        }, 0);
        throw new Error('e8');
      });
      clearTimeout(T[6]);
    });
    clearTimeout(T[6]);
  }), Promise.resolve({ then(res, rej) {
    log('N9');
    res('v9');
  } }), Promise.resolve({ then(res, rej) {
    log('N10');
    throw new Error('e10');
  } })]);
  P[11] = Promise.resolve('v12');
  T[13] = setTimeout(() => {
    log('T13');
  }, 100);
  queueMicrotask(() => {
    log('M14');
    T[15] = setTimeout(() => {
      log('T15');
      fs.stat(__filename + '.missing', (err) => {
        log('F16:' + (err ? err.code : 'ok'));
        log('L17');
        fs.readFile(__filename, (err) => {
          log('F18:' + (err ? err.code : 'ok'));
        });
      });
    }, 150);
    P[19] = (async () => {
      log('A20');
      return 'v21';
    })();
  });
}, 0);
