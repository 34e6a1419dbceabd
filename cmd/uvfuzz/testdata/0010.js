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
    process.nextTick(() => {
      log('K2');
      T[3] = setTimeout(() => {
        log('T3');
      }, 100);
    });
    process.nextTick(() => {
      log('K4');
      fs.stat(__filename + '.missing', (err) => {
        log('F5:' + (err ? err.code : 'ok'));
        {
          const srv = net.createServer();
          let n = 0;
          srv.on('connection', (sock) => [a6_1, a6_2][n++](sock));
          srv.listen(0, '127.0.0.1', () => {
            log('s6|listening');
            process.nextTick(() => {
              log('s6|K7');
              P[8] = Promise.resolve('v9');
              P[10] = P[8];
            });
            P[11] = Promise.resolve('v12');
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
              log('a6.1|L31');
            });
            sock.on('close', () => {
              log('a6.1|close');
            });
            log('a6.1|connection');
            fs.stat(__filename + '.missing', (err) => {
              log('f29|F29:' + (err ? err.code : 'ok'));
            });
            queueMicrotask(() => {
              log('a6.1|M30');
            });
          }
          function c6_1() {
            let got = 0, sent = 0, first = true, ended = false;
            const sock = net.connect(srv.address().port, '127.0.0.1', () => {
              log('c6.1|connect');
              sent += 2812;
              sock.write(Buffer.alloc(2812, 120), (err) => {
                log('c6.1|w15:' + (err ? err.code : 'ok'));
                T[16] = setImmediate(() => {
                  log('c6.1|I16');
                  P[17] = Promise.reject(new Error('e18'));
                });
                P[19] = Promise.resolve('v20');
              });
              P[13] = Promise.resolve('v14');
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
              }
              if (got === sent && !ended) {
                ended = true;
                sock.end();
              }
            });
            sock.on('end', () => {
              log('c6.1|end:' + got);
              fs.readFile(__filename, (err) => {
                log('f21|F21:' + (err ? err.code : 'ok'));
                P[22] = Promise.resolve('v23');
                P[24] = Promise.reject(new Error('e25'));
              });
            });
            sock.on('close', () => {
              log('c6.1|close');
              process.nextTick(() => {
                log('c6.1|K26');
                P[27] = Promise.reject(new Error('e28'));
              });
              c6_2();
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
            });
            sock.on('end', () => {
              log('a6.2|end:' + got);
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
              sent += 1706;
              sock.write(Buffer.alloc(1706, 120), (err) => {
                log('c6.2|w37:' + (err ? err.code : 'ok'));
              });
              process.nextTick(() => {
                log('c6.2|K32');
                P[33] = Promise.reject(new Error('e34'));
                P[35] = Promise.resolve('v36');
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
              srv.close(() => {
                log('s6|close');
              });
            });
            sent += 3701;
            sock.write(Buffer.alloc(3701, 120), (err) => {
              log('c6.2|w40:' + (err ? err.code : 'ok'));
            });
            sent += 379;
            sock.write(Buffer.alloc(379, 120));
            sent += 1548;
            sock.write(Buffer.alloc(1548, 120), (err) => {
              log('c6.2|w38:' + (err ? err.code : 'ok'));
            });
          }
        }
      });
    });
  });
}, 0);
