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
              P[45] = Promise.resolve('v46');
            });
            sock.on('end', () => {
              log('a4.1|end:' + got);
            });
            sock.on('close', () => {
              log('a4.1|close');
            });
            log('a4.1|connection');
            fs.stat(__filename, (err) => {
              log('f40|F40:' + (err ? err.code : 'ok'));
            });
            T[41] = setImmediate(() => {
              log('a4.1|I41');
              P[42] = Promise.resolve('v43');
              log('a4.1|L44');
            });
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
              P[25] = Promise.allSettled([]);
              P[26] = P[25].then((v) => {
                log('c4.1|H28:' + show(v));
                return Promise.reject(new Error('e29'));
              }, (e) => {
                log('c4.1|H28!' + msg(e));
                P[30] = P[25];
                return Promise.resolve('v31');
              }).finally(() => {
                log('c4.1|Y27');
                return { then(res, rej) {
                  log('c4.1|N32');
                  res('v32');
                } };
              });
            });
            sock.on('close', () => {
              log('c4.1|close');
              P[33] = new Promise((res, rej) => {
                R[35] = { res, rej };
                log('c4.1|X35');
              }).then((v) => {
                log('c4.1|H34:' + show(v));
                P[36] = Promise.resolve('v37');
                return Promise.resolve('v38');
              }, (e) => {
                log('c4.1|H34!' + msg(e));
                return { then(res, rej) {
                  log('c4.1|N39');
                  res('v39');
                  rej(new Error('e39'));
                } };
              });
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
              sent += 1520;
              sock.write(Buffer.alloc(1520, 120));
              sent += 935;
              sock.write(Buffer.alloc(935, 120), (err) => {
                log('c4.2|w48:' + (err ? err.code : 'ok'));
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
          }
        }
      });
    });
  }, 0);
}, 0);
