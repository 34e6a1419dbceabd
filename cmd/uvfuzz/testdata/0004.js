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
  P[1] = Promise.race([Promise.resolve('v5').then((v) => {
    log('H4:' + show(v));
    P[6] = Promise.resolve({ then(res, rej) {
      log('N9');
      throw new Error('e9');
    } }).then(undefined, (e) => {
      log('H8!' + msg(e));
      return 'v10';
    }).finally(() => {
      log('Y7');
      P[11] = Promise.all([(async () => {
        log('A12');
        try {
          const v = await new Promise((res, rej) => {
            R[14] = { res, rej };
            log('X14');
            queueMicrotask(() => {
              log('M15');
              P[16] = Promise.reject(new Error('e17'));
            });
            process.nextTick(() => {
              log('K18');
              R[14].res(Promise.resolve('v20'));
            });
            res('v21');
          });
          log('W13:' + show(v));
        } catch (e) {
          log('W13!' + msg(e));
        }
        P[22] = Promise.resolve({ then(res, rej) {
          log('N24');
          res('v24');
        } }).then((v) => {
          log('H23:' + show(v));
          return Promise.any([]);
        });
        queueMicrotask(() => {
          log('M25');
          queueMicrotask(() => {
            log('M26');
          });
        });
        throw new Error('e27');
      })(), new Promise((res, rej) => {
        R[29] = { res, rej };
        log('X29');
        process.nextTick(() => {
          log('K30');
        });
        P[31] = Promise.resolve({ then(res, rej) {
          log('N32');
          P[33] = Promise.resolve('v34');
          res('v32');
          rej(new Error('e32'));
        } });
      }).then((v) => {
        log('H28:' + show(v));
        P[35] = new Promise((res, rej) => {
          R[36] = { res, rej };
          log('X36');
          P[37] = new Promise((res, rej) => {
            R[38] = { res, rej };
            log('X38');
            rej(new Error('e39'));
          });
          res('v40');
        });
        return Promise.resolve('v41');
      })]);
      return { then(res, rej) {
        log('N42');
        queueMicrotask(() => rej(new Error('e42')));
      } };
    });
    return 'v43';
  }).finally(() => {
    log('Y3');
  }).finally(() => {
    log('Y2');
  }), Promise.resolve('v44'), Promise.resolve('v45')]);
}, 0);
