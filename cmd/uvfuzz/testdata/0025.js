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
  log('L1');
  log('L2');
  fs.mkdir(D + '/d0', (err) => {
    log('F3:' + (err ? err.code : 'ok'));
    T[4] = setInterval(() => {
      C[4] = (C[4] || 0) + 1;
      log('V4.' + C[4]);
      if (C[4] === 3) clearInterval(T[4]);
    }, 100);
  });
  P[5] = new Promise((res, rej) => {
    R[6] = { res, rej };
    log('X6');
    res((async () => {
      log('A7');
      P[8] = new Promise((res, rej) => {
        R[9] = { res, rej };
        log('X9');
        clearTimeout(T[4]);
        res(Promise.any([Promise.resolve({ then(res, rej) {
          log('N11');
          clearInterval(T[4]);
          res('v11');
          throw new Error('x11');
        } }), new Promise((res, rej) => {
          R[13] = { res, rej };
          log('X13');
          res('v14');
        }).then((v) => {
          log('H12:' + show(v));
          return 'v15';
        })]).catch((e) => {
          log('H10!' + msg(e));
          return { then(res, rej) {
            log('N16');
            res('v16');
            throw new Error('x16');
          } };
        }));
      });
      return 'v17';
    })());
  });
  queueMicrotask(() => {
    log('M18');
  });
  P[19] = Promise.reject(new Error('e21')).catch((e) => {
    log('H20!' + msg(e));
    {
      const srv = net.createServer();
      let n = 0;
      srv.on('connection', (sock) => [a22_1][n++](sock));
      srv.listen(0, '127.0.0.1', () => {
        log('s22|listening');
        log('s22|L23');
        P[24] = new Promise((res, rej) => {
          R[25] = { res, rej };
          log('s22|X25');
          P[26] = (async () => {
            log('s22|A27');
            P[28] = (async () => {
              log('s22|A34');
              return Promise.resolve('v35');
            })().finally(() => {
              log('s22|Y33');
              throw new Error('e36');
            }).catch((e) => {
              log('s22|H32!' + msg(e));
              return Promise.resolve('v37');
            }).catch((e) => {
              log('s22|H31!' + msg(e));
              P[38] = Promise.resolve('v39');
              return 'v40';
            }).catch((e) => {
              log('s22|H30!' + msg(e));
              return { then(res, rej) {
                log('s22|N41');
                rej(new Error('e41'));
              } };
            }).finally(() => {
              log('s22|Y29');
              P[42] = Promise.reject(new Error('e43'));
            });
            throw new Error('e44');
          })();
        });
        c22_1();
      });
      function a22_1(sock) {
        let got = 0, first = true;
        sock.on('data', (d) => {
          sock.write(d);
          got += d.length;
          if (!first) return;
          first = false;
          log('a22.1|data');
        });
        sock.on('end', () => {
          log('a22.1|end:' + got);
        });
        sock.on('close', () => {
          log('a22.1|close');
        });
        log('a22.1|connection');
      }
      function c22_1() {
        let got = 0, sent = 0, first = true, ended = false;
        const sock = net.connect(srv.address().port, '127.0.0.1', () => {
          log('c22.1|connect');
          sent += 1080;
          sock.write(Buffer.alloc(1080, 120), (err) => {
            log('c22.1|w48:' + (err ? err.code : 'ok'));
          });
          fs.stat(__filename, (err) => {
            log('f45|F45:' + (err ? err.code : 'ok'));
            P[46] = Promise.resolve('v47');
          });
          if (sent === 0) {
            ended = true;
            sock.end();
          }
        });
        sock.on('data', (d) => {
          got += d.length;
          if (first) {
            first = false;
            log('c22.1|data');
          }
          if (got === sent && !ended) {
            ended = true;
            sock.end();
          }
        });
        sock.on('end', () => {
          log('c22.1|end:' + got);
        });
        sock.on('close', () => {
          log('c22.1|close');
          srv.close(() => {
            log('s22|close');
          });
        });
      }
    }
  });
}, 0);
