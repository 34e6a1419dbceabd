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
  fs.stat(__filename + '.missing', (err) => {
    log('F1:' + (err ? err.code : 'ok'));
    fs.writeFile(D + '/f1', 'w2', (err) => {
      log('F2:' + (err ? err.code : 'ok'));
      log('L3');
    });
    log('L4');
  });
  {
    const srv = net.createServer();
    let n = 0;
    srv.on('connection', (sock) => [a5_1, a5_2, a5_3][n++](sock));
    srv.listen(0, '127.0.0.1', () => {
      log('s5|listening');
      c5_1();
    });
    function a5_1(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a5.1|data');
      });
      sock.on('end', () => {
        log('a5.1|end:' + got);
      });
      sock.on('close', () => {
        log('a5.1|close');
      });
      log('a5.1|connection');
    }
    function c5_1() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c5.1|connect');
        fs.stat(__filename + '.missing', (err) => {
          log('f6|F6:' + (err ? err.code : 'ok'));
        });
        sent += 2497;
        sock.write(Buffer.alloc(2497, 120));
        sent += 300;
        sock.write(Buffer.alloc(300, 120), (err) => {
          log('c5.1|w13:' + (err ? err.code : 'ok'));
          T[14] = setImmediate(() => {
            log('c5.1|I14');
            process.nextTick(() => {
              log('c5.1|K15');
            });
          });
        });
        queueMicrotask(() => {
          log('c5.1|M7');
          fs.stat(__filename, (err) => {
            log('f8|F8:' + (err ? err.code : 'ok'));
            T[9] = setImmediate(() => {
              log('f8|I9');
              clearImmediate(T[9]);
            });
          });
          fs.stat(__filename, (err) => {
            log('f10|F10:' + (err ? err.code : 'ok'));
            queueMicrotask(() => {
              log('f10|M11');
            });
          });
        });
        sent += 529;
        sock.write(Buffer.alloc(529, 120), (err) => {
          log('c5.1|w16:' + (err ? err.code : 'ok'));
          T[17] = setImmediate(() => {
            log('c5.1|I17');
          });
          P[18] = new Promise((res, rej) => {
            R[20] = { res, rej };
            log('c5.1|X20');
            fs.stat(__filename, (err) => {
              log('f21|F21:' + (err ? err.code : 'ok'));
              queueMicrotask(() => {
                log('f21|M22');
                log('f21|L23');
              });
              queueMicrotask(() => {
                log('f21|M24');
                P[25] = Promise.resolve('v26');
              });
            });
          }).then((v) => {
            log('c5.1|H19:' + show(v));
            return 'v27';
          }, (e) => {
            log('c5.1|H19!' + msg(e));
            return 'v28';
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
          log('c5.1|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c5.1|end:' + got);
      });
      sock.on('close', () => {
        log('c5.1|close');
        c5_2();
      });
    }
    function a5_2(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a5.2|data');
      });
      sock.on('end', () => {
        log('a5.2|end:' + got);
      });
      sock.on('close', () => {
        log('a5.2|close');
      });
      log('a5.2|connection');
    }
    function c5_2() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c5.2|connect');
        sent += 3362;
        sock.write(Buffer.alloc(3362, 120), (err) => {
          log('c5.2|w29:' + (err ? err.code : 'ok'));
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
          log('c5.2|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c5.2|end:' + got);
      });
      sock.on('close', () => {
        log('c5.2|close');
        c5_3();
      });
      sent += 1015;
      sock.write(Buffer.alloc(1015, 120), (err) => {
        log('c5.2|w30:' + (err ? err.code : 'ok'));
      });
      sent += 1302;
      sock.write(Buffer.alloc(1302, 120), (err) => {
        log('c5.2|w31:' + (err ? err.code : 'ok'));
      });
    }
    function a5_3(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a5.3|data');
      });
      sock.on('end', () => {
        log('a5.3|end:' + got);
      });
      sock.on('close', () => {
        log('a5.3|close');
      });
      log('a5.3|connection');
    }
    function c5_3() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c5.3|connect');
        sent += 1099;
        sock.write(Buffer.alloc(1099, 120));
        sent += 153;
        sock.write(Buffer.alloc(153, 120), (err) => {
          log('c5.3|w32:' + (err ? err.code : 'ok'));
        });
        sent += 3791;
        sock.write(Buffer.alloc(3791, 120));
        if (sent === 0) {
          ended = true;
          sock.end();
        }
      });
      sock.on('data', (d) => {
        got += d.length;
        if (first) {
          first = false;
          log('c5.3|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c5.3|end:' + got);
      });
      sock.on('close', () => {
        log('c5.3|close');
        srv.close(() => {
          log('s5|close');
        });
      });
    }
  }
}, 0);
