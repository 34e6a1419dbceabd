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
      });
      sock.on('end', () => {
        log('a3.1|end:' + got);
      });
      sock.on('close', () => {
        log('a3.1|close');
      });
      log('a3.1|connection');
      P[37] = Promise.resolve('v39').finally(() => {
        log('a3.1|Y38');
        P[40] = Promise.resolve({ then(res, rej) {
          log('a3.1|N42');
          log('a3.1|L43');
          throw new Error('e42');
        } }).then((v) => {
          log('a3.1|H41:' + show(v));
          fs.stat(__filename + '.missing', (err) => {
            log('f44|F44:' + (err ? err.code : 'ok'));
            T[45] = setImmediate(() => {
              log('f44|I45');
              clearImmediate(T[45]);
              P[46] = Promise.reject(new Error('e47'));
            });
          });
          return v;
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
          T[11] = setTimeout(() => {
            log('t11|T11');
            queueMicrotask(() => {
              log('t11|M12');
            });
          }, 5);
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c3.1|end:' + got);
        queueMicrotask(() => {
          log('c3.1|M13');
          T[14] = setImmediate(() => {
            log('c3.1|I14');
            queueMicrotask(() => {
              log('c3.1|M15');
              T[16] = setTimeout(() => {
                log('t16|T16');
                P[17] = Promise.resolve('v18');
                P[19] = Promise.reject(new Error('e20'));
              }, 0);
            });
            process.nextTick(() => {
              log('c3.1|K21');
            });
          });
        });
      });
      sock.on('close', () => {
        log('c3.1|close');
        T[22] = setImmediate(() => {
          log('c3.1|I22');
          process.nextTick(() => {
            log('c3.1|K23');
            P[24] = Promise.resolve('v27').finally(() => {
              log('c3.1|Y26');
              log('c3.1|L28');
            }).finally(() => {
              log('c3.1|Y25');
            });
          });
          fs.readFile(__filename, (err) => {
            log('f29|F29:' + (err ? err.code : 'ok'));
            process.nextTick(() => {
              log('f29|K30');
            });
            P[31] = (async () => {
              log('f29|A32');
              process.nextTick(() => {
                log('f29|K33');
              });
            })();
          });
          fs.stat(__filename, (err) => {
            log('f34|F34:' + (err ? err.code : 'ok'));
            T[35] = setImmediate(() => {
              log('f34|I35');
              clearImmediate(T[35]);
            });
            T[36] = setImmediate(() => {
              log('f34|I36');
            });
          });
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
        sent += 3198;
        sock.write(Buffer.alloc(3198, 120), (err) => {
          log('c3.2|w48:' + (err ? err.code : 'ok'));
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
