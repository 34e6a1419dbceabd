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
    P[2] = Promise.all([]);
    P[3] = (async () => {
      log('A4');
      P[5] = P[2];
      try {
        const v = await 'v7';
        log('W6:' + show(v));
      } catch (e) {
        log('W6!' + msg(e));
      }
      {
        const srv = net.createServer();
        let n = 0;
        srv.on('connection', (sock) => [a8_1, a8_2][n++](sock));
        srv.listen(0, '127.0.0.1', () => {
          log('s8|listening');
          queueMicrotask(() => {
            log('s8|M9');
          });
          c8_1();
        });
        function a8_1(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a8.1|data');
          });
          sock.on('end', () => {
            log('a8.1|end:' + got);
          });
          sock.on('close', () => {
            log('a8.1|close');
          });
          log('a8.1|connection');
          fs.stat(__filename, (err) => {
            log('f53|F53:' + (err ? err.code : 'ok'));
            P[54] = Promise.any([Promise.reject(new Error('e55'))]);
          });
        }
        function c8_1() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c8.1|connect');
            T[10] = setTimeout(() => {
              log('t10|T10');
            }, 0);
            P[11] = new Promise((res, rej) => {
              R[12] = { res, rej };
              log('c8.1|X12');
              log('c8.1|L13');
              res('v14');
            });
            sent += 1866;
            sock.write(Buffer.alloc(1866, 120), (err) => {
              log('c8.1|w15:' + (err ? err.code : 'ok'));
              T[16] = setImmediate(() => {
                log('c8.1|I16');
                P[17] = new Promise((res, rej) => {
                  R[19] = { res, rej };
                  log('c8.1|X19');
                  P[20] = Promise.resolve('v21');
                  R[19].res({ then(res, rej) {
                    log('c8.1|N23');
                    clearImmediate(T[16]);
                    throw new Error('e23');
                  } });
                  res('v24');
                }).then((v) => {
                  log('c8.1|H18:' + show(v));
                  clearImmediate(T[16]);
                  return 'v25';
                }, (e) => {
                  log('c8.1|H18!' + msg(e));
                  clearImmediate(T[16]);
                  clearImmediate(T[16]);
                  return 'v26';
                });
              });
              fs.stat(__filename + '.missing', (err) => {
                log('f27|F27:' + (err ? err.code : 'ok'));
                T[28] = setImmediate(() => {
                  log('f27|I28');
                  clearImmediate(T[28]);
                });
                T[29] = setImmediate(() => {
                  log('f27|I29');
                });
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
              log('c8.1|data');
              P[44] = new Promise((res, rej) => {
                R[45] = { res, rej };
                log('c8.1|X45');
                queueMicrotask(() => {
                  log('c8.1|M46');
                  log('c8.1|L47');
                });
                rej(new Error('e48'));
              });
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c8.1|end:' + got);
            log('c8.1|L49');
          });
          sock.on('close', () => {
            log('c8.1|close');
            fs.stat(__filename + '.missing', (err) => {
              log('f50|F50:' + (err ? err.code : 'ok'));
              T[51] = setImmediate(() => {
                log('f50|I51');
              });
              log('f50|L52');
            });
            c8_2();
          });
          sent += 965;
          sock.write(Buffer.alloc(965, 120), (err) => {
            log('c8.1|w31:' + (err ? err.code : 'ok'));
            P[32] = Promise.resolve('v33');
            P[34] = Promise.any([Promise.resolve({ then(res, rej) {
              log('c8.1|N35');
              fs.stat(__filename + '.missing', (err) => {
                log('f36|F36:' + (err ? err.code : 'ok'));
                P[37] = Promise.reject(new Error('e38'));
                P[39] = Promise.reject(new Error('e40'));
              });
              res('v35');
            } })]);
          });
          sent += 1355;
          sock.write(Buffer.alloc(1355, 120), (err) => {
            log('c8.1|w41:' + (err ? err.code : 'ok'));
            T[42] = setTimeout(() => {
              log('t42|T42');
            }, 0);
          });
          log('c8.1|L30');
          sent += 2846;
          sock.write(Buffer.alloc(2846, 120));
        }
        function a8_2(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a8.2|data');
          });
          sock.on('end', () => {
            log('a8.2|end:' + got);
          });
          sock.on('close', () => {
            log('a8.2|close');
          });
          log('a8.2|connection');
        }
        function c8_2() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c8.2|connect');
            sent += 3722;
            sock.write(Buffer.alloc(3722, 120), (err) => {
              log('c8.2|w56:' + (err ? err.code : 'ok'));
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
              log('c8.2|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c8.2|end:' + got);
          });
          sock.on('close', () => {
            log('c8.2|close');
            srv.close(() => {
              log('s8|close');
            });
          });
          sent += 1673;
          sock.write(Buffer.alloc(1673, 120));
          sent += 1604;
          sock.write(Buffer.alloc(1604, 120), (err) => {
            log('c8.2|w58:' + (err ? err.code : 'ok'));
          });
          sent += 2712;
          sock.write(Buffer.alloc(2712, 120));
        }
      }
      return 'v60';
    })();
  });
}, 0);
