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
              fs.stat(__filename, (err) => {
                log('f29|F29:' + (err ? err.code : 'ok'));
                P[30] = Promise.resolve('v31');
              });
              P[32] = (async () => {
                log('a6.1|A33');
                P[34] = Promise.reject(new Error('e35'));
                P[36] = P[34];
                log('a6.1|L37');
                return { then(res, rej) {
                  log('a6.1|N38');
                  rej(new Error('e38'));
                } };
              })();
            });
            sock.on('end', () => {
              log('a6.1|end:' + got);
            });
            sock.on('close', () => {
              log('a6.1|close');
            });
            log('a6.1|connection');
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
              fs.stat(__filename, (err) => {
                log('f26|F26:' + (err ? err.code : 'ok'));
              });
              P[27] = Promise.resolve({ then(res, rej) {
                log('c6.1|N28');
                process.nextTick(() => res('v28'));
              } });
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
              fs.stat(__filename + '.missing', (err) => {
                log('f39|F39:' + (err ? err.code : 'ok'));
                P[40] = Promise.resolve('v41');
                P[42] = Promise.reject(new Error('e43'));
                log('f39|L44');
              });
              sent += 3867;
              sock.write(Buffer.alloc(3867, 120));
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
                T[46] = setImmediate(() => {
                  log('c6.2|I46');
                  clearImmediate(T[46]);
                  clearImmediate(T[46]);
                  log('c6.2|L47');
                });
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
              sent += 2042;
              sock.write(Buffer.alloc(2042, 120));
              sent += 609;
              sock.write(Buffer.alloc(609, 120));
              sent += 3919;
              sock.write(Buffer.alloc(3919, 120), (err) => {
                log('c6.3|w50:' + (err ? err.code : 'ok'));
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
