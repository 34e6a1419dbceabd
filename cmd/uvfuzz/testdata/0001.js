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
  process.nextTick(() => {
    log('K1');
  });
  T[2] = setImmediate(() => {
    log('I2');
    process.nextTick(() => {
      log('K3');
      P[4] = (async () => {
        log('A5');
        clearImmediate(T[2]);
        P[6] = (async () => {
          log('A7');
          clearImmediate(T[2]);
          try {
            const v = await { then(res, rej) {
              log('N9');
              res('v9');
              rej(new Error('e9'));
            } };
            log('W8:' + show(v));
          } catch (e) {
            log('W8!' + msg(e));
          }
          clearImmediate(T[2]);
          clearImmediate(T[2]);
          throw new Error('e10');
        })();
        throw new Error('e11');
      })();
      P[12] = (async () => {
        log('A13');
        {
          const srv = net.createServer();
          let n = 0;
          srv.on('connection', (sock) => [a14_1, a14_2][n++](sock));
          srv.listen(0, '127.0.0.1', () => {
            log('s14|listening');
            process.nextTick(() => {
              log('s14|K15');
              P[16] = Promise.reject(new Error('e17'));
            });
            c14_1();
          });
          function a14_1(sock) {
            let got = 0, first = true;
            sock.on('data', (d) => {
              sock.write(d);
              got += d.length;
              if (!first) return;
              first = false;
              log('a14.1|data');
            });
            sock.on('end', () => {
              log('a14.1|end:' + got);
            });
            sock.on('close', () => {
              log('a14.1|close');
            });
            log('a14.1|connection');
          }
          function c14_1() {
            let got = 0, sent = 0, first = true, ended = false;
            const sock = net.connect(srv.address().port, '127.0.0.1', () => {
              log('c14.1|connect');
              P[18] = (async () => {
                log('c14.1|A19');
                return 'v20';
              })();
              if (sent === 0) {
                ended = true;
                sock.end();
              }
            });
            sock.on('data', (d) => {
              got += d.length;
              if (first) {
                first = false;
                log('c14.1|data');
                process.nextTick(() => {
                  log('c14.1|K21');
                  P[22] = Promise.resolve('v23');
                  P[24] = Promise.reject(new Error('e25'));
                });
                T[26] = setImmediate(() => {
                  log('c14.1|I26');
                });
              }
              if (got === sent && !ended) {
                ended = true;
                sock.end();
              }
            });
            sock.on('end', () => {
              log('c14.1|end:' + got);
              P[27] = (async () => {
                log('c14.1|A28');
                return 'v29';
              })();
            });
            sock.on('close', () => {
              log('c14.1|close');
              log('c14.1|L30');
              T[31] = setImmediate(() => {
                log('c14.1|I31');
                clearImmediate(T[31]);
              });
              c14_2();
            });
          }
          function a14_2(sock) {
            let got = 0, first = true;
            sock.on('data', (d) => {
              sock.write(d);
              got += d.length;
              if (!first) return;
              first = false;
              log('a14.2|data');
            });
            sock.on('end', () => {
              log('a14.2|end:' + got);
            });
            sock.on('close', () => {
              log('a14.2|close');
            });
            log('a14.2|connection');
          }
          function c14_2() {
            let got = 0, sent = 0, first = true, ended = false;
            const sock = net.connect(srv.address().port, '127.0.0.1', () => {
              log('c14.2|connect');
              sent += 1748;
              sock.write(Buffer.alloc(1748, 120), (err) => {
                log('c14.2|w32:' + (err ? err.code : 'ok'));
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
                log('c14.2|data');
              }
              if (got === sent && !ended) {
                ended = true;
                sock.end();
              }
            });
            sock.on('end', () => {
              log('c14.2|end:' + got);
            });
            sock.on('close', () => {
              log('c14.2|close');
              srv.close(() => {
                log('s14|close');
              });
            });
            sent += 2105;
            sock.write(Buffer.alloc(2105, 120), (err) => {
              log('c14.2|w33:' + (err ? err.code : 'ok'));
            });
          }
        }
      })();
    });
  });
}, 0);
