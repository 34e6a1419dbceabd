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
  P[1] = Promise.race([Promise.resolve('v5').then((v) => {
    log('H4:' + show(v));
    P[6] = Promise.resolve({ then(res, rej) {
      log('N9');
      throw new Error('e9');
    } }).then(undefined, (e) => {
      log('H8!' + msg(e));
      return 'v10';
    }).finally(() => {
      log('Y7');
      {
        const srv = net.createServer();
        let n = 0;
        srv.on('connection', (sock) => [a11_1, a11_2, a11_3][n++](sock));
        srv.listen(0, '127.0.0.1', () => {
          log('s11|listening');
          T[12] = setImmediate(() => {
            log('s11|I12');
          });
          c11_1();
        });
        function a11_1(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a11.1|data');
            T[42] = setImmediate(() => {
              log('a11.1|I42');
            });
          });
          sock.on('end', () => {
            log('a11.1|end:' + got);
            P[43] = Promise.reject(new Error('e47')).then((v) => {
              log('a11.1|H46:' + show(v));
              log('a11.1|L48');
              throw new Error('e49');
            }).catch((e) => {
              log('a11.1|H45!' + msg(e));
              queueMicrotask(() => {
                log('a11.1|M50');
              });
            }).then((v) => {
              log('a11.1|H44:' + show(v));
              return 'v51';
            }, (e) => {
              log('a11.1|H44!' + msg(e));
            });
          });
          sock.on('close', () => {
            log('a11.1|close');
          });
          log('a11.1|connection');
        }
        function c11_1() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c11.1|connect');
            if (sent === 0) {
              ended = true;
              sock.end();
            }
          });
          sock.on('data', (d) => {
            got += d.length;
            if (first) {
              first = false;
              log('c11.1|data');
              fs.stat(__filename + '.missing', (err) => {
                log('f15|F15:' + (err ? err.code : 'ok'));
                P[16] = (async () => {
                  log('f15|A18');
                  return 'v19';
                })().then(undefined, (e) => {
                  log('f15|H17!' + msg(e));
                  P[20] = Promise.resolve('v21');
                  P[22] = P[20];
                  return 'v23';
                });
              });
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c11.1|end:' + got);
            fs.readFile(__filename, (err) => {
              log('f24|F24:' + (err ? err.code : 'ok'));
              process.nextTick(() => {
                log('f24|K25');
                P[26] = Promise.reject(new Error('e27'));
              });
            });
          });
          sock.on('close', () => {
            log('c11.1|close');
            queueMicrotask(() => {
              log('c11.1|M28');
              T[29] = setTimeout(() => {
                log('t29|T29');
                P[30] = Promise.resolve('v31');
              }, 0);
              T[32] = setTimeout(() => {
                log('t32|T32');
                P[33] = Promise.reject(new Error('e34'));
                P[35] = Promise.reject(new Error('e36'));
              }, 0);
            });
            T[37] = setTimeout(() => {
              log('t37|T37');
              T[38] = setImmediate(() => {
                log('t37|I38');
              });
              T[39] = setImmediate(() => {
                log('t37|I39');
                clearImmediate(T[38]);
                P[40] = Promise.resolve('v41');
              });
            }, 5);
            c11_2();
          });
          sent += 1581;
          sock.write(Buffer.alloc(1581, 120));
          sent += 2196;
          sock.write(Buffer.alloc(2196, 120));
        }
        function a11_2(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a11.2|data');
          });
          sock.on('end', () => {
            log('a11.2|end:' + got);
          });
          sock.on('close', () => {
            log('a11.2|close');
          });
          log('a11.2|connection');
        }
        function c11_2() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c11.2|connect');
            if (sent === 0) {
              ended = true;
              sock.end();
            }
          });
          sock.on('data', (d) => {
            got += d.length;
            if (first) {
              first = false;
              log('c11.2|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c11.2|end:' + got);
          });
          sock.on('close', () => {
            log('c11.2|close');
            c11_3();
          });
        }
        function a11_3(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a11.3|data');
          });
          sock.on('end', () => {
            log('a11.3|end:' + got);
          });
          sock.on('close', () => {
            log('a11.3|close');
          });
          log('a11.3|connection');
        }
        function c11_3() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c11.3|connect');
            sent += 1846;
            sock.write(Buffer.alloc(1846, 120), (err) => {
              log('c11.3|w52:' + (err ? err.code : 'ok'));
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
              log('c11.3|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c11.3|end:' + got);
          });
          sock.on('close', () => {
            log('c11.3|close');
            srv.close(() => {
              log('s11|close');
            });
          });
          sent += 3821;
          sock.write(Buffer.alloc(3821, 120), (err) => {
            log('c11.3|w54:' + (err ? err.code : 'ok'));
          });
          sent += 411;
          sock.write(Buffer.alloc(411, 120));
        }
      }
    });
    throw new Error('e55');
  }, (e) => {
    log('H4!' + msg(e));
    return 'v56';
  }).finally(() => {
    log('Y3');
    return Promise.resolve('v57');
  }).finally(() => {
    log('Y2');
    return { then(res, rej) {
      log('N58');
      queueMicrotask(() => rej(new Error('e58')));
    } };
  }), 'v59', Promise.reject(new Error('e60'))]);
}, 0);
