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
  fs.stat(__filename + '.missing', (err) => {
    log('F1:' + (err ? err.code : 'ok'));
    log('L2');
    fs.stat(__filename + '.missing', (err) => {
      log('F3:' + (err ? err.code : 'ok'));
      queueMicrotask(() => {
        log('M4');
        fs.writeFile(D + '/f0', 'w5', (err) => {
          log('F5:' + (err ? err.code : 'ok'));
        });
      });
      T[6] = setTimeout(() => {
        log('T6');
        P[7] = Promise.race([]);
        process.nextTick(() => {
          log('K8');
          log('L9');
          log('L10');
        });
      }, 150);
      queueMicrotask(() => {
        log('M11');
      });
    });
    T[12] = setTimeout(() => {
      log('T12');
      clearTimeout(T[12]);
      {
        const srv = net.createServer();
        let n = 0;
        srv.on('connection', (sock) => [a13_1, a13_2][n++](sock));
        srv.listen(0, '127.0.0.1', () => {
          log('s13|listening');
          c13_1();
        });
        function a13_1(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a13.1|data');
          });
          sock.on('end', () => {
            log('a13.1|end:' + got);
            process.nextTick(() => {
              log('a13.1|K17');
              T[18] = setImmediate(() => {
                log('a13.1|I18');
                P[19] = Promise.reject(new Error('e20'));
              });
            });
          });
          sock.on('close', () => {
            log('a13.1|close');
            P[21] = Promise.resolve({ then(res, rej) {
              log('a13.1|N22');
              process.nextTick(() => {
                log('a13.1|K23');
                P[24] = Promise.reject(new Error('e25'));
              });
              rej(new Error('e22'));
            } });
          });
          log('a13.1|connection');
        }
        function c13_1() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c13.1|connect');
            T[14] = setTimeout(() => {
              log('t14|T14');
            }, 0);
            if (sent === 0) {
              ended = true;
              sock.end();
            }
          });
          sock.on('data', (d) => {
            got += d.length;
            if (first) {
              first = false;
              log('c13.1|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c13.1|end:' + got);
            log('c13.1|L15');
          });
          sock.on('close', () => {
            log('c13.1|close');
            queueMicrotask(() => {
              log('c13.1|M16');
            });
            c13_2();
          });
        }
        function a13_2(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a13.2|data');
          });
          sock.on('end', () => {
            log('a13.2|end:' + got);
          });
          sock.on('close', () => {
            log('a13.2|close');
          });
          log('a13.2|connection');
        }
        function c13_2() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c13.2|connect');
            fs.stat(__filename, (err) => {
              log('f26|F26:' + (err ? err.code : 'ok'));
              log('f26|L27');
              P[28] = Promise.reject(new Error('e29'));
            });
            sent += 606;
            sock.write(Buffer.alloc(606, 120), (err) => {
              log('c13.2|w30:' + (err ? err.code : 'ok'));
              fs.readFile(__filename, (err) => {
                log('f31|F31:' + (err ? err.code : 'ok'));
              });
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
              log('c13.2|data');
              P[32] = (async () => {
                log('c13.2|A33');
                queueMicrotask(() => {
                  log('c13.2|M34');
                  P[35] = Promise.reject(new Error('e36'));
                  P[37] = Promise.resolve('v38');
                });
                P[39] = (async () => {
                  log('c13.2|A40');
                  return Promise.resolve('v41');
                })();
                process.nextTick(() => {
                  log('c13.2|K42');
                });
                fs.stat(__filename, (err) => {
                  log('f43|F43:' + (err ? err.code : 'ok'));
                });
                return new Promise((res, rej) => {
                  R[44] = { res, rej };
                  log('c13.2|X44');
                  throw new Error('e45');
                });
              })();
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c13.2|end:' + got);
          });
          sock.on('close', () => {
            log('c13.2|close');
            fs.stat(__filename + '.missing', (err) => {
              log('f46|F46:' + (err ? err.code : 'ok'));
            });
            srv.close(() => {
              log('s13|close');
            });
          });
        }
      }
    }, 100);
  });
}, 0);
