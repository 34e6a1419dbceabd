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
    {
      const srv = net.createServer();
      let n = 0;
      srv.on('connection', (sock) => [a2_1, a2_2, a2_3][n++](sock));
      srv.listen(0, '127.0.0.1', () => {
        log('s2|listening');
        T[3] = setImmediate(() => {
          log('s2|I3');
          queueMicrotask(() => {
            log('s2|M4');
            clearImmediate(T[3]);
          });
          clearImmediate(T[3]);
        });
        c2_1();
      });
      function a2_1(sock) {
        let got = 0, first = true;
        sock.on('data', (d) => {
          sock.write(d);
          got += d.length;
          if (!first) return;
          first = false;
          log('a2.1|data');
        });
        sock.on('end', () => {
          log('a2.1|end:' + got);
        });
        sock.on('close', () => {
          log('a2.1|close');
        });
        log('a2.1|connection');
      }
      function c2_1() {
        let got = 0, sent = 0, first = true, ended = false;
        const sock = net.connect(srv.address().port, '127.0.0.1', () => {
          log('c2.1|connect');
          queueMicrotask(() => {
            log('c2.1|M5');
            queueMicrotask(() => {
              log('c2.1|M6');
              T[7] = setTimeout(() => {
                log('t7|T7');
              }, 0);
            });
            P[8] = new Promise((res, rej) => {
              R[11] = { res, rej };
              log('c2.1|X11');
              log('c2.1|L12');
            }).catch((e) => {
              log('c2.1|H10!' + msg(e));
              return 'v13';
            }).catch((e) => {
              log('c2.1|H9!' + msg(e));
              T[14] = setTimeout(() => {
                log('t14|T14');
                P[15] = Promise.resolve('v16');
                P[17] = P[15];
              }, 0);
              return Promise.reject(new Error('e18'));
            });
          });
          T[19] = setImmediate(() => {
            log('c2.1|I19');
            clearInterval(T[14]);
            T[20] = setTimeout(() => {
              log('t20|T20');
              T[21] = setImmediate(() => {
                log('t20|I21');
              });
              P[22] = (async () => {
                log('t20|A24');
                log('t20|W25:' + show(await Promise.resolve('v26')));
                clearImmediate(T[21]);
                P[27] = Promise.resolve('v28');
                P[29] = Promise.resolve('v30');
                return 'v31';
              })().finally(() => {
                log('t20|Y23');
                P[32] = Promise.resolve('v33');
              });
            }, 0);
          });
          sent += 1450;
          sock.write(Buffer.alloc(1450, 120));
          if (sent === 0) {
            ended = true;
            sock.end();
          }
        });
        sock.on('data', (d) => {
          got += d.length;
          if (first) {
            first = false;
            log('c2.1|data');
          }
          if (got === sent && !ended) {
            ended = true;
            sock.end();
          }
        });
        sock.on('end', () => {
          log('c2.1|end:' + got);
        });
        sock.on('close', () => {
          log('c2.1|close');
          c2_2();
        });
        sent += 2095;
        sock.write(Buffer.alloc(2095, 120), (err) => {
          log('c2.1|w36:' + (err ? err.code : 'ok'));
        });
        sent += 942;
        sock.write(Buffer.alloc(942, 120));
        sent += 2252;
        sock.write(Buffer.alloc(2252, 120), (err) => {
          log('c2.1|w37:' + (err ? err.code : 'ok'));
        });
      }
      function a2_2(sock) {
        let got = 0, first = true;
        sock.on('data', (d) => {
          sock.write(d);
          got += d.length;
          if (!first) return;
          first = false;
          log('a2.2|data');
        });
        sock.on('end', () => {
          log('a2.2|end:' + got);
        });
        sock.on('close', () => {
          log('a2.2|close');
        });
        log('a2.2|connection');
      }
      function c2_2() {
        let got = 0, sent = 0, first = true, ended = false;
        const sock = net.connect(srv.address().port, '127.0.0.1', () => {
          log('c2.2|connect');
          if (sent === 0) {
            ended = true;
            sock.end();
          }
        });
        sock.on('data', (d) => {
          got += d.length;
          if (first) {
            first = false;
            log('c2.2|data');
          }
          if (got === sent && !ended) {
            ended = true;
            sock.end();
          }
        });
        sock.on('end', () => {
          log('c2.2|end:' + got);
        });
        sock.on('close', () => {
          log('c2.2|close');
          c2_3();
        });
        sent += 2254;
        sock.write(Buffer.alloc(2254, 120));
        sent += 2895;
        sock.write(Buffer.alloc(2895, 120), (err) => {
          log('c2.2|w38:' + (err ? err.code : 'ok'));
        });
        sent += 3946;
        sock.write(Buffer.alloc(3946, 120));
      }
      function a2_3(sock) {
        let got = 0, first = true;
        sock.on('data', (d) => {
          sock.write(d);
          got += d.length;
          if (!first) return;
          first = false;
          log('a2.3|data');
        });
        sock.on('end', () => {
          log('a2.3|end:' + got);
        });
        sock.on('close', () => {
          log('a2.3|close');
        });
        log('a2.3|connection');
      }
      function c2_3() {
        let got = 0, sent = 0, first = true, ended = false;
        const sock = net.connect(srv.address().port, '127.0.0.1', () => {
          log('c2.3|connect');
          if (sent === 0) {
            ended = true;
            sock.end();
          }
        });
        sock.on('data', (d) => {
          got += d.length;
          if (first) {
            first = false;
            log('c2.3|data');
          }
          if (got === sent && !ended) {
            ended = true;
            sock.end();
          }
        });
        sock.on('end', () => {
          log('c2.3|end:' + got);
        });
        sock.on('close', () => {
          log('c2.3|close');
          srv.close(() => {
            log('s2|close');
          });
        });
      }
    }
  });
}, 0);
