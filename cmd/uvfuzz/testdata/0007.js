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
  fs.mkdir(D + '/d0', (err) => {
    log('F1:' + (err ? err.code : 'ok'));
  });
  P[2] = Promise.resolve({ then(res, rej) {
    log('N3');
    rej(new Error('e3'));
  } });
  process.nextTick(() => {
    log('K4');
  });
  log('L5');
  queueMicrotask(() => {
    log('M6');
  });
  {
    const srv = net.createServer();
    let n = 0;
    srv.on('connection', (sock) => [a7_1, a7_2, a7_3][n++](sock));
    srv.listen(0, '127.0.0.1', () => {
      log('s7|listening');
      P[8] = (async () => {
        log('s7|A9');
        try {
          const v = await Promise.race([Promise.resolve({ then(res, rej) {
            log('s7|N11');
            queueMicrotask(() => {
              log('s7|M12');
            });
            res('v11');
            throw new Error('x11');
          } })]);
          log('s7|W10:' + show(v));
        } catch (e) {
          log('s7|W10!' + msg(e));
        }
        log('s7|W13:' + show(await (async () => {
          log('s7|A15');
          queueMicrotask(() => {
            log('s7|M16');
            queueMicrotask(() => {
              log('s7|M17');
              P[18] = Promise.resolve('v19');
              P[20] = Promise.reject(new Error('e21'));
            });
            process.nextTick(() => {
              log('s7|K22');
              P[23] = Promise.resolve('v24');
            });
          });
        })().then((v) => {
          log('s7|H14:' + show(v));
          process.nextTick(() => {
            log('s7|K25');
          });
          return 'v26';
        }, (e) => {
          log('s7|H14!' + msg(e));
          return 'v27';
        })));
        process.nextTick(() => {
          log('s7|K28');
        });
      })();
      log('s7|L29');
      c7_1();
    });
    function a7_1(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a7.1|data');
      });
      sock.on('end', () => {
        log('a7.1|end:' + got);
      });
      sock.on('close', () => {
        log('a7.1|close');
      });
      log('a7.1|connection');
    }
    function c7_1() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c7.1|connect');
        sent += 1530;
        sock.write(Buffer.alloc(1530, 120), (err) => {
          log('c7.1|w34:' + (err ? err.code : 'ok'));
        });
        sent += 1674;
        sock.write(Buffer.alloc(1674, 120), (err) => {
          log('c7.1|w33:' + (err ? err.code : 'ok'));
        });
        sent += 3354;
        sock.write(Buffer.alloc(3354, 120), (err) => {
          log('c7.1|w32:' + (err ? err.code : 'ok'));
        });
        P[30] = Promise.resolve('v31');
        if (sent === 0) {
          ended = true;
          sock.end();
        }
      });
      sock.on('data', (d) => {
        got += d.length;
        if (first) {
          first = false;
          log('c7.1|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c7.1|end:' + got);
      });
      sock.on('close', () => {
        log('c7.1|close');
        c7_2();
      });
      sent += 2462;
      sock.write(Buffer.alloc(2462, 120), (err) => {
        log('c7.1|w35:' + (err ? err.code : 'ok'));
      });
      sent += 2079;
      sock.write(Buffer.alloc(2079, 120), (err) => {
        log('c7.1|w36:' + (err ? err.code : 'ok'));
      });
    }
    function a7_2(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a7.2|data');
      });
      sock.on('end', () => {
        log('a7.2|end:' + got);
      });
      sock.on('close', () => {
        log('a7.2|close');
      });
      log('a7.2|connection');
    }
    function c7_2() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c7.2|connect');
        sent += 1353;
        sock.write(Buffer.alloc(1353, 120));
        if (sent === 0) {
          ended = true;
          sock.end();
        }
      });
      sock.on('data', (d) => {
        got += d.length;
        if (first) {
          first = false;
          log('c7.2|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c7.2|end:' + got);
      });
      sock.on('close', () => {
        log('c7.2|close');
        c7_3();
      });
    }
    function a7_3(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a7.3|data');
      });
      sock.on('end', () => {
        log('a7.3|end:' + got);
      });
      sock.on('close', () => {
        log('a7.3|close');
      });
      log('a7.3|connection');
      srv.close(() => {
        log('s7|close');
      });
    }
    function c7_3() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c7.3|connect');
        sent += 1052;
        sock.write(Buffer.alloc(1052, 120), (err) => {
          log('c7.3|w38:' + (err ? err.code : 'ok'));
        });
        sent += 204;
        sock.write(Buffer.alloc(204, 120), (err) => {
          log('c7.3|w39:' + (err ? err.code : 'ok'));
        });
        sent += 2296;
        sock.write(Buffer.alloc(2296, 120));
        if (sent === 0) {
          ended = true;
          sock.end();
        }
      });
      sock.on('data', (d) => {
        got += d.length;
        if (first) {
          first = false;
          log('c7.3|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c7.3|end:' + got);
      });
      sock.on('close', () => {
        log('c7.3|close');
      });
      sent += 1777;
      sock.write(Buffer.alloc(1777, 120));
      sent += 1905;
      sock.write(Buffer.alloc(1905, 120));
      sent += 1981;
      sock.write(Buffer.alloc(1981, 120), (err) => {
        log('c7.3|w41:' + (err ? err.code : 'ok'));
      });
    }
  }
}, 0);
