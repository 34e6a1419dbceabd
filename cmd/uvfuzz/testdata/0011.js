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
            log('a5.1|L57');
            T[58] = setImmediate(() => {
              log('a5.1|I58');
              queueMicrotask(() => {
                log('a5.1|M59');
                P[60] = Promise.resolve('v61');
              });
            });
          });
          sock.on('end', () => {
            log('a5.1|end:' + got);
            P[62] = Promise.resolve('v63');
          });
          sock.on('close', () => {
            log('a5.1|close');
          });
          log('a5.1|connection');
          T[27] = setImmediate(() => {
            log('a5.1|I27');
            clearImmediate(T[27]);
            clearImmediate(T[27]);
            fs.stat(__filename + '.missing', (err) => {
              log('f28|F28:' + (err ? err.code : 'ok'));
              P[29] = Promise.reject(new Error('e30'));
            });
          });
          T[31] = setImmediate(() => {
            log('a5.1|I31');
            clearImmediate(T[31]);
            P[32] = Promise.allSettled([Promise.any([new Promise((res, rej) => {
              R[36] = { res, rej };
              log('a5.1|X36');
              throw new Error('e37');
            }), Promise.resolve({ then(res, rej) {
              log('a5.1|N38');
              res('v38');
              rej(new Error('e38'));
            } }), Promise.reject(new Error('e39'))]).finally(() => {
              log('a5.1|Y35');
              P[40] = Promise.resolve('v41');
              return Promise.resolve('v42');
            }), (async () => {
              log('a5.1|A43');
              log('a5.1|L44');
              clearImmediate(T[27]);
              try {
                const v = await 'v46';
                log('a5.1|W45:' + show(v));
              } catch (e) {
                log('a5.1|W45!' + msg(e));
              }
              return 'v47';
            })(), Promise.resolve({ then(res, rej) {
              log('a5.1|N48');
              throw new Error('e48');
            } })]).then((v) => {
              log('a5.1|H34:' + show(v));
              P[49] = Promise.resolve('v50');
              P[51] = Promise.resolve('v52');
              return 'v53';
            }).finally(() => {
              log('a5.1|Y33');
              P[54] = Promise.resolve('v55');
              throw new Error('e56');
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
              log('c5.1|L25');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c5.1|end:' + got);
            log('c5.1|L26');
          });
          sock.on('close', () => {
            log('c5.1|close');
            c5_2();
          });
          sent += 1559;
          sock.write(Buffer.alloc(1559, 120));
          process.nextTick(() => {
            log('c5.1|K14');
            P[15] = Promise.resolve('v16');
            P[17] = new Promise((res, rej) => {
              R[18] = { res, rej };
              log('c5.1|X18');
              P[19] = P[15];
              throw new Error('e20');
            });
          });
          sent += 210;
          sock.write(Buffer.alloc(210, 120), (err) => {
            log('c5.1|w23:' + (err ? err.code : 'ok'));
            T[24] = setImmediate(() => {
              log('c5.1|I24');
            });
          });
          sent += 3892;
          sock.write(Buffer.alloc(3892, 120), (err) => {
            log('c5.1|w21:' + (err ? err.code : 'ok'));
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
            sent += 2894;
            sock.write(Buffer.alloc(2894, 120), (err) => {
              log('c5.2|w65:' + (err ? err.code : 'ok'));
            });
            sent += 3704;
            sock.write(Buffer.alloc(3704, 120), (err) => {
              log('c5.2|w64:' + (err ? err.code : 'ok'));
            });
            sent += 3974;
            sock.write(Buffer.alloc(3974, 120), (err) => {
              log('c5.2|w66:' + (err ? err.code : 'ok'));
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
          sent += 471;
          sock.write(Buffer.alloc(471, 120), (err) => {
            log('c5.2|w67:' + (err ? err.code : 'ok'));
          });
          sent += 3952;
          sock.write(Buffer.alloc(3952, 120), (err) => {
            log('c5.2|w68:' + (err ? err.code : 'ok'));
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
  })();
}, 0);
