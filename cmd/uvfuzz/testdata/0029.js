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
  log('L1');
  T[2] = setImmediate(() => {
    log('I2');
    fs.stat(__filename + '.missing', (err) => {
      log('F3:' + (err ? err.code : 'ok'));
      clearImmediate(T[2]);
    });
    {
      const srv = net.createServer();
      let n = 0;
      srv.on('connection', (sock) => [a4_1, a4_2][n++](sock));
      srv.listen(0, '127.0.0.1', () => {
        log('s4|listening');
        T[5] = setImmediate(() => {
          log('s4|I5');
        });
        T[6] = setImmediate(() => {
          log('s4|I6');
          clearImmediate(T[6]);
        });
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
          fs.stat(__filename, (err) => {
            log('f19|F19:' + (err ? err.code : 'ok'));
          });
          P[20] = Promise.reject(new Error('e23')).then((v) => {
            log('a4.1|H22:' + show(v));
            return v;
          }).then((v) => {
            log('a4.1|H21:' + show(v));
            T[24] = setTimeout(() => {
              log('t24|T24');
              T[25] = setImmediate(() => {
                log('t24|I25');
                P[26] = Promise.resolve('v27');
                P[28] = Promise.reject(new Error('e29'));
              });
            }, 0);
            log('a4.1|L30');
            return 'v31';
          });
        });
        sock.on('end', () => {
          log('a4.1|end:' + got);
          T[32] = setTimeout(() => {
            log('t32|T32');
            process.nextTick(() => {
              log('t32|K33');
              queueMicrotask(() => {
                log('t32|M34');
                P[35] = Promise.reject(new Error('e36'));
              });
            });
            T[37] = setImmediate(() => {
              log('t32|I37');
              clearImmediate(T[37]);
              log('t32|L38');
              process.nextTick(() => {
                log('t32|K39');
                clearImmediate(T[37]);
              });
            });
          }, 5);
          P[40] = Promise.reject(new Error('e41'));
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
          sent += 681;
          sock.write(Buffer.alloc(681, 120), (err) => {
            log('c4.1|w8:' + (err ? err.code : 'ok'));
            T[9] = setImmediate(() => {
              log('c4.1|I9');
              clearImmediate(T[9]);
            });
          });
          sent += 3610;
          sock.write(Buffer.alloc(3610, 120));
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
          P[10] = Promise.resolve('v11');
        });
        sock.on('close', () => {
          log('c4.1|close');
          fs.stat(__filename + '.missing', (err) => {
            log('f12|F12:' + (err ? err.code : 'ok'));
            T[13] = setImmediate(() => {
              log('f12|I13');
              clearImmediate(T[13]);
            });
            P[14] = Promise.resolve({ then(res, rej) {
              log('f12|N16');
              log('f12|L17');
              queueMicrotask(() => rej(new Error('e16')));
            } }).catch((e) => {
              log('f12|H15!' + msg(e));
              return 'v18';
            });
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
          sent += 1251;
          sock.write(Buffer.alloc(1251, 120));
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
}, 0);
