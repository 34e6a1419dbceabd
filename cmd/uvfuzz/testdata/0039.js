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
  fs.stat(__filename, (err) => {
    log('F1:' + (err ? err.code : 'ok'));
    log('L2');
  });
  {
    const srv = net.createServer();
    let n = 0;
    srv.on('connection', (sock) => [a3_1][n++](sock));
    srv.listen(0, '127.0.0.1', () => {
      log('s3|listening');
      P[4] = Promise.resolve({ then(res, rej) {
        log('s3|N5');
        queueMicrotask(() => {
          log('s3|M6');
          queueMicrotask(() => {
            log('s3|M7');
            process.nextTick(() => {
              log('s3|K8');
            });
          });
        });
        throw new Error('e5');
      } });
      c3_1();
    });
    function a3_1(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a3.1|data');
      });
      sock.on('end', () => {
        log('a3.1|end:' + got);
        P[26] = Promise.resolve({ then(res, rej) {
          log('a3.1|N27');
          process.nextTick(() => {
            log('a3.1|K28');
            queueMicrotask(() => {
              log('a3.1|M29');
            });
          });
          process.nextTick(() => res('v27'));
        } });
      });
      sock.on('close', () => {
        log('a3.1|close');
        T[30] = setImmediate(() => {
          log('a3.1|I30');
          fs.readFile(__filename, (err) => {
            log('f31|F31:' + (err ? err.code : 'ok'));
            T[32] = setImmediate(() => {
              log('f31|I32');
            });
            clearImmediate(T[32]);
            T[33] = setImmediate(() => {
              log('f31|I33');
              P[34] = Promise.resolve({ then(res, rej) {
                log('f31|N36');
                res('v36');
                rej(new Error('e36'));
              } }).then((v) => {
                log('f31|H35:' + show(v));
                P[37] = Promise.resolve('v38');
                clearImmediate(T[33]);
                throw new Error('e39');
              }, (e) => {
                log('f31|H35!' + msg(e));
                return Promise.resolve('v40');
              });
            });
          });
          clearImmediate(T[30]);
          process.nextTick(() => {
            log('a3.1|K41');
            T[42] = setTimeout(() => {
              log('t42|T42');
            }, 0);
            process.nextTick(() => {
              log('a3.1|K43');
              clearTimeout(T[42]);
            });
          });
        });
      });
      log('a3.1|connection');
      log('a3.1|L25');
    }
    function c3_1() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c3.1|connect');
        fs.readFile(__filename, (err) => {
          log('f9|F9:' + (err ? err.code : 'ok'));
        });
        sent += 3734;
        sock.write(Buffer.alloc(3734, 120), (err) => {
          log('c3.1|w10:' + (err ? err.code : 'ok'));
        });
        sent += 2294;
        sock.write(Buffer.alloc(2294, 120), (err) => {
          log('c3.1|w11:' + (err ? err.code : 'ok'));
        });
        sent += 3838;
        sock.write(Buffer.alloc(3838, 120));
        if (sent === 0) {
          ended = true;
          sock.end();
        }
      });
      sock.on('data', (d) => {
        got += d.length;
        if (first) {
          first = false;
          log('c3.1|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c3.1|end:' + got);
        T[13] = setTimeout(() => {
          log('t13|T13');
        }, 0);
      });
      sock.on('close', () => {
        log('c3.1|close');
        log('c3.1|L14');
        process.nextTick(() => {
          log('c3.1|K15');
          T[16] = setTimeout(() => {
            log('t16|T16');
            process.nextTick(() => {
              log('t16|K17');
              P[18] = Promise.any(['v21']).finally(() => {
                log('t16|Y20');
              }).finally(() => {
                log('t16|Y19');
                throw new Error('e22');
              });
            });
          }, 0);
          P[23] = Promise.resolve('v24');
        });
        srv.close(() => {
          log('s3|close');
        });
      });
    }
  }
}, 0);
