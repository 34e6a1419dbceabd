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
  log('L1');
  fs.mkdir(D + '/d0', (err) => {
    log('F2:' + (err ? err.code : 'ok'));
    T[3] = setTimeout(() => {
      log('T3');
      clearTimeout(T[3]);
    }, 0);
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
            P[7] = (async () => {
              log('s6|A10');
              P[11] = Promise.resolve('v12');
              return Promise.resolve('v13');
            })().finally(() => {
              log('s6|Y9');
              throw new Error('e14');
            }).then((v) => {
              log('s6|H8:' + show(v));
              return v;
            });
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
              P[41] = new Promise((res, rej) => {
                R[42] = { res, rej };
                log('a6.1|X42');
                P[43] = Promise.resolve('v44');
                throw new Error('e45');
              });
            });
            sock.on('end', () => {
              log('a6.1|end:' + got);
            });
            sock.on('close', () => {
              log('a6.1|close');
            });
            log('a6.1|connection');
            log('a6.1|L40');
          }
          function c6_1() {
            let got = 0, sent = 0, first = true, ended = false;
            const sock = net.connect(srv.address().port, '127.0.0.1', () => {
              log('c6.1|connect');
              sent += 3383;
              sock.write(Buffer.alloc(3383, 120));
              sent += 2277;
              sock.write(Buffer.alloc(2277, 120), (err) => {
                log('c6.1|w20:' + (err ? err.code : 'ok'));
                log('c6.1|L21');
                fs.readFile(__filename, (err) => {
                  log('f22|F22:' + (err ? err.code : 'ok'));
                  P[23] = Promise.resolve('v24');
                });
              });
              T[15] = setTimeout(() => {
                log('t15|T15');
                P[16] = Promise.resolve('v17');
                P[18] = Promise.resolve('v19');
              }, 5);
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
                P[31] = new Promise((res, rej) => {
                  R[34] = { res, rej };
                  log('c6.1|X34');
                }).finally(() => {
                  log('c6.1|Y33');
                  log('c6.1|L35');
                  throw new Error('e36');
                }).finally(() => {
                  log('c6.1|Y32');
                  return { then(res, rej) {
                    log('c6.1|N37');
                    rej(new Error('e37'));
                  } };
                });
                P[38] = Promise.resolve({ then(res, rej) {
                  log('c6.1|N39');
                  res('v39');
                  rej(new Error('e39'));
                } });
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
              c6_2();
            });
            sent += 161;
            sock.write(Buffer.alloc(161, 120), (err) => {
              log('c6.1|w26:' + (err ? err.code : 'ok'));
              fs.stat(__filename + '.missing', (err) => {
                log('f27|F27:' + (err ? err.code : 'ok'));
              });
              T[28] = setImmediate(() => {
                log('c6.1|I28');
              });
            });
            sent += 905;
            sock.write(Buffer.alloc(905, 120), (err) => {
              log('c6.1|w29:' + (err ? err.code : 'ok'));
            });
            sent += 2778;
            sock.write(Buffer.alloc(2778, 120));
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
              sent += 2230;
              sock.write(Buffer.alloc(2230, 120), (err) => {
                log('c6.2|w47:' + (err ? err.code : 'ok'));
              });
              sent += 2250;
              sock.write(Buffer.alloc(2250, 120), (err) => {
                log('c6.2|w46:' + (err ? err.code : 'ok'));
              });
              sent += 3408;
              sock.write(Buffer.alloc(3408, 120), (err) => {
                log('c6.2|w48:' + (err ? err.code : 'ok'));
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
            });
            sock.on('end', () => {
              log('a6.3|end:' + got);
            });
            sock.on('close', () => {
              log('a6.3|close');
            });
            log('a6.3|connection');
          }
          function c6_3() {
            let got = 0, sent = 0, first = true, ended = false;
            const sock = net.connect(srv.address().port, '127.0.0.1', () => {
              log('c6.3|connect');
              sent += 3651;
              sock.write(Buffer.alloc(3651, 120));
              sent += 1752;
              sock.write(Buffer.alloc(1752, 120), (err) => {
                log('c6.3|w49:' + (err ? err.code : 'ok'));
              });
              sent += 3211;
              sock.write(Buffer.alloc(3211, 120));
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
}, 0);
