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
  T[1] = setImmediate(() => {
    log('I1');
    T[2] = setTimeout(() => {
      log('T2');
    }, 0);
  });
  {
    const srv = net.createServer();
    let n = 0;
    srv.on('connection', (sock) => [a3_1, a3_2][n++](sock));
    srv.listen(0, '127.0.0.1', () => {
      log('s3|listening');
      process.nextTick(() => {
        log('s3|K4');
        P[5] = Promise.reject(new Error('e6'));
      });
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
        T[23] = setImmediate(() => {
          log('a3.1|I23');
          process.nextTick(() => {
            log('a3.1|K24');
            P[25] = Promise.resolve('v28').finally(() => {
              log('a3.1|Y27');
              log('a3.1|L29');
            }).finally(() => {
              log('a3.1|Y26');
            });
          });
          fs.readFile(__filename, (err) => {
            log('f30|F30:' + (err ? err.code : 'ok'));
            process.nextTick(() => {
              log('f30|K31');
            });
            P[32] = (async () => {
              log('f30|A33');
              process.nextTick(() => {
                log('f30|K34');
              });
            })();
          });
          fs.stat(__filename, (err) => {
            log('f35|F35:' + (err ? err.code : 'ok'));
            T[36] = setImmediate(() => {
              log('f35|I36');
              clearImmediate(T[36]);
            });
            T[37] = setImmediate(() => {
              log('f35|I37');
            });
          });
        });
      });
      sock.on('end', () => {
        log('a3.1|end:' + got);
        P[38] = Promise.resolve('v40').finally(() => {
          log('a3.1|Y39');
          P[41] = Promise.resolve({ then(res, rej) {
            log('a3.1|N43');
            log('a3.1|L44');
            throw new Error('e43');
          } }).then((v) => {
            log('a3.1|H42:' + show(v));
            fs.stat(__filename + '.missing', (err) => {
              log('f45|F45:' + (err ? err.code : 'ok'));
              T[46] = setImmediate(() => {
                log('f45|I46');
                clearImmediate(T[46]);
                P[47] = Promise.reject(new Error('e48'));
              });
            });
            return v;
          });
        });
      });
      sock.on('close', () => {
        log('a3.1|close');
      });
      log('a3.1|connection');
      queueMicrotask(() => {
        log('a3.1|M14');
        T[15] = setImmediate(() => {
          log('a3.1|I15');
          queueMicrotask(() => {
            log('a3.1|M16');
            T[17] = setTimeout(() => {
              log('t17|T17');
              P[18] = Promise.resolve('v19');
              P[20] = Promise.reject(new Error('e21'));
            }, 0);
          });
          process.nextTick(() => {
            log('a3.1|K22');
          });
        });
      });
    }
    function c3_1() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c3.1|connect');
        T[7] = setTimeout(() => {
          log('t7|T7');
          T[8] = setImmediate(() => {
            log('t7|I8');
          });
        }, 0);
        sent += 1033;
        sock.write(Buffer.alloc(1033, 120), (err) => {
          log('c3.1|w9:' + (err ? err.code : 'ok'));
          log('c3.1|L10');
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
          log('c3.1|data');
          P[11] = Promise.reject(new Error('e12'));
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c3.1|end:' + got);
      });
      sock.on('close', () => {
        log('c3.1|close');
        queueMicrotask(() => {
          log('c3.1|M13');
        });
        c3_2();
      });
    }
    function a3_2(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a3.2|data');
      });
      sock.on('end', () => {
        log('a3.2|end:' + got);
      });
      sock.on('close', () => {
        log('a3.2|close');
      });
      log('a3.2|connection');
    }
    function c3_2() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c3.2|connect');
        sent += 1471;
        sock.write(Buffer.alloc(1471, 120), (err) => {
          log('c3.2|w49:' + (err ? err.code : 'ok'));
        });
        sent += 542;
        sock.write(Buffer.alloc(542, 120), (err) => {
          log('c3.2|w50:' + (err ? err.code : 'ok'));
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
          log('c3.2|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c3.2|end:' + got);
      });
      sock.on('close', () => {
        log('c3.2|close');
        srv.close(() => {
          log('s3|close');
        });
      });
    }
  }
}, 0);
