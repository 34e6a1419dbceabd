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
  P[1] = (async () => {
    log('A2');
    queueMicrotask(() => {
      log('M3');
    });
    queueMicrotask(() => {
      log('M4');
      {
        const srv = net.createServer();
        let n = 0;
        srv.on('connection', (sock) => [a5_1, a5_2, a5_3][n++](sock));
        srv.listen(0, '127.0.0.1', () => {
          log('s5|listening');
          process.nextTick(() => {
            log('s5|K6');
            T[7] = setImmediate(() => {
              log('s5|I7');
              P[8] = Promise.resolve('v9');
              log('s5|L10');
            });
          });
          T[11] = setImmediate(() => {
            log('s5|I11');
            clearImmediate(T[11]);
          });
          c5_1();
        });
        function a5_1(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a5.1|data');
          });
          sock.on('end', () => {
            log('a5.1|end:' + got);
          });
          sock.on('close', () => {
            log('a5.1|close');
            T[22] = setImmediate(() => {
              log('a5.1|I22');
            });
          });
          log('a5.1|connection');
          fs.stat(__filename + '.missing', (err) => {
            log('f14|F14:' + (err ? err.code : 'ok'));
            P[15] = new Promise((res, rej) => {
              R[16] = { res, rej };
              log('f14|X16');
              P[17] = Promise.resolve('v18');
              res(Promise.resolve('v19'));
            });
          });
          queueMicrotask(() => {
            log('a5.1|M20');
            process.nextTick(() => {
              log('a5.1|K21');
            });
          });
        }
        function c5_1() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c5.1|connect');
            sent += 738;
            sock.write(Buffer.alloc(738, 120), (err) => {
              log('c5.1|w12:' + (err ? err.code : 'ok'));
            });
            sent += 52;
            sock.write(Buffer.alloc(52, 120), (err) => {
              log('c5.1|w13:' + (err ? err.code : 'ok'));
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
              log('c5.1|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c5.1|end:' + got);
          });
          sock.on('close', () => {
            log('c5.1|close');
            c5_2();
          });
        }
        function a5_2(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a5.2|data');
          });
          sock.on('end', () => {
            log('a5.2|end:' + got);
          });
          sock.on('close', () => {
            log('a5.2|close');
          });
          log('a5.2|connection');
        }
        function c5_2() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c5.2|connect');
            sent += 999;
            sock.write(Buffer.alloc(999, 120), (err) => {
              log('c5.2|w27:' + (err ? err.code : 'ok'));
              process.nextTick(() => {
                log('c5.2|K28');
                P[29] = Promise.reject(new Error('e32')).then((v) => {
                  log('c5.2|H31:' + show(v));
                  P[33] = Promise.resolve('v34');
                  return Promise.resolve('v35');
                }).then((v) => {
                  log('c5.2|H30:' + show(v));
                  return Promise.reject(new Error('e36'));
                });
              });
              fs.stat(__filename, (err) => {
                log('f37|F37:' + (err ? err.code : 'ok'));
                P[38] = (async () => {
                  log('f37|A40');
                })().then((v) => {
                  log('f37|H39:' + show(v));
                  P[41] = Promise.reject(new Error('e42'));
                  P[43] = Promise.reject(new Error('e44'));
                  return { then(res, rej) {
                    log('f37|N45');
                    rej(new Error('e45'));
                  } };
                });
                P[46] = Promise.any([Promise.resolve('v47'), Promise.any([new Promise((res, rej) => {
                  R[51] = { res, rej };
                  log('f37|X51');
                }).finally(() => {
                  log('f37|Y50');
                  return { then(res, rej) {
                    log('f37|N52');
                    queueMicrotask(() => rej(new Error('e52')));
                  } };
                }).then((v) => {
                  log('f37|H49:' + show(v));
                  return v;
                }).catch((e) => {
                  log('f37|H48!' + msg(e));
                  P[53] = P[38];
                }), Promise.race([])])]);
              });
            });
            queueMicrotask(() => {
              log('c5.2|M23');
              log('c5.2|L24');
            });
            sent += 930;
            sock.write(Buffer.alloc(930, 120), (err) => {
              log('c5.2|w26:' + (err ? err.code : 'ok'));
            });
            log('c5.2|L25');
            sent += 3974;
            sock.write(Buffer.alloc(3974, 120), (err) => {
              log('c5.2|w54:' + (err ? err.code : 'ok'));
              P[55] = new Promise((res, rej) => {
                R[56] = { res, rej };
                log('c5.2|X56');
                queueMicrotask(() => {
                  log('c5.2|M57');
                });
                res(Promise.resolve('v58'));
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
              log('c5.2|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c5.2|end:' + got);
          });
          sock.on('close', () => {
            log('c5.2|close');
            c5_3();
          });
        }
        function a5_3(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a5.3|data');
          });
          sock.on('end', () => {
            log('a5.3|end:' + got);
          });
          sock.on('close', () => {
            log('a5.3|close');
          });
          log('a5.3|connection');
        }
        function c5_3() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c5.3|connect');
            if (sent === 0) {
              ended = true;
              sock.end();
            }
          });
          sock.on('data', (d) => {
            got += d.length;
            if (first) {
              first = false;
              log('c5.3|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c5.3|end:' + got);
          });
          sock.on('close', () => {
            log('c5.3|close');
            srv.close(() => {
              log('s5|close');
            });
          });
        }
      }
    });
    return 'v59';
  })();
}, 0);
