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
    clearInterval(T[1]);
  }, 50);
  fs.readFile(__filename, (err) => {
    log('F2:' + (err ? err.code : 'ok'));
    T[3] = setImmediate(() => {
      log('I3');
      P[4] = Promise.resolve('v5');
    });
    queueMicrotask(() => {
      log('M6');
    });
  });
  P[7] = Promise.allSettled([Promise.reject(new Error('e9')), Promise.reject(new Error('e11')).finally(() => {
    log('Y10');
    clearTimeout(T[1]);
    P[12] = new Promise((res, rej) => {
      R[13] = { res, rej };
      log('X13');
      clearTimeout(T[1]);
      res('v14');
    });
    return (async () => {
      log('A17');
      log('L18');
      clearTimeout(T[1]);
      process.nextTick(() => {
        log('K19');
      });
      return 'v20';
    })().catch((e) => {
      log('H16!' + msg(e));
      clearTimeout(T[1]);
      return new Promise((res, rej) => {
        R[21] = { res, rej };
        log('X21');
      });
    }).then((v) => {
      log('H15:' + show(v));
      throw new Error('e22');
    }, (e) => {
      log('H15!' + msg(e));
      clearTimeout(T[1]);
      throw new Error('e23');
    });
  })]).then((v) => {
    log('H8:' + show(v));
    P[24] = Promise.resolve({ then(res, rej) {
      log('N26');
      throw new Error('e26');
    } }).finally(() => {
      log('Y25');
      clearTimeout(T[1]);
      clearTimeout(T[1]);
      return Promise.resolve({ then(res, rej) {
        log('N28');
        queueMicrotask(() => rej(new Error('e28')));
      } }).then((v) => {
        log('H27:' + show(v));
        P[29] = (async () => {
          log('A30');
          throw new Error('e31');
        })();
        return { then(res, rej) {
          log('N32');
          throw new Error('e32');
        } };
      });
    });
    return v;
  }, (e) => {
    log('H8!' + msg(e));
  });
}, 0);
