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
          fs.readFile(__filename, (err) => {
            log('f14|F14:' + (err ? err.code : 'ok'));
          });
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c6.1|end:' + got);
        fs.stat(__filename, (err) => {
          log('f15|F15:' + (err ? err.code : 'ok'));
          T[16] = setImmediate(() => {
            log('f15|I16');
            P[17] = new Promise((res, rej) => {
              R[19] = { res, rej };
              log('f15|X19');
              P[20] = Promise.resolve('v21');
              throw new Error('e22');
            }).finally(() => {
              log('f15|Y18');
              queueMicrotask(() => {
                log('f15|M23');
              });
              return { then(res, rej) {
                log('f15|N24');
                P[25] = Promise.resolve('v26');
                throw new Error('e24');
              } };
            });
          });
          clearImmediate(T[16]);
          T[27] = setImmediate(() => {
            log('f15|I27');
            P[28] = (async () => {
              log('f15|A31');
              clearImmediate(T[27]);
              log('f15|L32');
              return Promise.resolve('v33');
            })().finally(() => {
              log('f15|Y30');
              P[34] = new Promise((res, rej) => {
                R[35] = { res, rej };
                log('f15|X35');
                clearImmediate(T[27]);
                clearImmediate(T[27]);
                res('v36');
              });
              return Promise.any([Promise.resolve({ then(res, rej) {
                log('f15|N37');
                queueMicrotask(() => rej(new Error('e37')));
              } }), new Promise((res, rej) => {
                R[38] = { res, rej };
                log('f15|X38');
                clearImmediate(T[27]);
                rej(new Error('e39'));
              })]);
            }).catch((e) => {
              log('f15|H29!' + msg(e));
              process.nextTick(() => {
                log('f15|K40');
                P[41] = Promise.resolve('v42');
              });
            });
            clearImmediate(T[16]);
          });
        });
      });
      sock.on('close', () => {
        log('c6.1|close');
        c6_2();
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
        sent += 3863;
        sock.write(Buffer.alloc(3863, 120), (err) => {
          log('c6.2|w44:' + (err ? err.code : 'ok'));
        });
        sent += 463;
        sock.write(Buffer.alloc(463, 120));
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
    }
  }
}, 0);
