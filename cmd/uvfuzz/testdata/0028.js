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
      queueMicrotask(() => {
        log('M3');
        P[4] = Promise.resolve({ then(res, rej) {
          log('N6');
          clearInterval(T[1]);
          rej(new Error('e6'));
        } }).then((v) => {
          log('H5:' + show(v));
          queueMicrotask(() => {
            log('M7');
            P[8] = Promise.resolve('v9');
            clearTimeout(T[2]);
          });
          throw new Error('e10');
        });
      });
      fs.readdir(D, (err, names) => {
        log('F11:' + (err ? err.code : 'ok:' + names.sort().join(',')));
        log('L12');
        T[13] = setImmediate(() => {
          log('I13');
        });
        P[14] = (async () => {
          log('A17');
          throw new Error('e18');
        })().then((v) => {
          log('H16:' + show(v));
          {
            const srv = net.createServer();
            let n = 0;
            srv.on('connection', (sock) => [a19_1, a19_2, a19_3][n++](sock));
            srv.listen(0, '127.0.0.1', () => {
              log('s19|listening');
              P[20] = Promise.reject(new Error('e21'));
              c19_1();
            });
            function a19_1(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a19.1|data');
              });
              sock.on('end', () => {
                log('a19.1|end:' + got);
              });
              sock.on('close', () => {
                log('a19.1|close');
                log('a19.1|L25');
              });
              log('a19.1|connection');
            }
            function c19_1() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c19.1|connect');
                sent += 578;
                sock.write(Buffer.alloc(578, 120), (err) => {
                  log('c19.1|w23:' + (err ? err.code : 'ok'));
                });
                sent += 892;
                sock.write(Buffer.alloc(892, 120));
                sent += 2975;
                sock.write(Buffer.alloc(2975, 120), (err) => {
                  log('c19.1|w22:' + (err ? err.code : 'ok'));
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
                  log('c19.1|data');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c19.1|end:' + got);
              });
              sock.on('close', () => {
                log('c19.1|close');
                c19_2();
              });
            }
            function a19_2(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a19.2|data');
                log('a19.2|L38');
                P[39] = Promise.resolve('v40');
              });
              sock.on('end', () => {
                log('a19.2|end:' + got);
                log('a19.2|L41');
                P[42] = Promise.resolve('v43');
              });
              sock.on('close', () => {
                log('a19.2|close');
                P[44] = Promise.resolve('v45');
              });
              log('a19.2|connection');
              P[36] = Promise.resolve('v37');
            }
            function c19_2() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c19.2|connect');
                sent += 1470;
                sock.write(Buffer.alloc(1470, 120));
                sent += 3127;
                sock.write(Buffer.alloc(3127, 120));
                P[26] = Promise.resolve('v27');
                sent += 2626;
                sock.write(Buffer.alloc(2626, 120), (err) => {
                  log('c19.2|w28:' + (err ? err.code : 'ok'));
                  log('c19.2|L29');
                  P[30] = Promise.resolve('v31');
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
                  log('c19.2|data');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c19.2|end:' + got);
                P[34] = Promise.reject(new Error('e35'));
              });
              sock.on('close', () => {
                log('c19.2|close');
                c19_3();
              });
            }
            function a19_3(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a19.3|data');
              });
              sock.on('end', () => {
                log('a19.3|end:' + got);
              });
              sock.on('close', () => {
                log('a19.3|close');
              });
              log('a19.3|connection');
            }
            function c19_3() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c19.3|connect');
                sent += 1561;
                sock.write(Buffer.alloc(1561, 120));
                sent += 3998;
                sock.write(Buffer.alloc(3998, 120), (err) => {
                  log('c19.3|w48:' + (err ? err.code : 'ok'));
                  P[49] = Promise.resolve('v50');
                  log('c19.3|L51');
                });
                P[46] = Promise.resolve('v47');
                if (sent === 0) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('data', (d) => {
                got += d.length;
                if (first) {
                  first = false;
                  log('c19.3|data');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c19.3|end:' + got);
              });
              sock.on('close', () => {
                log('c19.3|close');
                P[53] = Promise.resolve('v54');
                srv.close(() => {
                  log('s19|close');
                  P[55] = Promise.resolve('v56');
                  P[57] = P[55];
                });
              });
            }
          }
          queueMicrotask(() => {
            log('M58');
            P[59] = Promise.resolve('v60');
            P[61] = P[59];
          });
        }, (e) => {
          log('H16!' + msg(e));
          process.nextTick(() => {
            log('K62');
          });
          return 'v63';
        }).finally(() => {
          log('Y15');
          {
            const srv = net.createServer();
            let n = 0;
            srv.on('connection', (sock) => [a64_1, a64_2, a64_3][n++](sock));
            srv.listen(0, '127.0.0.1', () => {
              log('s64|listening');
              P[65] = Promise.reject(new Error('e66'));
              P[67] = P[65];
              c64_1();
            });
            function a64_1(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a64.1|data');
                P[81] = Promise.resolve('v82');
              });
              sock.on('end', () => {
                log('a64.1|end:' + got);
              });
              sock.on('close', () => {
                log('a64.1|close');
                P[83] = Promise.resolve('v84');
                P[85] = Promise.reject(new Error('e86'));
              });
              log('a64.1|connection');
              P[79] = Promise.reject(new Error('e80'));
            }
            function c64_1() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c64.1|connect');
                sent += 3339;
                sock.write(Buffer.alloc(3339, 120), (err) => {
                  log('c64.1|w68:' + (err ? err.code : 'ok'));
                  P[69] = Promise.resolve('v70');
                });
                sent += 1954;
                sock.write(Buffer.alloc(1954, 120), (err) => {
                  log('c64.1|w71:' + (err ? err.code : 'ok'));
                  P[72] = Promise.resolve('v73');
                });
                sent += 1572;
                sock.write(Buffer.alloc(1572, 120), (err) => {
                  log('c64.1|w74:' + (err ? err.code : 'ok'));
                  P[75] = Promise.resolve('v76');
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
                  log('c64.1|data');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c64.1|end:' + got);
              });
              sock.on('close', () => {
                log('c64.1|close');
                P[77] = Promise.reject(new Error('e78'));
                c64_2();
              });
            }
            function a64_2(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a64.2|data');
              });
              sock.on('end', () => {
                log('a64.2|end:' + got);
              });
              sock.on('close', () => {
                log('a64.2|close');
              });
              log('a64.2|connection');
              P[98] = Promise.reject(new Error('e99'));
            }
            function c64_2() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c64.2|connect');
                sent += 3386;
                sock.write(Buffer.alloc(3386, 120), (err) => {
                  log('c64.2|w94:' + (err ? err.code : 'ok'));
                });
                sent += 2016;
                sock.write(Buffer.alloc(2016, 120), (err) => {
                  log('c64.2|w90:' + (err ? err.code : 'ok'));
                  P[91] = Promise.resolve('v92');
                });
                P[87] = Promise.resolve('v88');
                log('c64.2|L89');
                sent += 300;
                sock.write(Buffer.alloc(300, 120), (err) => {
                  log('c64.2|w93:' + (err ? err.code : 'ok'));
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
                  log('c64.2|data');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c64.2|end:' + got);
                P[96] = Promise.resolve('v97');
              });
              sock.on('close', () => {
                log('c64.2|close');
                c64_3();
              });
              sent += 1715;
              sock.write(Buffer.alloc(1715, 120), (err) => {
                log('c64.2|w95:' + (err ? err.code : 'ok'));
              });
            }
            function a64_3(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a64.3|data');
              });
              sock.on('end', () => {
                log('a64.3|end:' + got);
              });
              sock.on('close', () => {
                log('a64.3|close');
              });
              log('a64.3|connection');
              srv.close(() => {
                log('s64|close');
              });
            }
            function c64_3() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c64.3|connect');
                sent += 2473;
                sock.write(Buffer.alloc(2473, 120));
                if (sent === 0) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('data', (d) => {
                got += d.length;
                if (first) {
                  first = false;
                  log('c64.3|data');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c64.3|end:' + got);
              });
              sock.on('close', () => {
                log('c64.3|close');
              });
            }
          }
          return Promise.resolve('v101');
        });
      });
    }, 150);
  }, 100);
}, 0);
