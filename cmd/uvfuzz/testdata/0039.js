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
  fs.stat(__filename, (err) => {
    log('F1:' + (err ? err.code : 'ok'));
    log('L2');
  });
  {
    const srv = net.createServer();
    let n = 0;
    srv.on('connection', (sock) => [a3_1][n++](sock));
    srv.listen(0, '127.0.0.1', () => {
      log('s3|listening');
      P[4] = Promise.resolve({ then(res, rej) {
        log('s3|N5');
        queueMicrotask(() => {
          log('s3|M6');
          queueMicrotask(() => {
            log('s3|M7');
            process.nextTick(() => {
              log('s3|K8');
            });
          });
        });
        throw new Error('e5');
      } });
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
    }
    function c3_1() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c3.1|connect');
        fs.readFile(__filename, (err) => {
          log('f9|F9:' + (err ? err.code : 'ok'));
        });
        sent += 3734;
        sock.write(Buffer.alloc(3734, 120), (err) => {
          log('c3.1|w10:' + (err ? err.code : 'ok'));
        });
        sent += 2294;
        sock.write(Buffer.alloc(2294, 120), (err) => {
          log('c3.1|w11:' + (err ? err.code : 'ok'));
        });
        sent += 3838;
        sock.write(Buffer.alloc(3838, 120));
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
          T[24] = setImmediate(() => {
            log('c3.1|I24');
            process.nextTick(() => {
              log('c3.1|K25');
              clearImmediate(T[24]);
            });
            log('c3.1|L26');
            fs.stat(__filename, (err) => {
              log('f27|F27:' + (err ? err.code : 'ok'));
              queueMicrotask(() => {
                log('f27|M28');
              });
            });
          });
          clearImmediate(T[24]);
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c3.1|end:' + got);
      });
      sock.on('close', () => {
        log('c3.1|close');
        P[29] = Promise.resolve({ then(res, rej) {
          log('c3.1|N31');
          res('v31');
          rej(new Error('e31'));
        } }).then((v) => {
          log('c3.1|H30:' + show(v));
          queueMicrotask(() => {
            log('c3.1|M32');
            queueMicrotask(() => {
              log('c3.1|M33');
              log('c3.1|L34');
              T[35] = setTimeout(() => {
                log('t35|T35');
                P[36] = Promise.reject(new Error('e37'));
              }, 0);
            });
          });
          process.nextTick(() => {
            log('c3.1|K38');
            T[39] = setTimeout(() => {
              log('t39|T39');
            }, 0);
            process.nextTick(() => {
              log('c3.1|K40');
              T[41] = setTimeout(() => {
                log('t41|T41');
              }, 0);
            });
          });
          return Promise.resolve('v42');
        });
        srv.close(() => {
          log('s3|close');
        });
      });
      sent += 3576;
      sock.write(Buffer.alloc(3576, 120));
      sent += 446;
      sock.write(Buffer.alloc(446, 120), (err) => {
        log('c3.1|w22:' + (err ? err.code : 'ok'));
      });
      sent += 151;
      sock.write(Buffer.alloc(151, 120), (err) => {
        log('c3.1|w14:' + (err ? err.code : 'ok'));
        T[15] = setTimeout(() => {
          log('t15|T15');
          process.nextTick(() => {
            log('t15|K16');
            P[17] = Promise.any(['v20']).finally(() => {
              log('t15|Y19');
            }).finally(() => {
              log('t15|Y18');
              throw new Error('e21');
            });
          });
        }, 0);
      });
      queueMicrotask(() => {
        log('c3.1|M13');
      });
    }
  }
}, 0);
