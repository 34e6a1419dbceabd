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
  T[1] = setTimeout(() => {
    log('T1');
    process.nextTick(() => {
      log('K2');
      T[3] = setImmediate(() => {
        log('I3');
      });
    });
    process.nextTick(() => {
      log('K4');
      log('L5');
    });
  }, 0);
  {
    const srv = net.createServer();
    let n = 0;
    srv.on('connection', (sock) => [a6_1][n++](sock));
    srv.listen(0, '127.0.0.1', () => {
      log('s6|listening');
      P[7] = new Promise((res, rej) => {
        R[8] = { res, rej };
        log('s6|X8');
        process.nextTick(() => {
          log('s6|K9');
        });
        T[10] = setImmediate(() => {
          log('s6|I10');
          queueMicrotask(() => {
            log('s6|M11');
          });
        });
        rej(new Error('e12'));
      });
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
        T[13] = setTimeout(() => {
          log('t13|T13');
        }, 5);
        sent += 3571;
        sock.write(Buffer.alloc(3571, 120), (err) => {
          log('c6.1|w14:' + (err ? err.code : 'ok'));
          fs.readFile(__filename, (err) => {
            log('f15|F15:' + (err ? err.code : 'ok'));
            process.nextTick(() => {
              log('f15|K16');
            });
            log('f15|L17');
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
          P[18] = (async () => {
            log('c6.1|A19');
            process.nextTick(() => {
              log('c6.1|K20');
              fs.stat(__filename + '.missing', (err) => {
                log('f21|F21:' + (err ? err.code : 'ok'));
                T[22] = setImmediate(() => {
                  log('f21|I22');
                });
              });
            });
            P[23] = (async () => {
              log('c6.1|A24');
              try {
                const v = await Promise.resolve({ then(res, rej) {
                  log('c6.1|N26');
                  queueMicrotask(() => {
                    log('c6.1|M27');
                  });
                  process.nextTick(() => res('v26'));
                } });
                log('c6.1|W25:' + show(v));
              } catch (e) {
                log('c6.1|W25!' + msg(e));
              }
              process.nextTick(() => {
                log('c6.1|K28');
                process.nextTick(() => {
                  log('c6.1|K29');
                });
                P[30] = (async () => {
                  log('c6.1|A31');
                  P[32] = Promise.reject(new Error('e33'));
                  P[34] = P[32];
                  try {
                    const v = await Promise.reject(new Error('e36'));
                    log('c6.1|W35:' + show(v));
                  } catch (e) {
                    log('c6.1|W35!' + msg(e));
                  }
                  P[37] = P[32];
                  throw new Error('e38');
                })();
              });
              return 'v39';
            })();
            return Promise.resolve('v40');
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
        srv.close(() => {
          log('s6|close');
        });
      });
    }
  }
}, 0);
