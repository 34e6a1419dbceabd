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
  P[1] = Promise.resolve('v2');
  P[3] = Promise.resolve('v4');
  fs.stat(__filename, (err) => {
    log('F5:' + (err ? err.code : 'ok'));
    P[6] = (async () => {
      log('A7');
      log('L8');
      process.nextTick(() => {
        log('K9');
        process.nextTick(() => {
          log('K10');
          process.nextTick(() => {
            log('K11');
            P[12] = Promise.resolve('v13');
          });
          process.nextTick(() => {
            log('K14');
            P[15] = Promise.reject(new Error('e16'));
            P[17] = Promise.resolve('v18');
          });
        });
        process.nextTick(() => {
          log('K19');
          process.nextTick(() => {
            log('K20');
          });
          queueMicrotask(() => {
            log('M21');
          });
        });
      });
      try {
        const v = await (async () => {
          log('A23');
        })();
        log('W22:' + show(v));
      } catch (e) {
        log('W22!' + msg(e));
      }
      process.nextTick(() => {
        log('K24');
        queueMicrotask(() => {
          log('M25');
          queueMicrotask(() => {
            log('M26');
          });
        });
      });
    })();
    queueMicrotask(() => {
      log('M27');
      P[28] = P[6].then((v) => {
        log('H29:' + show(v));
        return 'v30';
      });
    });
    T[31] = setTimeout(() => {
      log('T31');
      process.nextTick(() => {
        log('K32');
        T[33] = setTimeout(() => {
          log('T33');
        }, 0);
      });
    }, 0);
  });
  clearInterval(T[33]);
  P[34] = new Promise((res, rej) => {
    R[35] = { res, rej };
    log('X35');
    clearInterval(T[33]);
    P[36] = P[3];
    rej(new Error('e37'));
  });
  clearTimeout(T[33]);
}, 0);
