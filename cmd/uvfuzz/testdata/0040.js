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
            queueMicrotask(() => {
              log('a13.1|M31');
              T[32] = setImmediate(() => {
                log('a13.1|I32');
                clearImmediate(T[32]);
              });
            });
            T[33] = setTimeout(() => {
              log('t33|T33');
              T[34] = setImmediate(() => {
                log('t33|I34');
                P[35] = Promise.resolve('v36');
                clearImmediate(T[34]);
                P[37] = Promise.resolve('v38');
              });
            }, 0);
          });
          sock.on('end', () => {
            log('a13.1|end:' + got);
          });
          sock.on('close', () => {
            log('a13.1|close');
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
              queueMicrotask(() => {
                log('c13.1|M18');
                P[19] = Promise.resolve('v20');
                P[21] = Promise.race([]).then((v) => {
                  log('c13.1|H22:' + show(v));
                  P[23] = Promise.reject(new Error('e24'));
                  return Promise.resolve('v25');
                });
              });
              log('c13.1|L26');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c13.1|end:' + got);
            T[27] = setTimeout(() => {
              log('t27|T27');
              T[28] = setImmediate(() => {
                log('t27|I28');
              });
            }, 0);
          });
          sock.on('close', () => {
            log('c13.1|close');
            process.nextTick(() => {
              log('c13.1|K29');
              fs.readFile(__filename, (err) => {
                log('f30|F30:' + (err ? err.code : 'ok'));
              });
            });
            c13_2();
          });
          sent += 1944;
          sock.write(Buffer.alloc(1944, 120), (err) => {
            log('c13.1|w16:' + (err ? err.code : 'ok'));
          });
          sent += 991;
          sock.write(Buffer.alloc(991, 120));
          log('c13.1|L15');
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
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c13.2|end:' + got);
            P[39] = Promise.reject(new Error('e40'));
          });
          sock.on('close', () => {
            log('c13.2|close');
            srv.close(() => {
              log('s13|close');
            });
          });
        }
      }
    }, 100);
  });
}, 0);
