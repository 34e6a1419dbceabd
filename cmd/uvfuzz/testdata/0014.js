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
  process.nextTick(() => {
    log('K2');
  });
  T[3] = setTimeout(() => {
    log('T3');
    process.nextTick(() => {
      log('K4');
      fs.stat(__filename + '.missing', (err) => {
        log('F5:' + (err ? err.code : 'ok'));
        T[6] = setTimeout(() => {
          log('T6');
          log('L7');
          log('L8');
          P[9] = Promise.reject(new Error('e12')).then((v) => {
            log('H11:' + show(v));
          }).finally(() => {
            log('Y10');
          });
        }, 150);
      });
    });
    P[13] = Promise.resolve('v14');
    P[15] = Promise.any([Promise.resolve('v17').then(undefined, (e) => {
      log('H16!' + msg(e));
      throw new Error('e18');
    }), Promise.resolve({ then(res, rej) {
      log('N19');
      P[20] = Promise.race([new Promise((res, rej) => {
        R[21] = { res, rej };
        log('X21');
        queueMicrotask(() => {
          log('M22');
          clearInterval(T[6]);
        });
        queueMicrotask(() => {
          log('M23');
          queueMicrotask(() => {
            log('M24');
            clearTimeout(T[3]);
          });
        });
        rej(new Error('e25'));
      }), Promise.race([new Promise((res, rej) => {
        R[27] = { res, rej };
        log('X27');
        throw new Error('e28');
      }), Promise.race([])]).finally(() => {
        log('Y26');
        clearInterval(T[6]);
      }), P[13]]);
      process.nextTick(() => res('v19'));
    } }), 'v29']);
  }, 100);
}, 0);
