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
  T[1] = setInterval(() => {
    C[1] = (C[1] || 0) + 1;
    log('V1.' + C[1]);
    if (C[1] === 3) clearInterval(T[1]);
  }, 50);
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
      process.nextTick(() => {
        log('a2.1|K10');
        fs.stat(__filename, (err) => {
          log('f11|F11:' + (err ? err.code : 'ok'));
        });
      });
      P[12] = Promise.allSettled([Promise.resolve('v15')]).finally(() => {
        log('a2.1|Y14');
        fs.stat(__filename + '.missing', (err) => {
          log('f16|F16:' + (err ? err.code : 'ok'));
          T[17] = setImmediate(() => {
            log('f16|I17');
            clearImmediate(T[17]);
          });
        });
        P[18] = Promise.race([Promise.resolve('v20').then((v) => {
          log('a2.1|H19:' + show(v));
          return Promise.resolve('v21');
        }, (e) => {
          log('a2.1|H19!' + msg(e));
          return Promise.resolve('v22');
        }), 'v23', Promise.resolve({ then(res, rej) {
          log('a2.1|N24');
          res('v24');
        } })]);
      }).then((v) => {
        log('a2.1|H13:' + show(v));
        return { then(res, rej) {
          log('a2.1|N25');
          res('v25');
        } };
      });
    }
    function c2_1() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c2.1|connect');
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
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c2.1|end:' + got);
      });
      sock.on('close', () => {
        log('c2.1|close');
        process.nextTick(() => {
          log('c2.1|K4');
          fs.stat(__filename, (err) => {
            log('f5|F5:' + (err ? err.code : 'ok'));
            process.nextTick(() => {
              log('f5|K6');
              process.nextTick(() => {
                log('f5|K7');
                P[8] = Promise.resolve('v9');
              });
            });
          });
        });
        c2_2();
      });
      sent += 2993;
      sock.write(Buffer.alloc(2993, 120), (err) => {
        log('c2.1|w3:' + (err ? err.code : 'ok'));
      });
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
    }
    function c2_2() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c2.2|connect');
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
        srv.close(() => {
          log('s2|close');
        });
      });
    }
  }
}, 0);
