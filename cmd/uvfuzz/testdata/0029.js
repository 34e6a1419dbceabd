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
setTimeout(() => {
  log('L1');
  T[2] = setImmediate(() => {
    log('I2');
    fs.stat(__filename + '.missing', (err) => {
      log('F3:' + (err ? err.code : 'ok'));
      clearImmediate(T[2]);
    });
    {
      const srv = net.createServer();
      let n = 0;
      srv.on('connection', (sock) => [a4_1, a4_2][n++](sock));
      srv.listen(0, '127.0.0.1', () => {
        log('s4|listening');
        T[5] = setImmediate(() => {
          log('s4|I5');
        });
        T[6] = setImmediate(() => {
          log('s4|I6');
          clearImmediate(T[6]);
        });
        c4_1();
      });
      function a4_1(sock) {
        let got = 0, first = true;
        sock.on('data', (d) => {
          sock.write(d);
          got += d.length;
          if (!first) return;
          first = false;
          log('a4.1|data');
          P[36] = Promise.resolve('v37');
        });
        sock.on('end', () => {
          log('a4.1|end:' + got);
        });
        sock.on('close', () => {
          log('a4.1|close');
        });
        log('a4.1|connection');
        fs.readFile(__filename, (err) => {
          log('f28|F28:' + (err ? err.code : 'ok'));
          T[29] = setImmediate(() => {
            log('f28|I29');
            clearImmediate(T[29]);
            P[30] = (async () => {
              log('f28|A31');
              clearImmediate(T[29]);
              clearImmediate(T[29]);
              log('f28|L32');
              throw new Error('e33');
            })();
            P[34] = Promise.resolve({ then(res, rej) {
              log('f28|N35');
              process.nextTick(() => res('v35'));
            } });
          });
        });
      }
      function c4_1() {
        let got = 0, sent = 0, first = true, ended = false;
        const sock = net.connect(srv.address().port, '127.0.0.1', () => {
          log('c4.1|connect');
          sent += 681;
          sock.write(Buffer.alloc(681, 120), (err) => {
            log('c4.1|w8:' + (err ? err.code : 'ok'));
            T[9] = setImmediate(() => {
              log('c4.1|I9');
              clearImmediate(T[9]);
            });
          });
          sent += 3610;
          sock.write(Buffer.alloc(3610, 120));
          if (sent === 0) {
            ended = true;
            sock.end();
          }
        });
        sock.on('data', (d) => {
          got += d.length;
          if (first) {
            first = false;
            log('c4.1|data');
            T[20] = setTimeout(() => {
              log('t20|T20');
              T[21] = setImmediate(() => {
                log('t20|I21');
              });
            }, 0);
          }
          if (got === sent && !ended) {
            ended = true;
            sock.end();
          }
        });
        sock.on('end', () => {
          log('c4.1|end:' + got);
          fs.readFile(__filename, (err) => {
            log('f22|F22:' + (err ? err.code : 'ok'));
            T[23] = setImmediate(() => {
              log('f22|I23');
              clearImmediate(T[23]);
            });
            process.nextTick(() => {
              log('f22|K24');
            });
          });
        });
        sock.on('close', () => {
          log('c4.1|close');
          queueMicrotask(() => {
            log('c4.1|M25');
            fs.stat(__filename, (err) => {
              log('f26|F26:' + (err ? err.code : 'ok'));
            });
          });
          fs.stat(__filename, (err) => {
            log('f27|F27:' + (err ? err.code : 'ok'));
          });
          c4_2();
        });
        sent += 3382;
        sock.write(Buffer.alloc(3382, 120));
        sent += 3698;
        sock.write(Buffer.alloc(3698, 120));
        sent += 162;
        sock.write(Buffer.alloc(162, 120), (err) => {
          log('c4.1|w10:' + (err ? err.code : 'ok'));
          process.nextTick(() => {
            log('c4.1|K11');
          });
          T[12] = setTimeout(() => {
            log('t12|T12');
            P[13] = Promise.resolve({ then(res, rej) {
              log('t12|N15');
              log('t12|L16');
              queueMicrotask(() => rej(new Error('e15')));
            } }).catch((e) => {
              log('t12|H14!' + msg(e));
              return 'v17';
            });
          }, 5);
        });
      }
      function a4_2(sock) {
        let got = 0, first = true;
        sock.on('data', (d) => {
          sock.write(d);
          got += d.length;
          if (!first) return;
          first = false;
          log('a4.2|data');
        });
        sock.on('end', () => {
          log('a4.2|end:' + got);
        });
        sock.on('close', () => {
          log('a4.2|close');
        });
        log('a4.2|connection');
      }
      function c4_2() {
        let got = 0, sent = 0, first = true, ended = false;
        const sock = net.connect(srv.address().port, '127.0.0.1', () => {
          log('c4.2|connect');
          sent += 575;
          sock.write(Buffer.alloc(575, 120), (err) => {
            log('c4.2|w40:' + (err ? err.code : 'ok'));
          });
          sent += 1966;
          sock.write(Buffer.alloc(1966, 120));
          sent += 367;
          sock.write(Buffer.alloc(367, 120), (err) => {
            log('c4.2|w39:' + (err ? err.code : 'ok'));
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
            log('c4.2|data');
          }
          if (got === sent && !ended) {
            ended = true;
            sock.end();
          }
        });
        sock.on('end', () => {
          log('c4.2|end:' + got);
        });
        sock.on('close', () => {
          log('c4.2|close');
          srv.close(() => {
            log('s4|close');
          });
        });
      }
    }
  });
}, 0);
