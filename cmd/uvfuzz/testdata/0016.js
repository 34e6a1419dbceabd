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
    T[2] = setTimeout(() => {
      log('T2');
      fs.stat(__filename, (err) => {
        log('F3:' + (err ? err.code : 'ok'));
        P[4] = (async () => {
          log('A5');
          P[6] = (async () => {
            log('A7');
            P[8] = Promise.reject(new Error('e9'));
            return 'v10';
          })();
        })();
        queueMicrotask(() => {
          log('M11');
        });
        fs.stat(__filename, (err) => {
          log('F12:' + (err ? err.code : 'ok'));
          fs.readFile(__filename, (err) => {
            log('F13:' + (err ? err.code : 'ok'));
          });
        });
      });
      P[14] = Promise.resolve({ then(res, rej) {
        log('N15');
        queueMicrotask(() => rej(new Error('e15')));
      } });
      process.nextTick(() => {
        log('K16');
      });
    }, 150);
    T[17] = setTimeout(() => {
      log('T17');
      fs.readFile(__filename, (err) => {
        log('F18:' + (err ? err.code : 'ok'));
      });
    }, 50);
  }, 100);
  P[19] = Promise.reject(new Error('e20'));
  fs.stat(__filename, (err) => {
    log('F21:' + (err ? err.code : 'ok'));
    T[22] = setTimeout(() => {
      log('T22');
      clearInterval(T[1]);
    }, 0);
    clearTimeout(T[22]);
  });
  P[23] = Promise.race([Promise.resolve({ then(res, rej) {
    log('N24');
    clearTimeout(T[22]);
    rej(new Error('e24'));
  } }), Promise.resolve({ then(res, rej) {
    log('N25');
    process.nextTick(() => res('v25'));
  } }), Promise.resolve({ then(res, rej) {
    log('N26');
    clearTimeout(T[17]);
    throw new Error('e26');
  } })]);
  P[27] = new Promise((res, rej) => {
    R[28] = { res, rej };
    log('X28');
  });
  clearTimeout(T[1]);
  P[29] = P[23];
  P[30] = Promise.resolve('v31');
}, 0);
