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
  T[1] = setInterval(() => {
    C[1] = (C[1] || 0) + 1;
    log('V1.' + C[1]);
    P[2] = (async () => {
      log('A5');
      P[6] = Promise.resolve('v7');
      clearTimeout(T[1]);
      log('L8');
      return 'v9';
    })().finally(() => {
      log('Y4');
      queueMicrotask(() => {
        log('M10');
      });
      return Promise.reject(new Error('e11'));
    }).catch((e) => {
      log('H3!' + msg(e));
      queueMicrotask(() => {
        log('M12');
        log('L13');
      });
      return 'v14';
    });
    P[15] = (async () => {
      log('A18');
      clearTimeout(T[1]);
      return 'v19';
    })().then((v) => {
      log('H17:' + show(v));
      return v;
    }, (e) => {
      log('H17!' + msg(e));
      log('L20');
    }).catch((e) => {
      log('H16!' + msg(e));
      clearTimeout(T[1]);
      throw new Error('e21');
    });
    if (C[1] === 2) clearInterval(T[1]);
  }, 50);
  fs.readFile(__filename, (err) => {
    log('F22:' + (err ? err.code : 'ok'));
    P[23] = Promise.resolve('v24');
  });
  log('L25');
  clearInterval(T[1]);
  P[26] = Promise.reject(new Error('e27'));
  P[28] = (async () => {
    log('A29');
    clearTimeout(T[1]);
    try {
      const v = await { then(res, rej) {
        log('N31');
        res('v31');
        throw new Error('x31');
      } };
      log('W30:' + show(v));
    } catch (e) {
      log('W30!' + msg(e));
    }
    clearTimeout(T[1]);
  })();
  T[32] = setTimeout(() => {
    log('T32');
    process.nextTick(() => {
      log('K33');
      log('L34');
    });
  }, 150);
  P[35] = (async () => {
    log('A36');
    return 'v37';
  })();
}, 0);
