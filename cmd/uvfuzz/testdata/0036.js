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
  process.nextTick(() => {
    log('K1');
  });
  process.nextTick(() => {
    log('K2');
    fs.writeFile(D + '/f2', 'w3', (err) => {
      log('F3:' + (err ? err.code : 'ok'));
      P[4] = (async () => {
        log('A6');
        return 'v7';
      })().then((v) => {
        log('H5:' + show(v));
        return Promise.resolve('v9').then((v) => {
          log('H8:' + show(v));
          throw new Error('e10');
        });
      }, (e) => {
        log('H5!' + msg(e));
        return (async () => {
          log('A13');
          throw new Error('e14');
        })().finally(() => {
          log('Y12');
        }).then((v) => {
          log('H11:' + show(v));
          log('L15');
          process.nextTick(() => {
            log('K16');
            P[17] = Promise.reject(new Error('e18'));
          });
          return v;
        });
      });
      {
        const srv = net.createServer();
        let n = 0;
        srv.on('connection', (sock) => [a19_1, a19_2][n++](sock));
        srv.listen(0, '127.0.0.1', () => {
          log('s19|listening');
          P[20] = (async () => {
            log('s19|A21');
            queueMicrotask(() => {
              log('s19|M22');
            });
            process.nextTick(() => {
              log('s19|K23');
              P[24] = Promise.resolve('v25');
            });
            return 'v26';
          })();
          queueMicrotask(() => {
            log('s19|M27');
            log('s19|L28');
            process.nextTick(() => {
              log('s19|K29');
              P[30] = Promise.reject(new Error('e31'));
              P[32] = P[20];
            });
          });
          c19_1();
        });
        function a19_1(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a19.1|data');
          });
          sock.on('end', () => {
            log('a19.1|end:' + got);
          });
          sock.on('close', () => {
            log('a19.1|close');
          });
          log('a19.1|connection');
        }
        function c19_1() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c19.1|connect');
            T[33] = setTimeout(() => {
              log('t33|T33');
            }, 0);
            T[34] = setImmediate(() => {
              log('c19.1|I34');
              fs.stat(__filename, (err) => {
                log('f35|F35:' + (err ? err.code : 'ok'));
              });
              P[36] = Promise.all([Promise.race([Promise.resolve({ then(res, rej) {
                log('c19.1|N38');
                P[39] = Promise.resolve('v40');
                throw new Error('e38');
              } }), Promise.resolve({ then(res, rej) {
                log('c19.1|N41');
                clearTimeout(T[33]);
                queueMicrotask(() => rej(new Error('e41')));
              } })]).finally(() => {
                log('c19.1|Y37');
                P[42] = Promise.reject(new Error('e43'));
              }), Promise.resolve({ then(res, rej) {
                log('c19.1|N44');
                rej(new Error('e44'));
              } }), (async () => {
                log('c19.1|A45');
                P[46] = Promise.resolve('v47');
                return Promise.resolve('v48');
              })()]);
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
              log('c19.1|data');
              T[52] = setTimeout(() => {
                log('t52|T52');
              }, 0);
              P[53] = new Promise((res, rej) => {
                R[55] = { res, rej };
                log('c19.1|X55');
                res('v56');
              }).catch((e) => {
                log('c19.1|H54!' + msg(e));
              });
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c19.1|end:' + got);
          });
          sock.on('close', () => {
            log('c19.1|close');
            c19_2();
          });
          sent += 514;
          sock.write(Buffer.alloc(514, 120), (err) => {
            log('c19.1|w51:' + (err ? err.code : 'ok'));
          });
          sent += 720;
          sock.write(Buffer.alloc(720, 120));
          sent += 1974;
          sock.write(Buffer.alloc(1974, 120));
        }
        function a19_2(sock) {
          let got = 0, first = true;
          sock.on('data', (d) => {
            sock.write(d);
            got += d.length;
            if (!first) return;
            first = false;
            log('a19.2|data');
          });
          sock.on('end', () => {
            log('a19.2|end:' + got);
          });
          sock.on('close', () => {
            log('a19.2|close');
          });
          log('a19.2|connection');
          srv.close(() => {
            log('s19|close');
          });
        }
        function c19_2() {
          let got = 0, sent = 0, first = true, ended = false;
          const sock = net.connect(srv.address().port, '127.0.0.1', () => {
            log('c19.2|connect');
            if (sent === 0) {
              ended = true;
              sock.end();
            }
          });
          sock.on('data', (d) => {
            got += d.length;
            if (first) {
              first = false;
              log('c19.2|data');
            }
            if (got === sent && !ended) {
              ended = true;
              sock.end();
            }
          });
          sock.on('end', () => {
            log('c19.2|end:' + got);
          });
          sock.on('close', () => {
            log('c19.2|close');
          });
          sent += 3867;
          sock.write(Buffer.alloc(3867, 120), (err) => {
            log('c19.2|w58:' + (err ? err.code : 'ok'));
          });
          sent += 1701;
          sock.write(Buffer.alloc(1701, 120));
          sent += 3526;
          sock.write(Buffer.alloc(3526, 120), (err) => {
            log('c19.2|w59:' + (err ? err.code : 'ok'));
          });
        }
      }
    });
  });
}, 0);
