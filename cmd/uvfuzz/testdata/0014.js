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
  fs.readFile(__filename, (err) => {
    log('F1:' + (err ? err.code : 'ok'));
    T[2] = setImmediate(() => {
      log('I2');
      P[3] = Promise.any([]);
    });
    P[4] = Promise.race([Promise.reject(new Error('e6')).then(undefined)]);
  });
  log('L7');
  log('L8');
  {
    const srv = net.createServer();
    let n = 0;
    srv.on('connection', (sock) => [a9_1][n++](sock));
    srv.listen(0, '127.0.0.1', () => {
      log('s9|listening');
      c9_1();
    });
    function a9_1(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a9.1|data');
      });
      sock.on('end', () => {
        log('a9.1|end:' + got);
      });
      sock.on('close', () => {
        log('a9.1|close');
      });
      log('a9.1|connection');
    }
    function c9_1() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c9.1|connect');
        fs.readFile(__filename, (err) => {
          log('f10|F10:' + (err ? err.code : 'ok'));
          process.nextTick(() => {
            log('f10|K11');
            P[12] = Promise.resolve('v13');
          });
        });
        sent += 925;
        sock.write(Buffer.alloc(925, 120), (err) => {
          log('c9.1|w45:' + (err ? err.code : 'ok'));
        });
        sent += 1800;
        sock.write(Buffer.alloc(1800, 120), (err) => {
          log('c9.1|w24:' + (err ? err.code : 'ok'));
          P[25] = (async () => {
            log('c9.1|A29');
            T[30] = setTimeout(() => {
              log('t30|T30');
              P[31] = Promise.resolve({ then(res, rej) {
                log('t30|N32');
                rej(new Error('e32'));
              } });
            }, 0);
            clearInterval(T[30]);
            return new Promise((res, rej) => {
              R[33] = { res, rej };
              log('c9.1|X33');
              T[34] = setTimeout(() => {
                log('t34|T34');
              }, 5);
              fs.stat(__filename + '.missing', (err) => {
                log('f35|F35:' + (err ? err.code : 'ok'));
              });
              res('v36');
            });
          })().catch((e) => {
            log('c9.1|H28!' + msg(e));
            log('c9.1|L37');
            return (async () => {
              log('c9.1|A38');
              T[39] = setTimeout(() => {
                log('t39|T39');
                P[40] = Promise.resolve('v41');
              }, 0);
            })();
          }).catch((e) => {
            log('c9.1|H27!' + msg(e));
            return 'v42';
          }).then((v) => {
            log('c9.1|H26:' + show(v));
            return Promise.resolve('v43');
          });
        });
        P[14] = Promise.any([Promise.resolve('v16').then(undefined, (e) => {
          log('c9.1|H15!' + msg(e));
          fs.stat(__filename + '.missing', (err) => {
            log('f17|F17:' + (err ? err.code : 'ok'));
            process.nextTick(() => {
              log('f17|K18');
              P[19] = Promise.resolve('v20');
            });
          });
        }), Promise.resolve({ then(res, rej) {
          log('c9.1|N21');
          queueMicrotask(() => {
            log('c9.1|M22');
          });
          throw new Error('e21');
        } }), 'v23']);
        sent += 2901;
        sock.write(Buffer.alloc(2901, 120), (err) => {
          log('c9.1|w44:' + (err ? err.code : 'ok'));
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
          log('c9.1|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c9.1|end:' + got);
      });
      sock.on('close', () => {
        log('c9.1|close');
        srv.close(() => {
          log('s9|close');
        });
      });
      sent += 2516;
      sock.write(Buffer.alloc(2516, 120));
      sent += 3251;
      sock.write(Buffer.alloc(3251, 120), (err) => {
        log('c9.1|w46:' + (err ? err.code : 'ok'));
      });
      sent += 1756;
      sock.write(Buffer.alloc(1756, 120), (err) => {
        log('c9.1|w47:' + (err ? err.code : 'ok'));
      });
    }
  }
}, 0);
