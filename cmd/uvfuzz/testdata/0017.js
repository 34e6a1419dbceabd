'use strict';
const fs = require('fs');
const net = require('net');
const T = [], P = [], R = [], C = [];
// stdout is made (and its first write done) before any timer is set: made lazily, by the
// first console.log, it takes up to tens of milliseconds on a loaded machine.
const out = process.stdout;
out.write('');
let cur = ''; // the actor that logged last
const log = (s) => {
  const i = s.indexOf('|');
  cur = i < 0 ? '' : s.slice(0, i + 1);
  out.write(s + '\n');
};
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
process.on('unhandledRejection', (r, p) => { reasons.set(p, msg(r)); log(cur + 'unhandled:' + msg(r)); });
process.on('rejectionHandled', (p) => { log(cur + 'handled:' + reasons.get(p)); });
const D = fs.mkdtempSync(require('path').join(require('os').tmpdir(), 'uvfuzz-'));
process.on('exit', () => fs.rmSync(D, { recursive: true, force: true }));
setTimeout(() => {
  fs.rename(D + '/f1', D + '/f1', (err) => {
    log('F1:' + (err ? err.code : 'ok'));
    P[2] = Promise.resolve('v3');
  });
  {
    const srv = net.createServer();
    let n = 0;
    srv.on('connection', (sock) => [a4_1, a4_2][n++](sock));
    srv.listen(0, '127.0.0.1', () => {
      log('s4|listening');
      P[5] = Promise.any([Promise.any([Promise.race([Promise.reject(new Error('e8')), Promise.resolve({ then(res, rej) {
        log('s4|N9');
        res('v9');
        rej(new Error('e9'));
      } }), (async () => {
        log('s4|A13');
        try {
          const v = await Promise.resolve({ then(res, rej) {
            log('s4|N16');
            process.nextTick(() => {
              log('s4|K17');
              process.nextTick(() => {
                log('s4|K18');
              });
            });
            res('v16');
            throw new Error('x16');
          } }).finally(() => {
            log('s4|Y15');
            process.nextTick(() => {
              log('s4|K19');
            });
          });
          log('s4|W14:' + show(v));
        } catch (e) {
          log('s4|W14!' + msg(e));
        }
        try {
          const v = await new Promise((res, rej) => {
            R[21] = { res, rej };
            log('s4|X21');
            queueMicrotask(() => {
              log('s4|M22');
              P[23] = new Promise((res, rej) => {
                R[24] = { res, rej };
                log('s4|X24');
                res('v25');
              });
            });
            res(new Promise((res, rej) => {
              R[26] = { res, rej };
              log('s4|X26');
              res(Promise.any([Promise.resolve({ then(res, rej) {
                log('s4|N27');
                P[28] = Promise.reject(new Error('e29'));
                res('v27');
                rej(new Error('e27'));
              } }), (async () => {
                log('s4|A31');
                P[32] = Promise.reject(new Error('e33'));
                return 'v34';
              })().catch((e) => {
                log('s4|H30!' + msg(e));
              })]));
            }));
          });
          log('s4|W20:' + show(v));
        } catch (e) {
          log('s4|W20!' + msg(e));
        }
        P[35] = Promise.resolve({ then(res, rej) {
          log('s4|N36');
          res('v36');
          throw new Error('x36');
        } });
        queueMicrotask(() => {
          log('s4|M37');
          queueMicrotask(() => {
            log('s4|M38');
            process.nextTick(() => {
              log('s4|K39');
              P[40] = P[35];
            });
          });
        });
      })().catch((e) => {
        log('s4|H12!' + msg(e));
        P[41] = (async () => {
          log('s4|A43');
          process.nextTick(() => {
            log('s4|K44');
            queueMicrotask(() => {
              log('s4|M45');
              P[46] = Promise.reject(new Error('e47'));
              P[48] = P[46];
            });
          });
          P[49] = new Promise((res, rej) => {
            R[50] = { res, rej };
            log('s4|X50');
            queueMicrotask(() => {
              log('s4|M51');
              P[52] = Promise.resolve('v53');
              P[54] = Promise.resolve('v55');
            });
          });
          return 'v56';
        })().finally(() => {
          log('s4|Y42');
        });
        return Promise.resolve('v57');
      }).then((v) => {
        log('s4|H11:' + show(v));
      }).catch((e) => {
        log('s4|H10!' + msg(e));
        return 'v58';
      })]).then((v) => {
        log('s4|H7:' + show(v));
      }, (e) => {
        log('s4|H7!' + msg(e));
        throw new Error('e59');
      }).then((v) => {
        log('s4|H6:' + show(v));
        return v;
      }), Promise.resolve({ then(res, rej) {
        log('s4|N60');
        res('v60');
        rej(new Error('e60'));
      } }), 'v61'])]);
      c4_1();
    });
    function a4_1(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a4.1|data');
      });
      sock.on('end', () => {
        log('a4.1|end:' + got);
      });
      sock.on('close', () => {
        log('a4.1|close');
      });
      log('a4.1|connection');
    }
    function c4_1() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c4.1|connect');
        if (sent === 0) {
          ended = true;
          sock.end();
        }
      });
      sock.on('data', (d) => {
        got += d.length;
        if (first) {
          first = false;
          log('c4.1|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c4.1|end:' + got);
      });
      sock.on('close', () => {
        log('c4.1|close');
        c4_2();
      });
    }
    function a4_2(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a4.2|data');
      });
      sock.on('end', () => {
        log('a4.2|end:' + got);
      });
      sock.on('close', () => {
        log('a4.2|close');
      });
      log('a4.2|connection');
    }
    function c4_2() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c4.2|connect');
        sent += 928;
        sock.write(Buffer.alloc(928, 120));
        sent += 2635;
        sock.write(Buffer.alloc(2635, 120));
        if (sent === 0) {
          ended = true;
          sock.end();
        }
      });
      sock.on('data', (d) => {
        got += d.length;
        if (first) {
          first = false;
          log('c4.2|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c4.2|end:' + got);
      });
      sock.on('close', () => {
        log('c4.2|close');
        srv.close(() => {
          log('s4|close');
        });
      });
    }
  }
}, 0);
