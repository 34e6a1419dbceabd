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
  T[1] = setImmediate(() => {
    log('I1');
    fs.readdir(D, (err, names) => {
      log('F2:' + (err ? err.code : 'ok:' + names.sort().join(',')));
      fs.readFile(D + '/f1', 'utf8', (err, d) => {
        log('F3:' + (err ? err.code : 'ok:' + d));
      });
      process.nextTick(() => {
        log('K4');
        {
          const srv = net.createServer();
          let n = 0;
          srv.on('connection', (sock) => [a5_1][n++](sock));
          srv.listen(0, '127.0.0.1', () => {
            log('s5|listening');
            P[6] = new Promise((res, rej) => {
              R[7] = { res, rej };
              log('s5|X7');
              P[8] = Promise.reject(new Error('e9'));
            });
            c5_1();
          });
          function a5_1(sock) {
            let got = 0, first = true;
            sock.on('data', (d) => {
              sock.write(d);
              got += d.length;
              if (!first) return;
              first = false;
              log('a5.1|data');
            });
            sock.on('end', () => {
              log('a5.1|end:' + got);
              T[16] = setImmediate(() => {
                log('a5.1|I16');
              });
              process.nextTick(() => {
                log('a5.1|K17');
                P[18] = Promise.resolve('v19');
                clearImmediate(T[16]);
              });
            });
            sock.on('close', () => {
              log('a5.1|close');
              queueMicrotask(() => {
                log('a5.1|M20');
                P[21] = Promise.resolve('v22');
              });
              queueMicrotask(() => {
                log('a5.1|M23');
                P[24] = Promise.resolve('v25');
              });
            });
            log('a5.1|connection');
          }
          function c5_1() {
            let got = 0, sent = 0, first = true, ended = false;
            const sock = net.connect(srv.address().port, '127.0.0.1', () => {
              log('c5.1|connect');
              sent += 3412;
              sock.write(Buffer.alloc(3412, 120), (err) => {
                log('c5.1|w10:' + (err ? err.code : 'ok'));
              });
              sent += 3382;
              sock.write(Buffer.alloc(3382, 120));
              if (sent === 0) {
                ended = true;
                sock.end();
              }
            });
            sock.on('data', (d) => {
              got += d.length;
              if (first) {
                first = false;
                log('c5.1|data');
                log('c5.1|L12');
              }
              if (got === sent && !ended) {
                ended = true;
                sock.end();
              }
            });
            sock.on('end', () => {
              log('c5.1|end:' + got);
              process.nextTick(() => {
                log('c5.1|K13');
                P[14] = Promise.resolve('v15');
              });
            });
            sock.on('close', () => {
              log('c5.1|close');
              srv.close(() => {
                log('s5|close');
                T[26] = setImmediate(() => {
                  log('s5|I26');
                  clearImmediate(T[26]);
                });
              });
            });
          }
        }
        {
          const srv = net.createServer();
          let n = 0;
          srv.on('connection', (sock) => [a27_1][n++](sock));
          srv.listen(0, '127.0.0.1', () => {
            log('s27|listening');
            c27_1();
          });
          function a27_1(sock) {
            let got = 0, first = true;
            sock.on('data', (d) => {
              sock.write(d);
              got += d.length;
              if (!first) return;
              first = false;
              log('a27.1|data');
              T[36] = setTimeout(() => {
                log('t36|T36');
              }, 0);
            });
            sock.on('end', () => {
              log('a27.1|end:' + got);
              fs.stat(__filename, (err) => {
                log('f37|F37:' + (err ? err.code : 'ok'));
              });
              process.nextTick(() => {
                log('a27.1|K38');
                P[39] = Promise.resolve('v40');
                P[41] = Promise.reject(new Error('e42'));
              });
            });
            sock.on('close', () => {
              log('a27.1|close');
            });
            log('a27.1|connection');
            srv.close(() => {
              log('s27|close');
            });
          }
          function c27_1() {
            let got = 0, sent = 0, first = true, ended = false;
            const sock = net.connect(srv.address().port, '127.0.0.1', () => {
              log('c27.1|connect');
              if (sent === 0) {
                ended = true;
                sock.end();
              }
            });
            sock.on('data', (d) => {
              got += d.length;
              if (first) {
                first = false;
                log('c27.1|data');
                queueMicrotask(() => {
                  log('c27.1|M28');
                  P[29] = Promise.resolve('v30');
                });
              }
              if (got === sent && !ended) {
                ended = true;
                sock.end();
              }
            });
            sock.on('end', () => {
              log('c27.1|end:' + got);
            });
            sock.on('close', () => {
              log('c27.1|close');
              process.nextTick(() => {
                log('c27.1|K31');
                P[32] = Promise.resolve('v33');
                P[34] = Promise.reject(new Error('e35'));
              });
            });
          }
        }
      });
    });
  });
  T[43] = setImmediate(() => {
    log('I43');
    P[44] = Promise.resolve('v45');
    queueMicrotask(() => {
      log('M46');
    });
  });
  P[47] = Promise.reject(new Error('e48'));
}, 0);
