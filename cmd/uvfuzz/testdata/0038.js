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
const D = fs.mkdtempSync(require('path').join(require('os').tmpdir(), 'uvfuzz-'));
process.on('exit', () => fs.rmSync(D, { recursive: true, force: true }));
setTimeout(() => {
  fs.unlink(D + '/f1', (err) => {
    log('F1:' + (err ? err.code : 'ok'));
  });
  {
    const srv = net.createServer();
    let n = 0;
    srv.on('connection', (sock) => [a2_1, a2_2][n++](sock));
    srv.listen(0, '127.0.0.1', () => {
      log('s2|listening');
      c2_1();
    });
    function a2_1(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a2.1|data');
      });
      sock.on('end', () => {
        log('a2.1|end:' + got);
      });
      sock.on('close', () => {
        log('a2.1|close');
      });
      log('a2.1|connection');
    }
    function c2_1() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c2.1|connect');
        sent += 896;
        sock.write(Buffer.alloc(896, 120), (err) => {
          log('c2.1|w21:' + (err ? err.code : 'ok'));
          T[22] = setImmediate(() => {
            log('c2.1|I22');
          });
        });
        sent += 335;
        sock.write(Buffer.alloc(335, 120), (err) => {
          log('c2.1|w3:' + (err ? err.code : 'ok'));
          P[4] = new Promise((res, rej) => {
            R[7] = { res, rej };
            log('c2.1|X7');
            res(Promise.reject(new Error('e8')));
          }).finally(() => {
            log('c2.1|Y6');
            fs.stat(__filename, (err) => {
              log('f9|F9:' + (err ? err.code : 'ok'));
            });
            queueMicrotask(() => {
              log('c2.1|M10');
              queueMicrotask(() => {
                log('c2.1|M11');
                process.nextTick(() => {
                  log('c2.1|K12');
                });
              });
            });
            throw new Error('e13');
          }).then((v) => {
            log('c2.1|H5:' + show(v));
            log('c2.1|L14');
            throw new Error('e15');
          }, (e) => {
            log('c2.1|H5!' + msg(e));
            return { then(res, rej) {
              log('c2.1|N16');
              process.nextTick(() => res('v16'));
            } };
          });
        });
        sent += 3047;
        sock.write(Buffer.alloc(3047, 120), (err) => {
          log('c2.1|w17:' + (err ? err.code : 'ok'));
          process.nextTick(() => {
            log('c2.1|K18');
            fs.readFile(__filename, (err) => {
              log('f19|F19:' + (err ? err.code : 'ok'));
              T[20] = setImmediate(() => {
                log('f19|I20');
                clearImmediate(T[20]);
                clearImmediate(T[20]);
              });
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
          log('c2.1|data');
          process.nextTick(() => {
            log('c2.1|K26');
          });
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c2.1|end:' + got);
        queueMicrotask(() => {
          log('c2.1|M27');
          T[28] = setTimeout(() => {
            log('t28|T28');
            P[29] = (async () => {
              log('t28|A30');
              try {
                const v = await Promise.resolve({ then(res, rej) {
                  log('t28|N34');
                  P[35] = Promise.reject(new Error('e36'));
                  process.nextTick(() => res('v34'));
                } }).catch((e) => {
                  log('t28|H33!' + msg(e));
                  P[37] = Promise.resolve('v38');
                  return 'v39';
                }).then(undefined);
                log('t28|W31:' + show(v));
              } catch (e) {
                log('t28|W31!' + msg(e));
              }
              process.nextTick(() => {
                log('t28|K40');
                P[41] = Promise.reject(new Error('e42'));
              });
              queueMicrotask(() => {
                log('t28|M43');
              });
              log('t28|L44');
              return 'v45';
            })();
            P[46] = Promise.allSettled([(async () => {
              log('t28|A49');
              process.nextTick(() => {
                log('t28|K50');
                P[51] = Promise.reject(new Error('e52'));
              });
              return Promise.race([]).finally(() => {
                log('t28|Y53');
              });
            })().then(undefined, (e) => {
              log('t28|H48!' + msg(e));
              throw new Error('e54');
            }), P[29]]).then((v) => {
              log('t28|H47:' + show(v));
              return Promise.reject(new Error('e55'));
            });
          }, 0);
        });
      });
      sock.on('close', () => {
        log('c2.1|close');
        c2_2();
      });
      queueMicrotask(() => {
        log('c2.1|M23');
        process.nextTick(() => {
          log('c2.1|K24');
        });
      });
      sent += 1148;
      sock.write(Buffer.alloc(1148, 120));
    }
    function a2_2(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a2.2|data');
      });
      sock.on('end', () => {
        log('a2.2|end:' + got);
      });
      sock.on('close', () => {
        log('a2.2|close');
      });
      log('a2.2|connection');
      srv.close(() => {
        log('s2|close');
      });
    }
    function c2_2() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c2.2|connect');
        sent += 2046;
        sock.write(Buffer.alloc(2046, 120), (err) => {
          log('c2.2|w56:' + (err ? err.code : 'ok'));
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
          log('c2.2|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c2.2|end:' + got);
      });
      sock.on('close', () => {
        log('c2.2|close');
      });
    }
  }
}, 0);
