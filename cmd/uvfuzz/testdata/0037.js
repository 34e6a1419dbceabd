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
  queueMicrotask(() => {
    log('M1');
  });
  log('L2');
  T[3] = setInterval(() => {
    C[3] = (C[3] || 0) + 1;
    log('V3.' + C[3]);
    if (C[3] === 2) clearInterval(T[3]);
  }, 50);
  process.nextTick(() => {
    log('K4');
    fs.stat(__filename + '.missing', (err) => {
      log('F5:' + (err ? err.code : 'ok'));
      T[6] = setImmediate(() => {
        log('I6');
        clearImmediate(T[6]);
      });
    });
  });
  P[7] = Promise.resolve({ then(res, rej) {
    log('N9');
    P[10] = new Promise((res, rej) => {
      R[12] = { res, rej };
      log('X12');
      throw new Error('e13');
    }).finally(() => {
      log('Y11');
      return (async () => {
        log('A14');
        return 'v15';
      })();
    });
    res('v9');
  } }).finally(() => {
    log('Y8');
    throw new Error('e16');
  });
  P[17] = Promise.all([Promise.resolve({ then(res, rej) {
    log('N18');
    process.nextTick(() => res('v18'));
  } }), 'v19', Promise.reject(new Error('e20'))]);
  P[21] = (async () => {
    log('A22');
    clearTimeout(T[3]);
    P[23] = P[17];
    try {
      const v = await (async () => {
        log('A25');
        process.nextTick(() => {
          log('K26');
          clearTimeout(T[3]);
        });
        log('W27:' + show(await new Promise((res, rej) => {
          R[28] = { res, rej };
          log('X28');
          P[29] = new Promise((res, rej) => {
            R[31] = { res, rej };
            log('X31');
            queueMicrotask(() => {
              log('M32');
            });
          }).then((v) => {
            log('H30:' + show(v));
            return 'v33';
          });
          log('L34');
        })));
        log('W35:' + show(await (async () => {
          log('A37');
          clearTimeout(T[3]);
          P[38] = Promise.allSettled([Promise.any([Promise.any([Promise.reject(new Error('e40')), Promise.reject(new Error('e41')), Promise.resolve('v42')])]).finally(() => {
            log('Y39');
            return { then(res, rej) {
              log('N43');
              res('v43');
            } };
          }), Promise.resolve('v44'), Promise.reject(new Error('e45'))]);
          return P[7];
        })().catch((e) => {
          log('H36!' + msg(e));
          return 'v46';
        })));
        return 'v47';
      })();
      log('W24:' + show(v));
    } catch (e) {
      log('W24!' + msg(e));
    }
    throw new Error('e48');
  })();
}, 0);
