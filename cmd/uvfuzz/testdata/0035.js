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
  P[1] = Promise.resolve('v2');
  P[3] = Promise.resolve('v4');
  fs.stat(__filename, (err) => {
    log('F5:' + (err ? err.code : 'ok'));
  });
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
        sent += 554;
        sock.write(Buffer.alloc(554, 120), (err) => {
          log('c6.1|w12:' + (err ? err.code : 'ok'));
        });
        sent += 3458;
        sock.write(Buffer.alloc(3458, 120), (err) => {
          log('c6.1|w13:' + (err ? err.code : 'ok'));
        });
        process.nextTick(() => {
          log('c6.1|K7');
          T[8] = setTimeout(() => {
            log('t8|T8');
          }, 0);
          T[9] = setTimeout(() => {
            log('t9|T9');
            T[10] = setImmediate(() => {
              log('t9|I10');
            });
          }, 5);
        });
        fs.stat(__filename + '.missing', (err) => {
          log('f11|F11:' + (err ? err.code : 'ok'));
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
      sent += 3723;
      sock.write(Buffer.alloc(3723, 120));
      sent += 3545;
      sock.write(Buffer.alloc(3545, 120), (err) => {
        log('c6.1|w15:' + (err ? err.code : 'ok'));
        P[16] = new Promise((res, rej) => {
          R[18] = { res, rej };
          log('c6.1|X18');
          P[19] = Promise.resolve('v20');
          throw new Error('e21');
        }).finally(() => {
          log('c6.1|Y17');
          fs.stat(__filename + '.missing', (err) => {
            log('f22|F22:' + (err ? err.code : 'ok'));
            P[23] = Promise.any([(async () => {
              log('f22|A24');
              log('f22|W25:' + show(await (async () => {
                log('f22|A26');
                P[27] = Promise.resolve('v28');
                return Promise.resolve('v29');
              })()));
              queueMicrotask(() => {
                log('f22|M30');
              });
              log('f22|L31');
              return Promise.resolve('v32');
            })(), Promise.any([Promise.resolve({ then(res, rej) {
              log('f22|N33');
              P[34] = Promise.resolve('v35');
              rej(new Error('e33'));
            } })])]);
            T[36] = setImmediate(() => {
              log('f22|I36');
              P[37] = Promise.allSettled([]).then(undefined, (e) => {
                log('f22|H38!' + msg(e));
                return 'v39';
              });
              clearImmediate(T[36]);
            });
          });
          process.nextTick(() => {
            log('c6.1|K40');
          });
          return (async () => {
            log('c6.1|A41');
            P[42] = (async () => {
              log('c6.1|A44');
              queueMicrotask(() => {
                log('c6.1|M45');
              });
              T[46] = setTimeout(() => {
                log('t46|T46');
                P[47] = Promise.resolve('v48');
                P[49] = P[47];
                log('t46|L50');
              }, 0);
              P[51] = (async () => {
                log('c6.1|A52');
                return Promise.reject(new Error('e53'));
              })();
            })().then((v) => {
              log('c6.1|H43:' + show(v));
              return 'v54';
            });
            return 'v55';
          })();
        });
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
      srv.close(() => {
        log('s6|close');
      });
    }
    function c6_2() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c6.2|connect');
        sent += 3514;
        sock.write(Buffer.alloc(3514, 120));
        sent += 1207;
        sock.write(Buffer.alloc(1207, 120), (err) => {
          log('c6.2|w56:' + (err ? err.code : 'ok'));
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
      });
      sent += 3761;
      sock.write(Buffer.alloc(3761, 120), (err) => {
        log('c6.2|w59:' + (err ? err.code : 'ok'));
      });
      sent += 3611;
      sock.write(Buffer.alloc(3611, 120), (err) => {
        log('c6.2|w58:' + (err ? err.code : 'ok'));
      });
    }
  }
}, 0);
