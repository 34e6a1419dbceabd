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
log('L10');
clearImmediate(T[2]);
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
        return 'v27';
      })(), Promise.resolve('v28'), 'v29']).then((v) => {
        log('H25:' + show(v));
        throw new Error('e30');
      }, (e) => {
        log('H25!' + msg(e));
      }).then((v) => {
        log('H24:' + show(v));
        return 'v31';
      });
    });
  });
}, 150);
