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
    T[2] = setTimeout(() => {
      log('T2');
      clearTimeout(T[2]);
      queueMicrotask(() => {
        log('M3');
        T[4] = setTimeout(() => {
          log('T4');
          T[5] = setTimeout(() => {
            log('T5');
            P[6] = Promise.resolve('v7');
          }, 0);
        }, 0);
      });
      queueMicrotask(() => {
        log('M8');
      });
    }, 150);
    T[9] = setTimeout(() => {
      log('T9');
      fs.readFile(__filename, (err) => {
        log('F10:' + (err ? err.code : 'ok'));
        queueMicrotask(() => {
          log('M11');
        });
        T[12] = setImmediate(() => {
          log('I12');
        });
      });
      P[13] = (async () => {
        log('A16');
        throw new Error('e17');
      })().then((v) => {
        log('H15:' + show(v));
        throw new Error('e18');
      }).finally(() => {
        log('Y14');
      });
      P[19] = Promise.resolve({ then(res, rej) {
        log('N21');
        queueMicrotask(() => {
          log('M22');
          clearTimeout(T[2]);
        });
        rej(new Error('e21'));
      } }).then((v) => {
        log('H20:' + show(v));
        clearInterval(T[1]);
        clearInterval(T[1]);
        return { then(res, rej) {
          log('N23');
          res('v23');
          throw new Error('x23');
        } };
      }, (e) => {
        log('H20!' + msg(e));
        throw new Error('e24');
      });
    }, 50);
    P[25] = Promise.race([Promise.reject(new Error('e27')), Promise.resolve({ then(res, rej) {
      log('N28');
      res('v28');
      throw new Error('x28');
    } }), Promise.resolve({ then(res, rej) {
      log('N29');
      process.nextTick(() => res('v29'));
    } })]).finally(() => {
      log('Y26');
      clearImmediate(T[12]);
    });
  }, 100);
  T[30] = setTimeout(() => {
    log('T30');
    process.nextTick(() => {
      log('K31');
      log('L32');
    });
  }, 100);
  fs.stat(__filename, (err) => {
    log('F33:' + (err ? err.code : 'ok'));
    P[34] = Promise.allSettled([Promise.resolve({ then(res, rej) {
      log('N35');
      res('v35');
    } }), (async () => {
      log('A36');
      process.nextTick(() => {
        log('K37');
        P[38] = Promise.resolve('v39');
      });
      return 'v40';
    })()]);
  });
}, 0);
