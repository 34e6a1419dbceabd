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
  P[4] = Promise.resolve({ then(res, rej) {
    log('N5');
    P[6] = Promise.race([Promise.resolve({ then(res, rej) {
      log('N10');
      {
        const srv = net.createServer();
        let n = 0;
        srv.on('connection', (sock) => [a11_1][n++](sock));
        srv.listen(0, '127.0.0.1', () => {
          log('s11|listening');
          c11_1();
        });
        function a11_1(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a11.1|data');
          });
          sock.on('end', () => {
            log('a11.1|end:' + got);
            queueMicrotask(() => {
              log('a11.1|M52');
            });
          });
          sock.on('close', () => {
            log('a11.1|close');
            queueMicrotask(() => {
              log('a11.1|M53');
            });
          });
          log('a11.1|connection');
        }
        function c11_1() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c11.1|connect');
            fs.readFile(__filename, (err) => {
              log('f12|F12:' + (err ? err.code : 'ok'));
              T[13] = setImmediate(() => {
                log('f12|I13');
                log('f12|L14');
              });
              T[15] = setImmediate(() => {
                log('f12|I15');
                log('f12|L16');
                P[17] = Promise.reject(new Error('e18'));
                P[19] = Promise.resolve('v20');
              });
            });
            sent += 448;
            sock.write(Buffer.alloc(448, 120), (err) => {
              log('c11.1|w37:' + (err ? err.code : 'ok'));
              log('c11.1|L38');
            });
            sent += 1519;
            sock.write(Buffer.alloc(1519, 120), (err) => {
              log('c11.1|w21:' + (err ? err.code : 'ok'));
              fs.readFile(__filename, (err) => {
                log('f22|F22:' + (err ? err.code : 'ok'));
              });
              queueMicrotask(() => {
                log('c11.1|M23');
                T[24] = setTimeout(() => {
                  log('t24|T24');
                  P[25] = Promise.resolve('v26');
                  P[27] = P[25];
                }, 0);
                P[28] = Promise.resolve({ then(res, rej) {
                  log('c11.1|N30');
                  throw new Error('e30');
                } }).catch((e) => {
                  log('c11.1|H29!' + msg(e));
                  P[31] = Promise.resolve('v32');
                  P[33] = Promise.resolve('v34');
                  return 'v35';
                });
              });
            });
            sent += 2977;
            sock.write(Buffer.alloc(2977, 120));
            if (sent === 0) {
              ended = true;
              sock.end();
            }
          });
          sock.on('data', (d) => {
            got += d.length;
            if (first) {
              first = false;
              log('c11.1|data');
              queueMicrotask(() => {
                log('c11.1|M39');
                fs.stat(__filename, (err) => {
                  log('f40|F40:' + (err ? err.code : 'ok'));
                  P[41] = Promise.resolve('v42');
                });
                log('c11.1|L43');
              });
              process.nextTick(() => {
                log('c11.1|K44');
                P[45] = (async () => {
                  log('c11.1|A46');
                  P[47] = Promise.resolve('v48');
                  P[49] = Promise.resolve('v50');
                  return 'v51';
                })();
              });
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c11.1|end:' + got);
          });
          sock.on('close', () => {
            log('c11.1|close');
            srv.close(() => {
              log('s11|close');
              fs.stat(__filename + '.missing', (err) => {
                log('f54|F54:' + (err ? err.code : 'ok'));
                P[55] = (async () => {
                  log('f54|A56');
                  log('f54|L57');
                  P[58] = Promise.resolve('v59');
                  P[60] = Promise.reject(new Error('e61'));
                  return 'v62';
                })();
              });
              P[63] = (async () => {
                log('s11|A65');
                log('s11|W66:' + show(await Promise.resolve('v67')));
              })().finally(() => {
                log('s11|Y64');
                throw new Error('e68');
              });
            });
          });
        }
      }
      res('v10');
    } }).finally(() => {
      log('Y9');
    })]).then((v) => {
      log('H8:' + show(v));
      throw new Error('e69');
    }, (e) => {
      log('H8!' + msg(e));
    }).then(undefined);
    queueMicrotask(() => rej(new Error('e5')));
  } });
}, 0);
