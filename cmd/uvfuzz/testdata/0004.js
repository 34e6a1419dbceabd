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
  P[1] = Promise.race([Promise.resolve('v5').then((v) => {
    log('H4:' + show(v));
    P[6] = Promise.resolve({ then(res, rej) {
      log('N9');
      throw new Error('e9');
    } }).then(undefined, (e) => {
      log('H8!' + msg(e));
      return 'v10';
    }).finally(() => {
      log('Y7');
      {
        const srv = net.createServer();
        let n = 0;
        srv.on('connection', (sock) => [a11_1, a11_2, a11_3][n++](sock));
        srv.listen(0, '127.0.0.1', () => {
          log('s11|listening');
          T[12] = setImmediate(() => {
            log('s11|I12');
          });
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
            T[20] = setImmediate(() => {
              log('a11.1|I20');
              T[21] = setTimeout(() => {
                log('t21|T21');
              }, 5);
              fs.readFile(__filename, (err) => {
                log('f22|F22:' + (err ? err.code : 'ok'));
                P[23] = Promise.resolve('v24');
                P[25] = Promise.reject(new Error('e26'));
                P[27] = Promise.resolve('v28');
              });
              process.nextTick(() => {
                log('a11.1|K29');
                clearTimeout(T[21]);
              });
            });
            fs.stat(__filename, (err) => {
              log('f30|F30:' + (err ? err.code : 'ok'));
              P[31] = (async () => {
                log('f30|A32');
                P[33] = Promise.resolve('v34');
                P[35] = Promise.reject(new Error('e36'));
                return 'v37';
              })();
            });
          });
          sock.on('end', () => {
            log('a11.1|end:' + got);
            P[38] = new Promise((res, rej) => {
              R[39] = { res, rej };
              log('a11.1|X39');
              rej(new Error('e40'));
            });
            T[41] = setTimeout(() => {
              log('t41|T41');
              T[42] = setImmediate(() => {
                log('t41|I42');
                clearImmediate(T[42]);
                P[43] = Promise.resolve('v44');
              });
            }, 0);
          });
          sock.on('close', () => {
            log('a11.1|close');
            T[45] = setImmediate(() => {
              log('a11.1|I45');
              clearImmediate(T[45]);
              P[46] = Promise.reject(new Error('e48')).finally(() => {
                log('a11.1|Y47');
                throw new Error('e49');
              });
            });
          });
          log('a11.1|connection');
          process.nextTick(() => {
            log('a11.1|K19');
          });
        }
        function c11_1() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c11.1|connect');
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
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c11.1|end:' + got);
            queueMicrotask(() => {
              log('c11.1|M13');
              process.nextTick(() => {
                log('c11.1|K14');
              });
              process.nextTick(() => {
                log('c11.1|K15');
              });
            });
            fs.stat(__filename + '.missing', (err) => {
              log('f16|F16:' + (err ? err.code : 'ok'));
            });
          });
          sock.on('close', () => {
            log('c11.1|close');
            log('c11.1|L17');
            log('c11.1|L18');
            c11_2();
          });
        }
        function a11_2(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a11.2|data');
          });
          sock.on('end', () => {
            log('a11.2|end:' + got);
          });
          sock.on('close', () => {
            log('a11.2|close');
          });
          log('a11.2|connection');
        }
        function c11_2() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c11.2|connect');
            if (sent === 0) {
              ended = true;
              sock.end();
            }
          });
          sock.on('data', (d) => {
            got += d.length;
            if (first) {
              first = false;
              log('c11.2|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c11.2|end:' + got);
          });
          sock.on('close', () => {
            log('c11.2|close');
            c11_3();
          });
        }
        function a11_3(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a11.3|data');
          });
          sock.on('end', () => {
            log('a11.3|end:' + got);
          });
          sock.on('close', () => {
            log('a11.3|close');
          });
          log('a11.3|connection');
        }
        function c11_3() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c11.3|connect');
            sent += 1459;
            sock.write(Buffer.alloc(1459, 120));
            sent += 1233;
            sock.write(Buffer.alloc(1233, 120), (err) => {
              log('c11.3|w50:' + (err ? err.code : 'ok'));
            });
            sent += 3331;
            sock.write(Buffer.alloc(3331, 120), (err) => {
              log('c11.3|w52:' + (err ? err.code : 'ok'));
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
              log('c11.3|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c11.3|end:' + got);
          });
          sock.on('close', () => {
            log('c11.3|close');
            srv.close(() => {
              log('s11|close');
            });
          });
        }
      }
      return Promise.reject(new Error('e53'));
    });
    return 'v54';
  }).finally(() => {
    log('Y3');
    return Promise.resolve('v55');
  }).finally(() => {
    log('Y2');
    return { then(res, rej) {
      log('N56');
      res('v56');
      rej(new Error('e56'));
    } };
  }), Promise.resolve('v57'), Promise.resolve('v58')]);
}, 0);
