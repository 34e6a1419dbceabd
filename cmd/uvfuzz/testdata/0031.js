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
    T[2] = setImmediate(() => {
      log('I2');
    });
    clearImmediate(T[2]);
  });
  log('L3');
  P[4] = Promise.race([Promise.resolve({ then(res, rej) {
    log('N6');
    res('v6');
  } }), (async () => {
    log('A7');
    clearImmediate(T[2]);
    clearImmediate(T[2]);
    return 'v8';
  })(), Promise.resolve({ then(res, rej) {
    log('N9');
    res('v9');
    rej(new Error('e9'));
  } })]).then(undefined);
  T[10] = setTimeout(() => {
    log('T10');
    clearImmediate(T[2]);
  }, 0);
  queueMicrotask(() => {
    log('M11');
  });
  P[12] = P[4].catch((e) => {
    log('H13!' + msg(e));
    return { then(res, rej) {
      log('N14');
      throw new Error('e14');
    } };
  });
  clearImmediate(T[2]);
  T[15] = setTimeout(() => {
    log('T15');
    fs.readFile(__filename, (err) => {
      log('F16:' + (err ? err.code : 'ok'));
      P[17] = Promise.race([Promise.reject(new Error('e18'))]);
      T[19] = setTimeout(() => {
        log('T19');
        queueMicrotask(() => {
          log('M20');
          fs.readFile(__filename, (err) => {
            log('F21:' + (err ? err.code : 'ok'));
          });
        });
        clearTimeout(T[15]);
      }, 50);
      T[22] = setImmediate(() => {
        log('I22');
        P[23] = Promise.any([(async () => {
          log('A26');
          log('L27');
          clearTimeout(T[10]);
          return 'v28';
        })(), Promise.reject(new Error('e29')), Promise.resolve('v30')]).then((v) => {
          log('H25:' + show(v));
          return 'v31';
        }).then(undefined, (e) => {
          log('H24!' + msg(e));
          throw new Error('e32');
        });
      });
    });
  }, 150);
}, 0);
