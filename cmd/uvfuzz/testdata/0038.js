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
  fs.readFile(__filename, (err) => {
    log('F1:' + (err ? err.code : 'ok'));
    fs.stat(__filename, (err) => {
      log('F2:' + (err ? err.code : 'ok'));
    });
    queueMicrotask(() => {
      log('M3');
      T[4] = setTimeout(() => {
        log('T4');
        P[5] = new Promise((res, rej) => {
          R[8] = { res, rej };
          log('X8');
          res(Promise.reject(new Error('e9')));
        }).finally(() => {
          log('Y7');
          log('L10');
        }).catch((e) => {
          log('H6!' + msg(e));
          clearTimeout(T[4]);
          return 'v11';
        });
        P[12] = P[5];
      }, 50);
    });
    T[13] = setTimeout(() => {
      log('T13');
      log('L14');
    }, 50);
  });
  P[15] = Promise.resolve('v16');
  clearInterval(T[4]);
  P[17] = (async () => {
    log('A21');
    log('W22:' + show(await (async () => {
      log('A23');
      return 'v24';
    })()));
    clearTimeout(T[4]);
    return 'v25';
  })().catch((e) => {
    log('H20!' + msg(e));
    return 'v26';
  }).finally(() => {
    log('Y19');
    clearTimeout(T[13]);
    return { then(res, rej) {
      log('N27');
      process.nextTick(() => res('v27'));
    } };
  }).then((v) => {
    log('H18:' + show(v));
  }, (e) => {
    log('H18!' + msg(e));
  });
  P[28] = new Promise((res, rej) => {
    R[32] = { res, rej };
    log('X32');
    queueMicrotask(() => {
      log('M33');
      T[34] = setTimeout(() => {
        log('T34');
        R[32].res(Promise.resolve({ then(res, rej) {
          log('N38');
          process.nextTick(() => res('v38'));
        } }).then((v) => {
          log('H37:' + show(v));
          return 'v39';
        }).catch((e) => {
          log('H36!' + msg(e));
          return P[15];
        }));
      }, 100);
    });
    throw new Error('e40');
  }).finally(() => {
    log('Y31');
  }).then((v) => {
    log('H30:' + show(v));
    return 'v41';
  }, (e) => {
    log('H30!' + msg(e));
  }).catch((e) => {
    log('H29!' + msg(e));
  });
}, 0);
