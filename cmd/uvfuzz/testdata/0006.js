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
    fs.readFile(D + '/f0', 'utf8', (err, d) => {
      log('F2:' + (err ? err.code : 'ok:' + d));
      P[3] = new Promise((res, rej) => {
        R[5] = { res, rej };
        log('X5');
      }).then((v) => {
        log('H4:' + show(v));
        throw new Error('e6');
      });
      fs.stat(__filename + '.missing', (err) => {
        log('F7:' + (err ? err.code : 'ok'));
      });
      {
        const srv = net.createServer();
        let n = 0;
        srv.on('connection', (sock) => [a8_1][n++](sock));
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
          });
          sock.on('end', () => {
            log('a8.1|end:' + got);
          });
          sock.on('close', () => {
            log('a8.1|close');
          });
          log('a8.1|connection');
        }
        function c8_1() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c8.1|connect');
            sent += 217;
            sock.write(Buffer.alloc(217, 120), (err) => {
              log('c8.1|w17:' + (err ? err.code : 'ok'));
              fs.stat(__filename + '.missing', (err) => {
                log('f18|F18:' + (err ? err.code : 'ok'));
                P[19] = new Promise((res, rej) => {
                  R[20] = { res, rej };
                  log('f18|X20');
                  P[21] = Promise.resolve('v22');
                });
                P[23] = new Promise((res, rej) => {
                  R[24] = { res, rej };
                  log('f18|X24');
                });
              });
              queueMicrotask(() => {
                log('c8.1|M25');
              });
            });
            P[9] = new Promise((res, rej) => {
              R[10] = { res, rej };
              log('c8.1|X10');
              log('c8.1|L11');
              rej(new Error('e12'));
            });
            sent += 1459;
            sock.write(Buffer.alloc(1459, 120));
            P[13] = (async () => {
              log('c8.1|A14');
              T[15] = setTimeout(() => {
                log('t15|T15');
              }, 5);
              throw new Error('e16');
            })();
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
              fs.readFile(__filename, (err) => {
                log('f37|F37:' + (err ? err.code : 'ok'));
              });
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
            srv.close(() => {
              log('s8|close');
            });
          });
          sent += 645;
          sock.write(Buffer.alloc(645, 120), (err) => {
            log('c8.1|w27:' + (err ? err.code : 'ok'));
            fs.stat(__filename + '.missing', (err) => {
              log('f28|F28:' + (err ? err.code : 'ok'));
              T[29] = setImmediate(() => {
                log('f28|I29');
                clearImmediate(T[29]);
                P[30] = Promise.resolve('v31');
              });
              P[32] = Promise.reject(new Error('e33'));
            });
          });
          sent += 3033;
          sock.write(Buffer.alloc(3033, 120), (err) => {
            log('c8.1|w35:' + (err ? err.code : 'ok'));
            log('c8.1|L36');
          });
          sent += 847;
          sock.write(Buffer.alloc(847, 120), (err) => {
            log('c8.1|w34:' + (err ? err.code : 'ok'));
          });
        }
      }
    });
  }, 50);
}, 0);
