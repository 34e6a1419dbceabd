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
              T[15] = setImmediate(() => {
                log('a5.1|I15');
              });
              process.nextTick(() => {
                log('a5.1|K16');
                P[17] = Promise.resolve('v18');
                clearImmediate(T[15]);
              });
            });
            sock.on('close', () => {
              log('a5.1|close');
              queueMicrotask(() => {
                log('a5.1|M19');
                P[20] = Promise.resolve('v21');
              });
              queueMicrotask(() => {
                log('a5.1|M22');
                P[23] = Promise.resolve('v24');
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
              }
              if (got === sent && !ended) {
                ended = true;
                sock.end();
              }
            });
            sock.on('end', () => {
              log('c5.1|end:' + got);
              process.nextTick(() => {
                log('c5.1|K12');
                P[13] = Promise.resolve('v14');
              });
            });
            sock.on('close', () => {
              log('c5.1|close');
              srv.close(() => {
                log('s5|close');
                T[25] = setImmediate(() => {
                  log('s5|I25');
                  clearImmediate(T[25]);
                });
              });
            });
          }
        }
        {
          const srv = net.createServer();
          let n = 0;
          srv.on('connection', (sock) => [a26_1][n++](sock));
          srv.listen(0, '127.0.0.1', () => {
            log('s26|listening');
            c26_1();
          });
          function a26_1(sock) {
            let got = 0, first = true;
            sock.on('data', (d) => {
              sock.write(d);
              got += d.length;
              if (!first) return;
              first = false;
              log('a26.1|data');
            });
            sock.on('end', () => {
              log('a26.1|end:' + got);
              T[50] = setTimeout(() => {
                log('t50|T50');
              }, 5);
              P[51] = Promise.resolve('v52');
            });
            sock.on('close', () => {
              log('a26.1|close');
            });
            log('a26.1|connection');
            fs.stat(__filename + '.missing', (err) => {
              log('f43|F43:' + (err ? err.code : 'ok'));
              P[44] = Promise.reject(new Error('e45'));
              P[46] = P[44];
              P[47] = Promise.reject(new Error('e48'));
            });
            fs.stat(__filename + '.missing', (err) => {
              log('f49|F49:' + (err ? err.code : 'ok'));
            });
            srv.close(() => {
              log('s26|close');
            });
          }
          function c26_1() {
            let got = 0, sent = 0, first = true, ended = false;
            const sock = net.connect(srv.address().port, '127.0.0.1', () => {
              log('c26.1|connect');
              if (sent === 0) {
                ended = true;
                sock.end();
              }
            });
            sock.on('data', (d) => {
              got += d.length;
              if (first) {
                first = false;
                log('c26.1|data');
                fs.readFile(__filename, (err) => {
                  log('f39|F39:' + (err ? err.code : 'ok'));
                });
              }
              if (got === sent && !ended) {
                ended = true;
                sock.end();
              }
            });
            sock.on('end', () => {
              log('c26.1|end:' + got);
            });
            sock.on('close', () => {
              log('c26.1|close');
              queueMicrotask(() => {
                log('c26.1|M40');
                P[41] = Promise.resolve('v42');
              });
            });
            sent += 3309;
            sock.write(Buffer.alloc(3309, 120), (err) => {
              log('c26.1|w28:' + (err ? err.code : 'ok'));
              P[29] = (async () => {
                log('c26.1|A32');
                return 'v33';
              })().finally(() => {
                log('c26.1|Y31');
                P[34] = Promise.resolve('v35');
              }).finally(() => {
                log('c26.1|Y30');
              });
              T[36] = setTimeout(() => {
                log('t36|T36');
                P[37] = Promise.resolve('v38');
              }, 0);
            });
            queueMicrotask(() => {
              log('c26.1|M27');
            });
          }
        }
      });
    });
  });
}, 0);
