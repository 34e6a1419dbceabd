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
    clearTimeout(T[1]);
  }, 0);
  queueMicrotask(() => {
    log('M2');
  });
  P[3] = (async () => {
    log('A4');
    clearTimeout(T[1]);
    clearInterval(T[1]);
    throw new Error('e5');
  })();
  P[6] = (async () => {
    log('A7');
    clearTimeout(T[1]);
    clearInterval(T[1]);
    throw new Error('e8');
  })();
  T[9] = setTimeout(() => {
    log('T9');
    process.nextTick(() => {
      log('K10');
      log('L11');
    });
  }, 100);
  P[12] = Promise.resolve({ then(res, rej) {
    log('N13');
    process.nextTick(() => {
      log('K14');
    });
    rej(new Error('e13'));
  } });
  T[15] = setImmediate(() => {
    log('I15');
  });
  P[16] = Promise.reject(new Error('e19')).then((v) => {
    log('H18:' + show(v));
    clearTimeout(T[9]);
  }).then((v) => {
    log('H17:' + show(v));
    clearTimeout(T[1]);
    P[20] = (async () => {
      log('A21');
      log('W22:' + show(await { then(res, rej) {
        log('N23');
        P[24] = (async () => {
          log('A27');
          clearTimeout(T[1]);
          log('W28:' + show(await (async () => {
            log('A29');
            return 'v30';
          })()));
          clearInterval(T[9]);
          try {
            const v = await Promise.all([Promise.resolve('v32'), Promise.resolve({ then(res, rej) {
              log('N33');
              process.nextTick(() => res('v33'));
            } }), Promise.resolve({ then(res, rej) {
              log('N34');
              res('v34');
            } })]);
            log('W31:' + show(v));
          } catch (e) {
            log('W31!' + msg(e));
          }
          return { then(res, rej) {
            log('N35');
            res('v35');
          } };
        })().then(undefined).finally(() => {
          log('Y25');
          throw new Error('e36');
        });
        queueMicrotask(() => rej(new Error('e23')));
      } }));
      return 'v37';
    })();
    throw new Error('e38');
  }, (e) => {
    log('H17!' + msg(e));
    P[39] = (async () => {
      log('A40');
      P[41] = Promise.reject(new Error('e42'));
      return 'v43';
    })();
    return Promise.resolve('v44');
  });
}, 0);
