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
      });
      sock.on('end', () => {
        log('a4.1|end:' + got);
      });
      sock.on('close', () => {
        log('a4.1|close');
      });
      log('a4.1|connection');
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
      });
      sock.on('close', () => {
        log('c4.1|close');
        c4_2();
      });
      sent += 2521;
      sock.write(Buffer.alloc(2521, 120), (err) => {
        log('c4.1|w10:' + (err ? err.code : 'ok'));
        P[11] = Promise.race([]).then((v) => {
          log('c4.1|H12:' + show(v));
          T[13] = setTimeout(() => {
            log('t13|T13');
            P[14] = Promise.reject(new Error('e15'));
          }, 0);
          throw new Error('e16');
        }, (e) => {
          log('c4.1|H12!' + msg(e));
          return new Promise((res, rej) => {
            R[17] = { res, rej };
            log('c4.1|X17');
            fs.stat(__filename, (err) => {
              log('f18|F18:' + (err ? err.code : 'ok'));
              T[19] = setImmediate(() => {
                log('f18|I19');
                P[20] = Promise.reject(new Error('e21'));
              });
            });
            throw new Error('e22');
          });
        });
        process.nextTick(() => {
          log('c4.1|K23');
        });
      });
      sent += 3044;
      sock.write(Buffer.alloc(3044, 120), (err) => {
        log('c4.1|w24:' + (err ? err.code : 'ok'));
        P[25] = Promise.resolve({ then(res, rej) {
          log('c4.1|N27');
          T[28] = setTimeout(() => {
            log('t28|T28');
            process.nextTick(() => {
              log('t28|K29');
              process.nextTick(() => {
                log('t28|K30');
                log('t28|L31');
              });
              queueMicrotask(() => {
                log('t28|M32');
                P[33] = Promise.reject(new Error('e34'));
              });
            });
          }, 0);
          process.nextTick(() => res('v27'));
        } }).finally(() => {
          log('c4.1|Y26');
          T[35] = setTimeout(() => {
            log('t35|T35');
            P[36] = (async () => {
              log('t35|A38');
              return { then(res, rej) {
                log('t35|N39');
                res('v39');
                rej(new Error('e39'));
              } };
            })().catch((e) => {
              log('t35|H37!' + msg(e));
              throw new Error('e40');
            });
          }, 5);
          return Promise.resolve('v41');
        });
      });
      sent += 3685;
      sock.write(Buffer.alloc(3685, 120), (err) => {
        log('c4.1|w6:' + (err ? err.code : 'ok'));
        process.nextTick(() => {
          log('c4.1|K7');
          queueMicrotask(() => {
            log('c4.1|M8');
          });
          process.nextTick(() => {
            log('c4.1|K9');
          });
        });
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
        sent += 1837;
        sock.write(Buffer.alloc(1837, 120), (err) => {
          log('c4.2|w42:' + (err ? err.code : 'ok'));
        });
        sent += 2321;
        sock.write(Buffer.alloc(2321, 120), (err) => {
          log('c4.2|w43:' + (err ? err.code : 'ok'));
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
        sent += 2512;
        sock.write(Buffer.alloc(2512, 120));
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
