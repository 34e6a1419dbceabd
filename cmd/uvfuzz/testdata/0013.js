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
  fs.stat(__filename, (err) => {
    log('F1:' + (err ? err.code : 'ok'));
  });
  queueMicrotask(() => {
    log('M2');
    queueMicrotask(() => {
      log('M3');
      P[4] = (async () => {
        log('A6');
        process.nextTick(() => {
          log('K7');
          queueMicrotask(() => {
            log('M8');
            P[9] = Promise.resolve('v10');
          });
        });
        log('W11:' + show(await 'v12'));
        P[13] = (async () => {
          log('A15');
          queueMicrotask(() => {
            log('M16');
          });
          process.nextTick(() => {
            log('K17');
          });
          process.nextTick(() => {
            log('K18');
          });
        })().then((v) => {
          log('H14:' + show(v));
          queueMicrotask(() => {
            log('M19');
            P[20] = Promise.resolve('v21');
            P[22] = Promise.reject(new Error('e23'));
          });
          return 'v24';
        });
        try {
          const v = await 'v26';
          log('W25:' + show(v));
        } catch (e) {
          log('W25!' + msg(e));
        }
        return 'v27';
      })().catch((e) => {
        log('H5!' + msg(e));
        return 'v28';
      });
    });
  });
  queueMicrotask(() => {
    log('M29');
    P[30] = Promise.allSettled([]).then((v) => {
      log('H34:' + show(v));
      P[35] = Promise.resolve('v36');
      throw new Error('e37');
    }).then((v) => {
      log('H33:' + show(v));
      return Promise.reject(new Error('e38'));
    }).then((v) => {
      log('H32:' + show(v));
      throw new Error('e39');
    }).finally(() => {
      log('Y31');
    });
  });
}, 0);
