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
  process.nextTick(() => {
    log('K1');
  });
  fs.writeFile(D + '/f0', 'w2', (err) => {
    log('F2:' + (err ? err.code : 'ok'));
  });
  queueMicrotask(() => {
    log('M3');
    log('L4');
    process.nextTick(() => {
      log('K5');
      {
        const srv = net.createServer();
        let n = 0;
        srv.on('connection', (sock) => [a6_1, a6_2][n++](sock));
        srv.listen(0, '127.0.0.1', () => {
          log('s6|listening');
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
            sent += 2313;
            sock.write(Buffer.alloc(2313, 120), (err) => {
              log('c6.1|w19:' + (err ? err.code : 'ok'));
              T[20] = setTimeout(() => {
                log('t20|T20');
              }, 0);
            });
            sent += 2687;
            sock.write(Buffer.alloc(2687, 120), (err) => {
              log('c6.1|w11:' + (err ? err.code : 'ok'));
              fs.readFile(__filename, (err) => {
                log('f12|F12:' + (err ? err.code : 'ok'));
                T[13] = setImmediate(() => {
                  log('f12|I13');
                  clearImmediate(T[13]);
                });
                P[14] = Promise.resolve({ then(res, rej) {
                  log('f12|N16');
                  process.nextTick(() => res('v16'));
                } }).then((v) => {
                  log('f12|H15:' + show(v));
                  clearImmediate(T[13]);
                  throw new Error('e17');
                });
              });
              queueMicrotask(() => {
                log('c6.1|M18');
              });
            });
            process.nextTick(() => {
              log('c6.1|K7');
              process.nextTick(() => {
                log('c6.1|K8');
              });
            });
            fs.stat(__filename + '.missing', (err) => {
              log('f9|F9:' + (err ? err.code : 'ok'));
              T[10] = setImmediate(() => {
                log('f9|I10');
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
              log('c6.1|data');
              P[27] = (async () => {
                log('c6.1|A28');
                return 'v29';
              })();
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
          process.nextTick(() => {
            log('c6.1|K21');
          });
          sent += 3650;
          sock.write(Buffer.alloc(3650, 120), (err) => {
            log('c6.1|w23:' + (err ? err.code : 'ok'));
          });
          sent += 3155;
          sock.write(Buffer.alloc(3155, 120), (err) => {
            log('c6.1|w22:' + (err ? err.code : 'ok'));
          });
          sent += 3816;
          sock.write(Buffer.alloc(3816, 120), (err) => {
            log('c6.1|w24:' + (err ? err.code : 'ok'));
            queueMicrotask(() => {
              log('c6.1|M25');
            });
            T[26] = setTimeout(() => {
              log('t26|T26');
            }, 5);
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
            sent += 315;
            sock.write(Buffer.alloc(315, 120), (err) => {
              log('c6.2|w30:' + (err ? err.code : 'ok'));
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
            srv.close(() => {
              log('s6|close');
            });
          });
        }
      }
    });
  });
}, 0);
