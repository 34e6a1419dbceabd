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
const D = fs.mkdtempSync(require('path').join(require('os').tmpdir(), 'uvfuzz-'));
process.on('exit', () => fs.rmSync(D, { recursive: true, force: true }));
setTimeout(() => {
  T[1] = setTimeout(() => {
    log('T1');
    T[2] = setTimeout(() => {
      log('T2');
      T[3] = setImmediate(() => {
        log('I3');
        process.nextTick(() => {
          log('K4');
          fs.appendFile(D + '/f2', 'a5', (err) => {
            log('F5:' + (err ? err.code : 'ok'));
            clearImmediate(T[3]);
            P[6] = Promise.reject(new Error('e7'));
          });
          {
            const srv = net.createServer();
            let n = 0;
            srv.on('connection', (sock) => [a8_1, a8_2][n++](sock));
            srv.listen(0, '127.0.0.1', () => {
              log('s8|listening');
              c8_1();
            });
            function a8_1(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a8.1|data');
                P[13] = Promise.resolve('v14');
                P[15] = Promise.resolve('v16');
              });
              sock.on('end', () => {
                log('a8.1|end:' + got);
              });
              sock.on('close', () => {
                log('a8.1|close');
                log('a8.1|L17');
              });
              log('a8.1|connection');
              P[9] = Promise.reject(new Error('e10'));
              P[11] = Promise.resolve('v12');
            }
            function c8_1() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c8.1|connect');
                if (sent === 0) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('data', (d) => {
                got += d.length;
                if (first) {
                  first = false;
                  log('c8.1|data');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c8.1|end:' + got);
              });
              sock.on('close', () => {
                log('c8.1|close');
                c8_2();
              });
            }
            function a8_2(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a8.2|data');
              });
              sock.on('end', () => {
                log('a8.2|end:' + got);
              });
              sock.on('close', () => {
                log('a8.2|close');
              });
              log('a8.2|connection');
              P[27] = Promise.reject(new Error('e28'));
            }
            function c8_2() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c8.2|connect');
                log('c8.2|L18');
                if (sent === 0) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('data', (d) => {
                got += d.length;
                if (first) {
                  first = false;
                  log('c8.2|data');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c8.2|end:' + got);
              });
              sock.on('close', () => {
                log('c8.2|close');
                P[24] = Promise.resolve('v25');
                P[26] = P[24];
                srv.close(() => {
                  log('s8|close');
                });
              });
              sent += 3306;
              sock.write(Buffer.alloc(3306, 120));
              sent += 3874;
              sock.write(Buffer.alloc(3874, 120), (err) => {
                log('c8.2|w23:' + (err ? err.code : 'ok'));
              });
              sent += 2041;
              sock.write(Buffer.alloc(2041, 120), (err) => {
                log('c8.2|w19:' + (err ? err.code : 'ok'));
                P[20] = Promise.resolve('v21');
              });
            }
          }
        });
      });
    }, 50);
  }, 0);
}, 0);
