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
  P[1] = Promise.any([new Promise((res, rej) => {
    R[2] = { res, rej };
    log('X2');
    queueMicrotask(() => {
      log('M3');
      T[4] = setImmediate(() => {
        log('I4');
        T[5] = setTimeout(() => {
          log('T5');
          {
            const srv = net.createServer();
            let n = 0;
            srv.on('connection', (sock) => [a6_1, a6_2, a6_3][n++](sock));
            srv.listen(0, '127.0.0.1', () => {
              log('s6|listening');
              c6_1();
            });
            function a6_1(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a6.1|data');
              });
              sock.on('end', () => {
                log('a6.1|end:' + got);
              });
              sock.on('close', () => {
                log('a6.1|close');
                log('a6.1|L29');
              });
              log('a6.1|connection');
            }
            function c6_1() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c6.1|connect');
                sent += 3362;
                sock.write(Buffer.alloc(3362, 120));
                sent += 1264;
                sock.write(Buffer.alloc(1264, 120), (err) => {
                  log('c6.1|w11:' + (err ? err.code : 'ok'));
                });
                sent += 3825;
                sock.write(Buffer.alloc(3825, 120), (err) => {
                  log('c6.1|w12:' + (err ? err.code : 'ok'));
                  P[13] = Promise.resolve('v14');
                });
                P[7] = Promise.reject(new Error('e8'));
                P[9] = Promise.reject(new Error('e10'));
                if (sent === 0) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('data', (d) => {
                got += d.length;
                if (first) {
                  first = false;
                  log('c6.1|data');
                  P[21] = Promise.resolve('v22');
                  P[23] = Promise.reject(new Error('e24'));
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c6.1|end:' + got);
              });
              sock.on('close', () => {
                log('c6.1|close');
                P[25] = Promise.resolve('v26');
                P[27] = Promise.reject(new Error('e28'));
                c6_2();
              });
              P[16] = Promise.resolve('v17');
              sent += 3986;
              sock.write(Buffer.alloc(3986, 120));
              sent += 3279;
              sock.write(Buffer.alloc(3279, 120), (err) => {
                log('c6.1|w19:' + (err ? err.code : 'ok'));
                log('c6.1|L20');
              });
            }
            function a6_2(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a6.2|data');
                P[37] = Promise.resolve('v38');
              });
              sock.on('end', () => {
                log('a6.2|end:' + got);
                P[39] = Promise.resolve('v40');
              });
              sock.on('close', () => {
                log('a6.2|close');
              });
              log('a6.2|connection');
            }
            function c6_2() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c6.2|connect');
                sent += 1100;
                sock.write(Buffer.alloc(1100, 120), (err) => {
                  log('c6.2|w30:' + (err ? err.code : 'ok'));
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
                  log('c6.2|data');
                  P[31] = Promise.resolve('v32');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c6.2|end:' + got);
              });
              sock.on('close', () => {
                log('c6.2|close');
                P[33] = Promise.resolve('v34');
                P[35] = Promise.resolve('v36');
                c6_3();
              });
            }
            function a6_3(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a6.3|data');
                P[51] = Promise.reject(new Error('e52'));
              });
              sock.on('end', () => {
                log('a6.3|end:' + got);
                P[53] = Promise.resolve('v54');
              });
              sock.on('close', () => {
                log('a6.3|close');
                P[55] = Promise.resolve('v56');
              });
              log('a6.3|connection');
              P[48] = Promise.resolve('v49');
              log('a6.3|L50');
            }
            function c6_3() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c6.3|connect');
                sent += 2691;
                sock.write(Buffer.alloc(2691, 120), (err) => {
                  log('c6.3|w42:' + (err ? err.code : 'ok'));
                  P[43] = Promise.resolve('v44');
                });
                sent += 1786;
                sock.write(Buffer.alloc(1786, 120));
                sent += 911;
                sock.write(Buffer.alloc(911, 120));
                if (sent === 0) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('data', (d) => {
                got += d.length;
                if (first) {
                  first = false;
                  log('c6.3|data');
                  P[46] = Promise.resolve('v47');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c6.3|end:' + got);
              });
              sock.on('close', () => {
                log('c6.3|close');
                srv.close(() => {
                  log('s6|close');
                });
              });
            }
          }
        }, 0);
      });
    });
  }), Promise.reject(new Error('e57')), Promise.resolve({ then(res, rej) {
    log('N58');
    res('v58');
  } })]);
}, 0);
