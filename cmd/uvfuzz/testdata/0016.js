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
      fs.stat(__filename + '.missing', (err) => {
        log('F3:' + (err ? err.code : 'ok'));
        T[4] = setImmediate(() => {
          log('I4');
          fs.appendFile(D + '/f1', 'a5', (err) => {
            log('F5:' + (err ? err.code : 'ok'));
            clearTimeout(T[1]);
            clearInterval(T[1]);
          });
          log('L6');
          {
            const srv = net.createServer();
            let n = 0;
            srv.on('connection', (sock) => [a7_1, a7_2, a7_3][n++](sock));
            srv.listen(0, '127.0.0.1', () => {
              log('s7|listening');
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
                P[27] = Promise.resolve('v28');
              });
              sock.on('end', () => {
                log('a7.1|end:' + got);
                P[29] = Promise.reject(new Error('e30'));
              });
              sock.on('close', () => {
                log('a7.1|close');
              });
              log('a7.1|connection');
              P[25] = Promise.resolve('v26');
            }
            function c7_1() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c7.1|connect');
                sent += 3611;
                sock.write(Buffer.alloc(3611, 120));
                sent += 2789;
                sock.write(Buffer.alloc(2789, 120), (err) => {
                  log('c7.1|w14:' + (err ? err.code : 'ok'));
                  P[15] = Promise.resolve('v16');
                  P[17] = Promise.resolve('v18');
                });
                P[8] = Promise.reject(new Error('e9'));
                sent += 1096;
                sock.write(Buffer.alloc(1096, 120));
                P[10] = Promise.resolve('v11');
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
                  P[23] = Promise.reject(new Error('e24'));
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c7.1|end:' + got);
              });
              sock.on('close', () => {
                log('c7.1|close');
                c7_2();
              });
              sent += 2553;
              sock.write(Buffer.alloc(2553, 120), (err) => {
                log('c7.1|w19:' + (err ? err.code : 'ok'));
                P[20] = Promise.resolve('v21');
              });
              sent += 631;
              sock.write(Buffer.alloc(631, 120));
            }
            function a7_2(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a7.2|data');
                P[41] = Promise.resolve('v42');
                P[43] = P[41];
              });
              sock.on('end', () => {
                log('a7.2|end:' + got);
                P[44] = Promise.resolve('v45');
              });
              sock.on('close', () => {
                log('a7.2|close');
              });
              log('a7.2|connection');
              P[39] = Promise.resolve('v40');
            }
            function c7_2() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c7.2|connect');
                sent += 1741;
                sock.write(Buffer.alloc(1741, 120), (err) => {
                  log('c7.2|w33:' + (err ? err.code : 'ok'));
                });
                P[31] = Promise.resolve('v32');
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
                  P[34] = Promise.reject(new Error('e35'));
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c7.2|end:' + got);
                log('c7.2|L36');
                P[37] = Promise.reject(new Error('e38'));
              });
              sock.on('close', () => {
                log('c7.2|close');
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
                P[58] = Promise.resolve('v59');
              });
              log('a7.3|connection');
              P[56] = Promise.resolve('v57');
            }
            function c7_3() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c7.3|connect');
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
                  P[46] = Promise.resolve('v47');
                  P[48] = Promise.resolve('v49');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c7.3|end:' + got);
                P[50] = Promise.reject(new Error('e51'));
              });
              sock.on('close', () => {
                log('c7.3|close');
                P[52] = Promise.reject(new Error('e53'));
                P[54] = Promise.resolve('v55');
                srv.close(() => {
                  log('s7|close');
                  P[60] = Promise.reject(new Error('e61'));
                  P[62] = Promise.resolve('v63');
                });
              });
            }
          }
        });
        P[64] = Promise.reject(new Error('e66')).then((v) => {
          log('H65:' + show(v));
          {
            const srv = net.createServer();
            let n = 0;
            srv.on('connection', (sock) => [a67_1, a67_2, a67_3][n++](sock));
            srv.listen(0, '127.0.0.1', () => {
              log('s67|listening');
              P[68] = Promise.resolve('v69');
              c67_1();
            });
            function a67_1(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a67.1|data');
                P[84] = Promise.reject(new Error('e85'));
                P[86] = P[84];
              });
              sock.on('end', () => {
                log('a67.1|end:' + got);
                P[87] = Promise.reject(new Error('e88'));
              });
              sock.on('close', () => {
                log('a67.1|close');
              });
              log('a67.1|connection');
            }
            function c67_1() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c67.1|connect');
                sent += 626;
                sock.write(Buffer.alloc(626, 120), (err) => {
                  log('c67.1|w72:' + (err ? err.code : 'ok'));
                  P[73] = Promise.resolve('v74');
                });
                P[70] = Promise.resolve('v71');
                sent += 1787;
                sock.write(Buffer.alloc(1787, 120), (err) => {
                  log('c67.1|w75:' + (err ? err.code : 'ok'));
                  P[76] = Promise.reject(new Error('e77'));
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
                  log('c67.1|data');
                  P[78] = Promise.resolve('v79');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c67.1|end:' + got);
                P[80] = Promise.resolve('v81');
                P[82] = Promise.resolve('v83');
              });
              sock.on('close', () => {
                log('c67.1|close');
                c67_2();
              });
            }
            function a67_2(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a67.2|data');
              });
              sock.on('end', () => {
                log('a67.2|end:' + got);
              });
              sock.on('close', () => {
                log('a67.2|close');
              });
              log('a67.2|connection');
            }
            function c67_2() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c67.2|connect');
                if (sent === 0) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('data', (d) => {
                got += d.length;
                if (first) {
                  first = false;
                  log('c67.2|data');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c67.2|end:' + got);
              });
              sock.on('close', () => {
                log('c67.2|close');
                c67_3();
              });
              sent += 2706;
              sock.write(Buffer.alloc(2706, 120));
              sent += 3494;
              sock.write(Buffer.alloc(3494, 120), (err) => {
                log('c67.2|w90:' + (err ? err.code : 'ok'));
              });
              sent += 3434;
              sock.write(Buffer.alloc(3434, 120));
            }
            function a67_3(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a67.3|data');
              });
              sock.on('end', () => {
                log('a67.3|end:' + got);
              });
              sock.on('close', () => {
                log('a67.3|close');
              });
              log('a67.3|connection');
            }
            function c67_3() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c67.3|connect');
                sent += 2560;
                sock.write(Buffer.alloc(2560, 120), (err) => {
                  log('c67.3|w92:' + (err ? err.code : 'ok'));
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
                  log('c67.3|data');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c67.3|end:' + got);
              });
              sock.on('close', () => {
                log('c67.3|close');
                srv.close(() => {
                  log('s67|close');
                });
              });
            }
          }
          return Promise.resolve('v93');
        });
      });
    }, 150);
  }, 100);
}, 0);
