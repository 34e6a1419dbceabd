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
  T[1] = setTimeout(() => {
    log('T1');
    queueMicrotask(() => {
      log('M2');
      queueMicrotask(() => {
        log('M3');
        {
          const srv = net.createServer();
          let n = 0;
          srv.on('connection', (sock) => [a4_1, a4_2][n++](sock));
          srv.listen(0, '127.0.0.1', () => {
            log('s4|listening');
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
              T[41] = setTimeout(() => {
                log('t41|T41');
                P[42] = Promise.resolve('v43');
              }, 0);
              T[44] = setTimeout(() => {
                log('t44|T44');
                P[45] = Promise.resolve('v46');
              }, 0);
            });
            sock.on('end', () => {
              log('a4.1|end:' + got);
              log('a4.1|L47');
            });
            sock.on('close', () => {
              log('a4.1|close');
              process.nextTick(() => {
                log('a4.1|K48');
                P[49] = Promise.resolve('v50');
              });
              log('a4.1|L51');
            });
            log('a4.1|connection');
          }
          function c4_1() {
            let got = 0, sent = 0, first = true, ended = false;
            const sock = net.connect(srv.address().port, '127.0.0.1', () => {
              log('c4.1|connect');
              sent += 1202;
              sock.write(Buffer.alloc(1202, 120), (err) => {
                log('c4.1|w23:' + (err ? err.code : 'ok'));
                process.nextTick(() => {
                  log('c4.1|K24');
                });
              });
              T[5] = setImmediate(() => {
                log('c4.1|I5');
              });
              T[6] = setImmediate(() => {
                log('c4.1|I6');
                clearImmediate(T[5]);
                P[7] = Promise.resolve('v8');
              });
              sent += 2078;
              sock.write(Buffer.alloc(2078, 120), (err) => {
                log('c4.1|w19:' + (err ? err.code : 'ok'));
                T[20] = setTimeout(() => {
                  log('t20|T20');
                  P[21] = Promise.resolve('v22');
                }, 5);
              });
              sent += 2323;
              sock.write(Buffer.alloc(2323, 120), (err) => {
                log('c4.1|w9:' + (err ? err.code : 'ok'));
                P[10] = (async () => {
                  log('c4.1|A11');
                  P[12] = Promise.resolve('v13');
                  log('c4.1|W14:' + show(await 'v15'));
                  return { then(res, rej) {
                    log('c4.1|N16');
                    P[17] = Promise.resolve('v18');
                    res('v16');
                    throw new Error('x16');
                  } };
                })();
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
            sent += 2688;
            sock.write(Buffer.alloc(2688, 120), (err) => {
              log('c4.1|w26:' + (err ? err.code : 'ok'));
              T[27] = setTimeout(() => {
                log('t27|T27');
              }, 0);
            });
            sent += 2668;
            sock.write(Buffer.alloc(2668, 120));
            sent += 2834;
            sock.write(Buffer.alloc(2834, 120), (err) => {
              log('c4.1|w28:' + (err ? err.code : 'ok'));
              T[29] = setTimeout(() => {
                log('t29|T29');
                P[30] = Promise.resolve('v31');
                P[32] = P[30];
              }, 0);
              P[33] = Promise.resolve({ then(res, rej) {
                log('c4.1|N36');
                clearInterval(T[29]);
                process.nextTick(() => res('v36'));
              } }).then((v) => {
                log('c4.1|H35:' + show(v));
                P[37] = Promise.resolve('v38');
                return 'v39';
              }).then((v) => {
                log('c4.1|H34:' + show(v));
                clearTimeout(T[29]);
                return 'v40';
              });
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
              sent += 15;
              sock.write(Buffer.alloc(15, 120), (err) => {
                log('c4.2|w55:' + (err ? err.code : 'ok'));
              });
              sent += 2936;
              sock.write(Buffer.alloc(2936, 120), (err) => {
                log('c4.2|w52:' + (err ? err.code : 'ok'));
                P[53] = Promise.resolve('v54');
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
            sent += 798;
            sock.write(Buffer.alloc(798, 120), (err) => {
              log('c4.2|w56:' + (err ? err.code : 'ok'));
            });
            sent += 696;
            sock.write(Buffer.alloc(696, 120), (err) => {
              log('c4.2|w58:' + (err ? err.code : 'ok'));
            });
            sent += 2480;
            sock.write(Buffer.alloc(2480, 120), (err) => {
              log('c4.2|w57:' + (err ? err.code : 'ok'));
            });
          }
        }
      });
    });
  }, 0);
}, 0);
