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
      queueMicrotask(() => {
        log('M3');
      });
    });
  }, 0);
  P[4] = (async () => {
    log('A5');
    clearTimeout(T[1]);
    clearInterval(T[1]);
    throw new Error('e6');
  })();
  P[7] = (async () => {
    log('A8');
    process.nextTick(() => {
      log('K9');
      clearInterval(T[1]);
      queueMicrotask(() => {
        log('M10');
        clearInterval(T[1]);
        clearTimeout(T[1]);
      });
    });
    try {
      const v = await 'v12';
      log('W11:' + show(v));
    } catch (e) {
      log('W11!' + msg(e));
    }
  })();
  P[13] = Promise.resolve({ then(res, rej) {
    log('N14');
    process.nextTick(() => {
      log('K15');
      {
        const srv = net.createServer();
        let n = 0;
        srv.on('connection', (sock) => [a16_1, a16_2][n++](sock));
        srv.listen(0, '127.0.0.1', () => {
          log('s16|listening');
          P[17] = Promise.race(['v18', Promise.resolve({ then(res, rej) {
            log('s16|N19');
            res('v19');
          } }), Promise.resolve({ then(res, rej) {
            log('s16|N20');
            res('v20');
            throw new Error('x20');
          } })]);
          c16_1();
        });
        function a16_1(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a16.1|data');
            T[54] = setImmediate(() => {
              log('a16.1|I54');
              clearImmediate(T[54]);
              fs.stat(__filename, (err) => {
                log('f55|F55:' + (err ? err.code : 'ok'));
                log('f55|L56');
                P[57] = Promise.resolve('v58');
              });
            });
          });
          sock.on('end', () => {
            log('a16.1|end:' + got);
          });
          sock.on('close', () => {
            log('a16.1|close');
          });
          log('a16.1|connection');
          fs.stat(__filename + '.missing', (err) => {
            log('f53|F53:' + (err ? err.code : 'ok'));
          });
        }
        function c16_1() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c16.1|connect');
            sent += 1576;
            sock.write(Buffer.alloc(1576, 120));
            sent += 3068;
            sock.write(Buffer.alloc(3068, 120), (err) => {
              log('c16.1|w23:' + (err ? err.code : 'ok'));
              P[24] = new Promise((res, rej) => {
                R[25] = { res, rej };
                log('c16.1|X25');
                fs.readFile(__filename, (err) => {
                  log('f26|F26:' + (err ? err.code : 'ok'));
                  P[27] = Promise.resolve('v28');
                  P[29] = Promise.resolve('v30');
                });
              });
              P[31] = (async () => {
                log('c16.1|A32');
                return 'v33';
              })();
            });
            sent += 3846;
            sock.write(Buffer.alloc(3846, 120));
            if (sent === 0) {
              ended = true;
              sock.end();
            }
          });
          sock.on('data', (d) => {
            got += d.length;
            if (first) {
              first = false;
              log('c16.1|data');
              T[36] = setImmediate(() => {
                log('c16.1|I36');
                clearImmediate(T[36]);
                T[37] = setTimeout(() => {
                  log('t37|T37');
                  log('t37|L38');
                  P[39] = Promise.reject(new Error('e40'));
                }, 0);
              });
              P[41] = new Promise((res, rej) => {
                R[42] = { res, rej };
                log('c16.1|X42');
                rej(new Error('e43'));
              });
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c16.1|end:' + got);
            T[44] = setTimeout(() => {
              log('t44|T44');
              P[45] = Promise.reject(new Error('e46'));
            }, 0);
            P[47] = new Promise((res, rej) => {
              R[48] = { res, rej };
              log('c16.1|X48');
            });
          });
          sock.on('close', () => {
            log('c16.1|close');
            T[49] = setTimeout(() => {
              log('t49|T49');
              log('t49|L50');
            }, 5);
            process.nextTick(() => {
              log('c16.1|K51');
              log('c16.1|L52');
            });
            c16_2();
          });
          sent += 3114;
          sock.write(Buffer.alloc(3114, 120), (err) => {
            log('c16.1|w35:' + (err ? err.code : 'ok'));
          });
          sent += 1476;
          sock.write(Buffer.alloc(1476, 120));
        }
        function a16_2(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a16.2|data');
          });
          sock.on('end', () => {
            log('a16.2|end:' + got);
          });
          sock.on('close', () => {
            log('a16.2|close');
          });
          log('a16.2|connection');
        }
        function c16_2() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c16.2|connect');
            sent += 2950;
            sock.write(Buffer.alloc(2950, 120));
            if (sent === 0) {
              ended = true;
              sock.end();
            }
          });
          sock.on('data', (d) => {
            got += d.length;
            if (first) {
              first = false;
              log('c16.2|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c16.2|end:' + got);
          });
          sock.on('close', () => {
            log('c16.2|close');
            srv.close(() => {
              log('s16|close');
            });
          });
          sent += 2374;
          sock.write(Buffer.alloc(2374, 120), (err) => {
            log('c16.2|w60:' + (err ? err.code : 'ok'));
          });
        }
      }
    });
    rej(new Error('e14'));
  } });
}, 0);
