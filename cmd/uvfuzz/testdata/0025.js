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
  log('L1');
  log('L2');
  fs.readFile(__filename, (err) => {
    log('F3:' + (err ? err.code : 'ok'));
    P[4] = (async () => {
      log('A5');
      P[6] = Promise.all([new Promise((res, rej) => {
        R[7] = { res, rej };
        log('X7');
        res((async () => {
          log('A8');
          P[9] = new Promise((res, rej) => {
            R[10] = { res, rej };
            log('X10');
            P[11] = Promise.resolve('v12');
            res(Promise.reject(new Error('e13')));
          });
          return 'v14';
        })());
      }), Promise.resolve({ then(res, rej) {
        log('N15');
        P[16] = new Promise((res, rej) => {
          R[18] = { res, rej };
          log('X18');
          rej(new Error('e19'));
        }).finally(() => {
          log('Y17');
          queueMicrotask(() => {
            log('M20');
          });
          throw new Error('e21');
        });
        throw new Error('e15');
      } })]);
      throw new Error('e22');
    })();
    fs.stat(__filename + '.missing', (err) => {
      log('F23:' + (err ? err.code : 'ok'));
      log('L24');
      P[25] = Promise.resolve('v26');
    });
  });
  log('L27');
  process.nextTick(() => {
    log('K28');
    queueMicrotask(() => {
      log('M29');
      process.nextTick(() => {
        log('K30');
      });
    });
  });
  T[31] = setTimeout(() => {
    log('T31');
    process.nextTick(() => {
      log('K32');
    });
    queueMicrotask(() => {
      log('M33');
      P[34] = (async () => {
        log('A35');
        P[36] = Promise.reject(new Error('e37'));
        throw new Error('e38');
      })();
    });
  }, 50);
}, 0);
