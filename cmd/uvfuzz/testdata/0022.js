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
  queueMicrotask(() => {
    log('M1');
  });
  fs.readFile(D + '/f2', 'utf8', (err, d) => {
    log('F2:' + (err ? err.code : 'ok:' + d));
  });
  P[3] = Promise.resolve({ then(res, rej) {
    log('N5');
    queueMicrotask(() => {
      log('M6');
    });
    res('v5');
  } }).then((v) => {
    log('H4:' + show(v));
    return 'v7';
  }, (e) => {
    log('H4!' + msg(e));
    queueMicrotask(() => {
      log('M8');
      log('L9');
    });
    process.nextTick(() => {
      log('K10');
      P[11] = Promise.all([Promise.resolve({ then(res, rej) {
        log('N12');
        queueMicrotask(() => rej(new Error('e12')));
      } })]);
    });
    return 'v13';
  });
  {
    const srv = net.createServer();
    let n = 0;
    srv.on('connection', (sock) => [a14_1, a14_2][n++](sock));
    srv.listen(0, '127.0.0.1', () => {
      log('s14|listening');
      P[15] = (async () => {
        log('s14|A16');
        process.nextTick(() => {
          log('s14|K17');
          process.nextTick(() => {
            log('s14|K18');
          });
          process.nextTick(() => {
            log('s14|K19');
          });
        });
      })();
      queueMicrotask(() => {
        log('s14|M20');
        queueMicrotask(() => {
          log('s14|M21');
        });
        queueMicrotask(() => {
          log('s14|M22');
        });
      });
      c14_1();
    });
    function a14_1(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a14.1|data');
      });
      sock.on('end', () => {
        log('a14.1|end:' + got);
      });
      sock.on('close', () => {
        log('a14.1|close');
      });
      log('a14.1|connection');
    }
    function c14_1() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c14.1|connect');
        fs.stat(__filename + '.missing', (err) => {
          log('f23|F23:' + (err ? err.code : 'ok'));
        });
        sent += 2671;
        sock.write(Buffer.alloc(2671, 120), (err) => {
          log('c14.1|w31:' + (err ? err.code : 'ok'));
        });
        sent += 1810;
        sock.write(Buffer.alloc(1810, 120), (err) => {
          log('c14.1|w32:' + (err ? err.code : 'ok'));
        });
        process.nextTick(() => {
          log('c14.1|K24');
          T[25] = setTimeout(() => {
            log('t25|T25');
            P[26] = Promise.resolve('v28').then((v) => {
              log('t25|H27:' + show(v));
              throw new Error('e29');
            });
            T[30] = setImmediate(() => {
              log('t25|I30');
              clearImmediate(T[30]);
            });
          }, 0);
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
          log('c14.1|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c14.1|end:' + got);
      });
      sock.on('close', () => {
        log('c14.1|close');
        c14_2();
      });
    }
    function a14_2(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a14.2|data');
      });
      sock.on('end', () => {
        log('a14.2|end:' + got);
      });
      sock.on('close', () => {
        log('a14.2|close');
      });
      log('a14.2|connection');
    }
    function c14_2() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c14.2|connect');
        sent += 1077;
        sock.write(Buffer.alloc(1077, 120));
        sent += 1497;
        sock.write(Buffer.alloc(1497, 120), (err) => {
          log('c14.2|w34:' + (err ? err.code : 'ok'));
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
          log('c14.2|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c14.2|end:' + got);
      });
      sock.on('close', () => {
        log('c14.2|close');
        srv.close(() => {
          log('s14|close');
        });
      });
      sent += 1759;
      sock.write(Buffer.alloc(1759, 120), (err) => {
        log('c14.2|w35:' + (err ? err.code : 'ok'));
      });
      sent += 1815;
      sock.write(Buffer.alloc(1815, 120), (err) => {
        log('c14.2|w36:' + (err ? err.code : 'ok'));
      });
    }
  }
}, 0);
