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
  fs.readFile(__filename, (err) => {
    log('F1:' + (err ? err.code : 'ok'));
    T[2] = setImmediate(() => {
      log('I2');
      P[3] = Promise.resolve('v4');
    });
    clearImmediate(T[2]);
  });
  P[5] = Promise.any([Promise.any([Promise.race([Promise.reject(new Error('e8')), Promise.resolve({ then(res, rej) {
    log('N9');
    res('v9');
    rej(new Error('e9'));
  } }), (async () => {
    log('A13');
    try {
      const v = await Promise.resolve({ then(res, rej) {
        log('N16');
        process.nextTick(() => {
          log('K17');
          clearImmediate(T[2]);
        });
        res('v16');
        throw new Error('x16');
      } }).finally(() => {
        log('Y15');
        return Promise.resolve('v19').finally(() => {
          log('Y18');
          clearImmediate(T[2]);
          return Promise.resolve('v20');
        });
      });
      log('W14:' + show(v));
    } catch (e) {
      log('W14!' + msg(e));
    }
    clearImmediate(T[2]);
    try {
      const v = await { then(res, rej) {
        log('N22');
        process.nextTick(() => {
          log('K23');
        });
        process.nextTick(() => res('v22'));
      } };
      log('W21:' + show(v));
    } catch (e) {
      log('W21!' + msg(e));
    }
    clearImmediate(T[2]);
    return Promise.resolve('v24');
  })().then((v) => {
    log('H12:' + show(v));
    clearImmediate(T[2]);
    throw new Error('e25');
  }).then((v) => {
    log('H11:' + show(v));
    process.nextTick(() => {
      log('K26');
      clearImmediate(T[2]);
    });
    log('L27');
    throw new Error('e28');
  }).then(undefined)]).catch((e) => {
    log('H7!' + msg(e));
    throw new Error('e29');
  }).catch((e) => {
    log('H6!' + msg(e));
    clearImmediate(T[2]);
    return Promise.race([(async () => {
      log('A30');
      return 'v31';
    })()]);
  }), (async () => {
    log('A34');
    clearImmediate(T[2]);
    P[35] = Promise.resolve({ then(res, rej) {
      log('N36');
      rej(new Error('e36'));
    } });
    log('W37:' + show(await P[35].then((v) => {
      log('H38:' + show(v));
      throw new Error('e39');
    }, (e) => {
      log('H38!' + msg(e));
    })));
    return { then(res, rej) {
      log('N40');
      rej(new Error('e40'));
    } };
  })().finally(() => {
    log('Y33');
    return Promise.resolve('v41');
  }).finally(() => {
    log('Y32');
  }), Promise.resolve('v42')])]);
}, 0);
