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
    queueMicrotask(() => {
      log('M2');
    });
    process.nextTick(() => {
      log('K3');
    });
  });
  {
    const srv = net.createServer();
    let n = 0;
    srv.on('connection', (sock) => [a4_1, a4_2, a4_3][n++](sock));
    srv.listen(0, '127.0.0.1', () => {
      log('s4|listening');
      c4_1();
    });
    function a4_1(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a4.1|data');
        P[38] = Promise.resolve('v39');
      });
      sock.on('end', () => {
        log('a4.1|end:' + got);
      });
      sock.on('close', () => {
        log('a4.1|close');
      });
      log('a4.1|connection');
      T[10] = setImmediate(() => {
        log('a4.1|I10');
        P[11] = Promise.race([]).then((v) => {
          log('a4.1|H12:' + show(v));
          T[13] = setTimeout(() => {
            log('t13|T13');
            P[14] = Promise.reject(new Error('e15'));
          }, 0);
          throw new Error('e16');
        }, (e) => {
          log('a4.1|H12!' + msg(e));
          return new Promise((res, rej) => {
            R[17] = { res, rej };
            log('a4.1|X17');
            fs.stat(__filename, (err) => {
              log('f18|F18:' + (err ? err.code : 'ok'));
              P[19] = Promise.reject(new Error('e20'));
            });
            res(Promise.allSettled([]).then((v) => {
              log('a4.1|H22:' + show(v));
              P[23] = Promise.resolve('v24');
              clearImmediate(T[10]);
              return 'v25';
            }).then((v) => {
              log('a4.1|H21:' + show(v));
              return Promise.resolve('v26');
            }, (e) => {
              log('a4.1|H21!' + msg(e));
              clearImmediate(T[10]);
              return Promise.resolve('v27');
            }));
          });
        });
        T[28] = setTimeout(() => {
          log('t28|T28');
          P[29] = (async () => {
            log('t28|A31');
            return { then(res, rej) {
              log('t28|N32');
              res('v32');
              rej(new Error('e32'));
            } };
          })().catch((e) => {
            log('t28|H30!' + msg(e));
            throw new Error('e33');
          });
        }, 5);
        fs.stat(__filename, (err) => {
          log('f34|F34:' + (err ? err.code : 'ok'));
          T[35] = setImmediate(() => {
            log('f34|I35');
            P[36] = Promise.resolve({ then(res, rej) {
              log('f34|N37');
              queueMicrotask(() => rej(new Error('e37')));
            } });
          });
        });
      });
    }
    function c4_1() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c4.1|connect');
        T[5] = setTimeout(() => {
          log('t5|T5');
        }, 5);
        if (sent === 0) {
          ended = true;
          sock.end();
        }
      });
      sock.on('data', (d) => {
        got += d.length;
        if (first) {
          first = false;
          log('c4.1|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c4.1|end:' + got);
        fs.stat(__filename, (err) => {
          log('f6|F6:' + (err ? err.code : 'ok'));
          process.nextTick(() => {
            log('f6|K7');
            queueMicrotask(() => {
              log('f6|M8');
            });
            process.nextTick(() => {
              log('f6|K9');
            });
          });
        });
      });
      sock.on('close', () => {
        log('c4.1|close');
        c4_2();
      });
    }
    function a4_2(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a4.2|data');
      });
      sock.on('end', () => {
        log('a4.2|end:' + got);
      });
      sock.on('close', () => {
        log('a4.2|close');
      });
      log('a4.2|connection');
    }
    function c4_2() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c4.2|connect');
        sent += 3153;
        sock.write(Buffer.alloc(3153, 120));
        sent += 171;
        sock.write(Buffer.alloc(171, 120), (err) => {
          log('c4.2|w41:' + (err ? err.code : 'ok'));
        });
        sent += 2574;
        sock.write(Buffer.alloc(2574, 120));
        if (sent === 0) {
          ended = true;
          sock.end();
        }
      });
      sock.on('data', (d) => {
        got += d.length;
        if (first) {
          first = false;
          log('c4.2|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c4.2|end:' + got);
      });
      sock.on('close', () => {
        log('c4.2|close');
        c4_3();
      });
    }
    function a4_3(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a4.3|data');
      });
      sock.on('end', () => {
        log('a4.3|end:' + got);
      });
      sock.on('close', () => {
        log('a4.3|close');
      });
      log('a4.3|connection');
    }
    function c4_3() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c4.3|connect');
        sent += 553;
        sock.write(Buffer.alloc(553, 120));
        if (sent === 0) {
          ended = true;
          sock.end();
        }
      });
      sock.on('data', (d) => {
        got += d.length;
        if (first) {
          first = false;
          log('c4.3|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c4.3|end:' + got);
      });
      sock.on('close', () => {
        log('c4.3|close');
        srv.close(() => {
          log('s4|close');
        });
      });
    }
  }
}, 0);
