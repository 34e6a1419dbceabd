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
  P[1] = (async () => {
    log('A2');
    queueMicrotask(() => {
      log('M3');
    });
    queueMicrotask(() => {
      log('M4');
    });
    P[5] = (async () => {
      log('A7');
      queueMicrotask(() => {
        log('M8');
        log('L9');
      });
      return 'v10';
    })().catch((e) => {
      log('H6!' + msg(e));
      queueMicrotask(() => {
        log('M11');
        process.nextTick(() => {
          log('K12');
        });
        queueMicrotask(() => {
          log('M13');
        });
      });
      return { then(res, rej) {
        log('N14');
        queueMicrotask(() => {
          log('M15');
        });
        res('v14');
      } };
    });
  })();
  fs.stat(__filename + '.missing', (err) => {
    log('F16:' + (err ? err.code : 'ok'));
    queueMicrotask(() => {
      log('M17');
      queueMicrotask(() => {
        log('M18');
        P[19] = (async () => {
          log('A21');
          queueMicrotask(() => {
            log('M22');
            P[23] = Promise.resolve('v24');
          });
          log('L25');
          queueMicrotask(() => {
            log('M26');
          });
          log('W27:' + show(await Promise.resolve('v28')));
          return { then(res, rej) {
            log('N29');
            P[30] = Promise.resolve('v31');
            res('v29');
          } };
        })().catch((e) => {
          log('H20!' + msg(e));
          P[32] = Promise.allSettled([]).then((v) => {
            log('H33:' + show(v));
            return v;
          });
          throw new Error('e34');
        });
        T[35] = setImmediate(() => {
          log('I35');
          fs.stat(__filename, (err) => {
            log('F36:' + (err ? err.code : 'ok'));
            P[37] = P[19];
            P[38] = Promise.resolve('v39');
          });
        });
      });
    });
  });
}, 0);
