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
  process.nextTick(() => {
    log('K1');
  });
  T[2] = setInterval(() => {
    C[2] = (C[2] || 0) + 1;
    log('V2.' + C[2]);
    if (C[2] === 2) clearInterval(T[2]);
  }, 100);
  P[3] = (async () => {
    log('A4');
    clearTimeout(T[2]);
    log('W5:' + show(await 'v6'));
    return new Promise((res, rej) => {
      R[7] = { res, rej };
      log('X7');
      res(new Promise((res, rej) => {
        R[9] = { res, rej };
        log('X9');
        clearTimeout(T[2]);
        res((async () => {
          log('A10');
          log('W11:' + show(await (async () => {
            log('A13');
            P[14] = Promise.resolve('v15');
            clearTimeout(T[2]);
            try {
              const v = await { then(res, rej) {
                log('N17');
                throw new Error('e17');
              } };
              log('W16:' + show(v));
            } catch (e) {
              log('W16!' + msg(e));
            }
          })().finally(() => {
            log('Y12');
            clearTimeout(T[2]);
            return { then(res, rej) {
              log('N18');
              res('v18');
              throw new Error('x18');
            } };
          })));
          return 'v19';
        })());
      }).then(undefined));
    });
  })();
}, 0);
