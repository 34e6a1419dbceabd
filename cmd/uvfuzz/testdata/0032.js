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
  T[1] = setTimeout(() => {
    log('T1');
    clearInterval(T[1]);
  }, 50);
  fs.unlink(D + '/f1', (err) => {
    log('F2:' + (err ? err.code : 'ok'));
    P[3] = Promise.resolve('v4');
  });
  P[5] = Promise.allSettled([Promise.reject(new Error('e10')), Promise.reject(new Error('e12')).finally(() => {
    log('Y11');
    clearTimeout(T[1]);
    P[13] = new Promise((res, rej) => {
      R[14] = { res, rej };
      log('X14');
      clearTimeout(T[1]);
      res('v15');
    });
    return (async () => {
      log('A18');
      log('L19');
      clearTimeout(T[1]);
      process.nextTick(() => {
        log('K20');
      });
      return 'v21';
    })().catch((e) => {
      log('H17!' + msg(e));
      clearTimeout(T[1]);
      {
        const srv = net.createServer();
        let n = 0;
        srv.on('connection', (sock) => [a22_1, a22_2, a22_3][n++](sock));
        srv.listen(0, '127.0.0.1', () => {
          log('s22|listening');
          T[23] = setImmediate(() => {
            log('s22|I23');
            P[24] = (async () => {
              log('s22|A25');
              clearImmediate(T[23]);
              clearImmediate(T[23]);
              clearImmediate(T[23]);
            })();
            clearImmediate(T[23]);
          });
          c22_1();
        });
        function a22_1(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a22.1|data');
          });
          sock.on('end', () => {
            log('a22.1|end:' + got);
          });
          sock.on('close', () => {
            log('a22.1|close');
          });
          log('a22.1|connection');
        }
        function c22_1() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c22.1|connect');
            sent += 3375;
            sock.write(Buffer.alloc(3375, 120));
            sent += 287;
            sock.write(Buffer.alloc(287, 120), (err) => {
              log('c22.1|w46:' + (err ? err.code : 'ok'));
            });
            sent += 825;
            sock.write(Buffer.alloc(825, 120));
            P[26] = Promise.any([Promise.any(['v28']).then((v) => {
              log('c22.1|H27:' + show(v));
              return Promise.resolve({ then(res, rej) {
                log('c22.1|N29');
                queueMicrotask(() => rej(new Error('e29')));
              } });
            }, (e) => {
              log('c22.1|H27!' + msg(e));
              process.nextTick(() => {
                log('c22.1|K30');
                P[31] = Promise.resolve('v32');
              });
              T[33] = setTimeout(() => {
                log('t33|T33');
              }, 0);
              return (async () => {
                log('c22.1|A35');
                log('c22.1|L36');
                clearInterval(T[33]);
                try {
                  const v = await 'v38';
                  log('c22.1|W37:' + show(v));
                } catch (e) {
                  log('c22.1|W37!' + msg(e));
                }
                return 'v39';
              })().then((v) => {
                log('c22.1|H34:' + show(v));
                return { then(res, rej) {
                  log('c22.1|N40');
                  res('v40');
                  rej(new Error('e40'));
                } };
              }, (e) => {
                log('c22.1|H34!' + msg(e));
                return Promise.resolve('v41');
              });
            }), 'v42', 'v43']);
            if (sent === 0) {
              ended = true;
              sock.end();
            }
          });
          sock.on('data', (d) => {
            got += d.length;
            if (first) {
              first = false;
              log('c22.1|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c22.1|end:' + got);
          });
          sock.on('close', () => {
            log('c22.1|close');
            c22_2();
          });
          sent += 3081;
          sock.write(Buffer.alloc(3081, 120), (err) => {
            log('c22.1|w47:' + (err ? err.code : 'ok'));
          });
        }
        function a22_2(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a22.2|data');
          });
          sock.on('end', () => {
            log('a22.2|end:' + got);
          });
          sock.on('close', () => {
            log('a22.2|close');
          });
          log('a22.2|connection');
        }
        function c22_2() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c22.2|connect');
            if (sent === 0) {
              ended = true;
              sock.end();
            }
          });
          sock.on('data', (d) => {
            got += d.length;
            if (first) {
              first = false;
              log('c22.2|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c22.2|end:' + got);
          });
          sock.on('close', () => {
            log('c22.2|close');
            c22_3();
          });
          sent += 2773;
          sock.write(Buffer.alloc(2773, 120), (err) => {
            log('c22.2|w48:' + (err ? err.code : 'ok'));
          });
        }
        function a22_3(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a22.3|data');
          });
          sock.on('end', () => {
            log('a22.3|end:' + got);
          });
          sock.on('close', () => {
            log('a22.3|close');
          });
          log('a22.3|connection');
        }
        function c22_3() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c22.3|connect');
            if (sent === 0) {
              ended = true;
              sock.end();
            }
          });
          sock.on('data', (d) => {
            got += d.length;
            if (first) {
              first = false;
              log('c22.3|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c22.3|end:' + got);
          });
          sock.on('close', () => {
            log('c22.3|close');
            srv.close(() => {
              log('s22|close');
            });
          });
        }
      }
      return Promise.resolve('v49');
    }).then((v) => {
      log('H16:' + show(v));
      throw new Error('e50');
    }, (e) => {
      log('H16!' + msg(e));
      return Promise.reject(new Error('e51'));
    });
  })]).then((v) => {
    log('H9:' + show(v));
    throw new Error('e52');
  }).finally(() => {
    log('Y8');
  }).then((v) => {
    log('H7:' + show(v));
    return 'v53';
  }).then((v) => {
    log('H6:' + show(v));
    return 'v54';
  });
}, 0);
