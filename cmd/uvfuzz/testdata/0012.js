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
  queueMicrotask(() => {
    log('M1');
  });
  T[2] = setTimeout(() => {
    log('T2');
    T[3] = setImmediate(() => {
      log('I3');
      fs.appendFile(D + '/f2', 'a4', (err) => {
        log('F4:' + (err ? err.code : 'ok'));
        P[5] = Promise.resolve({ then(res, rej) {
          log('N6');
          {
            const srv = net.createServer();
            let n = 0;
            srv.on('connection', (sock) => [a7_1, a7_2, a7_3][n++](sock));
            srv.listen(0, '127.0.0.1', () => {
              log('s7|listening');
              P[8] = Promise.reject(new Error('e9'));
              c7_1();
            });
            function a7_1(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a7.1|data');
              });
              sock.on('end', () => {
                log('a7.1|end:' + got);
                P[27] = Promise.resolve('v28');
              });
              sock.on('close', () => {
                log('a7.1|close');
              });
              log('a7.1|connection');
              P[25] = Promise.reject(new Error('e26'));
            }
            function c7_1() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c7.1|connect');
                sent += 3996;
                sock.write(Buffer.alloc(3996, 120), (err) => {
                  log('c7.1|w11:' + (err ? err.code : 'ok'));
                  P[12] = Promise.resolve('v13');
                });
                sent += 2184;
                sock.write(Buffer.alloc(2184, 120));
                if (sent === 0) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('data', (d) => {
                got += d.length;
                if (first) {
                  first = false;
                  log('c7.1|data');
                  P[19] = Promise.resolve('v20');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c7.1|end:' + got);
                P[21] = Promise.reject(new Error('e22'));
              });
              sock.on('close', () => {
                log('c7.1|close');
                P[23] = Promise.resolve('v24');
                c7_2();
              });
              sent += 3275;
              sock.write(Buffer.alloc(3275, 120), (err) => {
                log('c7.1|w15:' + (err ? err.code : 'ok'));
                P[16] = Promise.resolve('v17');
              });
              sent += 810;
              sock.write(Buffer.alloc(810, 120));
              sent += 2044;
              sock.write(Buffer.alloc(2044, 120), (err) => {
                log('c7.1|w18:' + (err ? err.code : 'ok'));
              });
            }
            function a7_2(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a7.2|data');
              });
              sock.on('end', () => {
                log('a7.2|end:' + got);
              });
              sock.on('close', () => {
                log('a7.2|close');
              });
              log('a7.2|connection');
              P[40] = Promise.resolve('v41');
            }
            function c7_2() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c7.2|connect');
                sent += 2912;
                sock.write(Buffer.alloc(2912, 120), (err) => {
                  log('c7.2|w31:' + (err ? err.code : 'ok'));
                  P[32] = Promise.resolve('v33');
                });
                P[29] = Promise.resolve('v30');
                if (sent === 0) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('data', (d) => {
                got += d.length;
                if (first) {
                  first = false;
                  log('c7.2|data');
                  P[34] = Promise.resolve('v35');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c7.2|end:' + got);
                P[36] = Promise.resolve('v37');
              });
              sock.on('close', () => {
                log('c7.2|close');
                P[38] = Promise.resolve('v39');
                c7_3();
              });
            }
            function a7_3(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a7.3|data');
              });
              sock.on('end', () => {
                log('a7.3|end:' + got);
              });
              sock.on('close', () => {
                log('a7.3|close');
              });
              log('a7.3|connection');
              P[54] = Promise.resolve('v55');
            }
            function c7_3() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c7.3|connect');
                P[42] = Promise.reject(new Error('e43'));
                P[44] = Promise.resolve('v45');
                if (sent === 0) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('data', (d) => {
                got += d.length;
                if (first) {
                  first = false;
                  log('c7.3|data');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c7.3|end:' + got);
                P[48] = Promise.reject(new Error('e49'));
                P[50] = Promise.reject(new Error('e51'));
              });
              sock.on('close', () => {
                log('c7.3|close');
                P[52] = Promise.resolve('v53');
                srv.close(() => {
                  log('s7|close');
                });
              });
              sent += 2120;
              sock.write(Buffer.alloc(2120, 120));
              sent += 2031;
              sock.write(Buffer.alloc(2031, 120), (err) => {
                log('c7.3|w47:' + (err ? err.code : 'ok'));
              });
            }
          }
          res('v6');
          throw new Error('x6');
        } });
      });
    });
  }, 0);
}, 0);
