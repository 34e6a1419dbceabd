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
  T[1] = setImmediate(() => {
    log('I1');
    P[2] = Promise.all([]);
    P[3] = (async () => {
      log('A4');
      P[5] = P[2];
      try {
        const v = await 'v7';
        log('W6:' + show(v));
      } catch (e) {
        log('W6!' + msg(e));
      }
      {
        const srv = net.createServer();
        let n = 0;
        srv.on('connection', (sock) => [a8_1, a8_2][n++](sock));
        srv.listen(0, '127.0.0.1', () => {
          log('s8|listening');
          queueMicrotask(() => {
            log('s8|M9');
          });
          c8_1();
        });
        function a8_1(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a8.1|data');
            P[41] = (async () => {
              log('a8.1|A42');
              process.nextTick(() => {
                log('a8.1|K43');
              });
              throw new Error('e44');
            })();
          });
          sock.on('end', () => {
            log('a8.1|end:' + got);
            T[45] = setImmediate(() => {
              log('a8.1|I45');
            });
          });
          sock.on('close', () => {
            log('a8.1|close');
          });
          log('a8.1|connection');
          T[40] = setTimeout(() => {
            log('t40|T40');
          }, 0);
        }
        function c8_1() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c8.1|connect');
            T[10] = setTimeout(() => {
              log('t10|T10');
            }, 0);
            P[11] = new Promise((res, rej) => {
              R[12] = { res, rej };
              log('c8.1|X12');
              log('c8.1|L13');
              res('v14');
            });
            sent += 1866;
            sock.write(Buffer.alloc(1866, 120), (err) => {
              log('c8.1|w15:' + (err ? err.code : 'ok'));
              T[16] = setImmediate(() => {
                log('c8.1|I16');
                P[17] = new Promise((res, rej) => {
                  R[19] = { res, rej };
                  log('c8.1|X19');
                  P[20] = Promise.resolve('v21');
                  R[19].res({ then(res, rej) {
                    log('c8.1|N23');
                    clearImmediate(T[16]);
                    throw new Error('e23');
                  } });
                  res('v24');
                }).then((v) => {
                  log('c8.1|H18:' + show(v));
                  clearImmediate(T[16]);
                  return 'v25';
                }, (e) => {
                  log('c8.1|H18!' + msg(e));
                  clearImmediate(T[16]);
                  clearImmediate(T[16]);
                  return 'v26';
                });
              });
              fs.stat(__filename + '.missing', (err) => {
                log('f27|F27:' + (err ? err.code : 'ok'));
                T[28] = setImmediate(() => {
                  log('f27|I28');
                  clearImmediate(T[28]);
                });
                T[29] = setImmediate(() => {
                  log('f27|I29');
                });
              });
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
              log('c8.1|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c8.1|end:' + got);
            log('c8.1|L30');
          });
          sock.on('close', () => {
            log('c8.1|close');
            T[31] = setImmediate(() => {
              log('c8.1|I31');
              fs.stat(__filename + '.missing', (err) => {
                log('f32|F32:' + (err ? err.code : 'ok'));
                P[33] = Promise.resolve('v34');
                P[35] = P[33];
              });
              P[36] = (async () => {
                log('c8.1|A37');
                clearImmediate(T[31]);
                return Promise.resolve('v38');
              })();
            });
            P[39] = Promise.allSettled([]);
            c8_2();
          });
        }
        function a8_2(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a8.2|data');
          });
          sock.on('end', () => {
            log('a8.2|end:' + got);
          });
          sock.on('close', () => {
            log('a8.2|close');
          });
          log('a8.2|connection');
        }
        function c8_2() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c8.2|connect');
            sent += 72;
            sock.write(Buffer.alloc(72, 120));
            sent += 1457;
            sock.write(Buffer.alloc(1457, 120));
            if (sent === 0) {
              ended = true;
              sock.end();
            }
          });
          sock.on('data', (d) => {
            got += d.length;
            if (first) {
              first = false;
              log('c8.2|data');
              log('c8.2|L48');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c8.2|end:' + got);
            fs.stat(__filename, (err) => {
              log('f49|F49:' + (err ? err.code : 'ok'));
              P[50] = Promise.any([new Promise((res, rej) => {
                R[51] = { res, rej };
                log('f49|X51');
              })]);
            });
          });
          sock.on('close', () => {
            log('c8.2|close');
            srv.close(() => {
              log('s8|close');
            });
          });
        }
      }
      return Promise.resolve('v52');
    })();
  });
}, 0);
