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
              });
              sock.on('end', () => {
                log('a7.1|end:' + got);
                P[23] = Promise.resolve('v24');
                P[25] = Promise.reject(new Error('e26'));
              });
              sock.on('close', () => {
                log('a7.1|close');
              });
              log('a7.1|connection');
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
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c7.1|end:' + got);
                P[19] = Promise.resolve('v20');
              });
              sock.on('close', () => {
                log('c7.1|close');
                P[21] = Promise.resolve('v22');
                c7_2();
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
                P[33] = Promise.resolve('v34');
              });
              sock.on('end', () => {
                log('a7.2|end:' + got);
              });
              sock.on('close', () => {
                log('a7.2|close');
                P[35] = Promise.resolve('v36');
              });
              log('a7.2|connection');
            }
            function c7_2() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c7.2|connect');
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
                  P[27] = Promise.resolve('v28');
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c7.2|end:' + got);
                P[29] = Promise.resolve('v30');
              });
              sock.on('close', () => {
                log('c7.2|close');
                P[31] = Promise.reject(new Error('e32'));
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
                P[46] = Promise.resolve('v47');
              });
              sock.on('end', () => {
                log('a7.3|end:' + got);
              });
              sock.on('close', () => {
                log('a7.3|close');
              });
              log('a7.3|connection');
              P[43] = Promise.resolve('v44');
              P[45] = P[43];
            }
            function c7_3() {
              let got = 0, sent = 0, first = true, ended = false;
              const sock = net.connect(srv.address().port, '127.0.0.1', () => {
                log('c7.3|connect');
                sent += 3966;
                sock.write(Buffer.alloc(3966, 120), (err) => {
                  log('c7.3|w37:' + (err ? err.code : 'ok'));
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
                  log('c7.3|data');
                  log('c7.3|L38');
                  P[39] = Promise.reject(new Error('e40'));
                }
                if (got === sent && !ended) {
                  ended = true;
                  sock.end();
                }
              });
              sock.on('end', () => {
                log('c7.3|end:' + got);
              });
              sock.on('close', () => {
                log('c7.3|close');
                P[41] = Promise.resolve('v42');
                srv.close(() => {
                  log('s7|close');
                });
              });
            }
          }
        });
        {
          const srv = net.createServer();
          let n = 0;
          srv.on('connection', (sock) => [a48_1, a48_2][n++](sock));
          srv.listen(0, '127.0.0.1', () => {
            log('s48|listening');
            T[49] = setImmediate(() => {
              log('s48|I49');
              clearImmediate(T[49]);
            });
            c48_1();
          });
          function a48_1(sock) {
            let got = 0, first = true;
            sock.on('data', (d) => {
              sock.write(d);
              got += d.length;
              if (!first) return;
              first = false;
              log('a48.1|data');
              T[75] = setTimeout(() => {
                log('t75|T75');
                P[76] = Promise.resolve('v77');
              }, 0);
            });
            sock.on('end', () => {
              log('a48.1|end:' + got);
            });
            sock.on('close', () => {
              log('a48.1|close');
            });
            log('a48.1|connection');
            T[68] = setTimeout(() => {
              log('t68|T68');
              P[69] = Promise.resolve('v70');
            }, 5);
            P[71] = new Promise((res, rej) => {
              R[73] = { res, rej };
              log('a48.1|X73');
              clearTimeout(T[68]);
            }).then((v) => {
              log('a48.1|H72:' + show(v));
              return 'v74';
            });
          }
          function c48_1() {
            let got = 0, sent = 0, first = true, ended = false;
            const sock = net.connect(srv.address().port, '127.0.0.1', () => {
              log('c48.1|connect');
              P[50] = (async () => {
                log('c48.1|A51');
                try {
                  const v = await Promise.resolve('v53');
                  log('c48.1|W52:' + show(v));
                } catch (e) {
                  log('c48.1|W52!' + msg(e));
                }
                throw new Error('e54');
              })();
              sent += 464;
              sock.write(Buffer.alloc(464, 120), (err) => {
                log('c48.1|w55:' + (err ? err.code : 'ok'));
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
                log('c48.1|data');
                T[56] = setTimeout(() => {
                  log('t56|T56');
                }, 0);
              }
              if (got === sent && !ended) {
                ended = true;
                sock.end();
              }
            });
            sock.on('end', () => {
              log('c48.1|end:' + got);
              queueMicrotask(() => {
                log('c48.1|M57');
                P[58] = Promise.resolve('v59');
              });
              P[60] = Promise.reject(new Error('e62')).then((v) => {
                log('c48.1|H61:' + show(v));
                throw new Error('e63');
              });
            });
            sock.on('close', () => {
              log('c48.1|close');
              P[64] = new Promise((res, rej) => {
                R[65] = { res, rej };
                log('c48.1|X65');
                P[66] = Promise.resolve('v67');
              });
              c48_2();
            });
          }
          function a48_2(sock) {
            let got = 0, first = true;
            sock.on('data', (d) => {
              sock.write(d);
              got += d.length;
              if (!first) return;
              first = false;
              log('a48.2|data');
            });
            sock.on('end', () => {
              log('a48.2|end:' + got);
            });
            sock.on('close', () => {
              log('a48.2|close');
            });
            log('a48.2|connection');
          }
          function c48_2() {
            let got = 0, sent = 0, first = true, ended = false;
            const sock = net.connect(srv.address().port, '127.0.0.1', () => {
              log('c48.2|connect');
              sent += 1785;
              sock.write(Buffer.alloc(1785, 120), (err) => {
                log('c48.2|w78:' + (err ? err.code : 'ok'));
              });
              sent += 3392;
              sock.write(Buffer.alloc(3392, 120), (err) => {
                log('c48.2|w80:' + (err ? err.code : 'ok'));
              });
              sent += 1038;
              sock.write(Buffer.alloc(1038, 120));
              if (sent === 0) {
                ended = true;
                sock.end();
              }
            });
            sock.on('data', (d) => {
              got += d.length;
              if (first) {
                first = false;
                log('c48.2|data');
              }
              if (got === sent && !ended) {
                ended = true;
                sock.end();
              }
            });
            sock.on('end', () => {
              log('c48.2|end:' + got);
            });
            sock.on('close', () => {
              log('c48.2|close');
              srv.close(() => {
                log('s48|close');
              });
            });
          }
        }
      });
    }, 150);
  }, 100);
}, 0);
