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
                P[35] = Promise.resolve('v36');
              });
              sock.on('close', () => {
                log('a19.1|close');
                P[37] = Promise.resolve('v38');
                P[39] = Promise.resolve('v40');
              });
              log('a19.1|connection');
              P[32] = Promise.resolve('v33');
              log('a19.1|L34');
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
                  P[25] = Promise.resolve('v26');
                  P[27] = Promise.resolve('v28');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c19.1|end:' + got);
                log('c19.1|L29');
              });
              sock.on('close', () => {
                log('c19.1|close');
                P[30] = Promise.resolve('v31');
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
                P[54] = Promise.resolve('v55');
              });
              sock.on('end', () => {
                log('a19.2|end:' + got);
              });
              sock.on('close', () => {
                log('a19.2|close');
                P[56] = Promise.reject(new Error('e57'));
                P[58] = Promise.resolve('v59');
              });
              log('a19.2|connection');
              P[52] = Promise.resolve('v53');
            }
            function c19_2() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c19.2|connect');
                P[41] = Promise.reject(new Error('e42'));
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
                  P[43] = Promise.reject(new Error('e44'));
                  log('c19.2|L45');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c19.2|end:' + got);
                log('c19.2|L46');
                P[47] = Promise.resolve('v48');
              });
              sock.on('close', () => {
                log('c19.2|close');
                log('c19.2|L49');
                P[50] = Promise.resolve('v51');
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
                P[67] = Promise.reject(new Error('e68'));
              });
              sock.on('end', () => {
                log('a19.3|end:' + got);
                P[69] = Promise.reject(new Error('e70'));
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
                sent += 3953;
                sock.write(Buffer.alloc(3953, 120), (err) => {
                  log('c19.3|w66:' + (err ? err.code : 'ok'));
                });
                sent += 3373;
                sock.write(Buffer.alloc(3373, 120));
                sent += 296;
                sock.write(Buffer.alloc(296, 120), (err) => {
                  log('c19.3|w63:' + (err ? err.code : 'ok'));
                  P[64] = Promise.resolve('v65');
                });
                P[60] = Promise.resolve('v61');
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
                srv.close(() => {
                  log('s19|close');
                });
              });
            }
          }
          {
            const srv = net.createServer();
            let n = 0;
            srv.on('connection', (sock) => [a71_1, a71_2, a71_3][n++](sock));
            srv.listen(0, '127.0.0.1', () => {
              log('s71|listening');
              P[72] = Promise.reject(new Error('e73'));
              c71_1();
            });
            function a71_1(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a71.1|data');
                P[77] = Promise.resolve('v78');
              });
              sock.on('end', () => {
                log('a71.1|end:' + got);
              });
              sock.on('close', () => {
                log('a71.1|close');
              });
              log('a71.1|connection');
              P[75] = Promise.resolve('v76');
            }
            function c71_1() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c71.1|connect');
                if (sent === 0) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('data', (d) => {
                got += d.length;
                if (first) {
                  first = false;
                  log('c71.1|data');
                  log('c71.1|L74');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c71.1|end:' + got);
              });
              sock.on('close', () => {
                log('c71.1|close');
                c71_2();
              });
            }
            function a71_2(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a71.2|data');
                P[87] = Promise.reject(new Error('e88'));
                P[89] = Promise.reject(new Error('e90'));
              });
              sock.on('end', () => {
                log('a71.2|end:' + got);
                P[91] = Promise.resolve('v92');
              });
              sock.on('close', () => {
                log('a71.2|close');
              });
              log('a71.2|connection');
            }
            function c71_2() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c71.2|connect');
                log('c71.2|L79');
                sent += 1954;
                sock.write(Buffer.alloc(1954, 120), (err) => {
                  log('c71.2|w80:' + (err ? err.code : 'ok'));
                  P[81] = Promise.resolve('v82');
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
                  log('c71.2|data');
                  P[83] = Promise.reject(new Error('e84'));
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c71.2|end:' + got);
              });
              sock.on('close', () => {
                log('c71.2|close');
                P[85] = Promise.resolve('v86');
                c71_3();
              });
            }
            function a71_3(sock) {
              let got = 0, first = true;
              sock.on('data', (d) => {
                sock.write(d);
                got += d.length;
                if (!first) return;
                first = false;
                log('a71.3|data');
              });
              sock.on('end', () => {
                log('a71.3|end:' + got);
              });
              sock.on('close', () => {
                log('a71.3|close');
              });
              log('a71.3|connection');
            }
            function c71_3() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c71.3|connect');
                sent += 1366;
                sock.write(Buffer.alloc(1366, 120));
                P[93] = Promise.resolve('v94');
                P[95] = Promise.reject(new Error('e96'));
                if (sent === 0) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('data', (d) => {
                got += d.length;
                if (first) {
                  first = false;
                  log('c71.3|data');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c71.3|end:' + got);
              });
              sock.on('close', () => {
                log('c71.3|close');
                srv.close(() => {
                  log('s71|close');
                });
              });
            }
          }
          return 'v98';
        }, (e) => {
          log('H16!' + msg(e));
          throw new Error('e99');
        }).finally(() => {
          log('Y15');
          throw new Error('e100');
        });
      });
    }, 150);
  }, 100);
}, 0);
