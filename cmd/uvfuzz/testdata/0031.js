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
  P[1] = Promise.resolve('v2');
  fs.writeFile(D + '/f2', 'w3', (err) => {
    log('F3:' + (err ? err.code : 'ok'));
    log('L4');
    fs.unlink(D + '/f1', (err) => {
      log('F5:' + (err ? err.code : 'ok'));
    });
    log('L6');
  });
  P[7] = Promise.resolve({ then(res, rej) {
    log('N8');
    res('v8');
  } });
  {
    const srv = net.createServer();
    let n = 0;
    srv.on('connection', (sock) => [a9_1, a9_2][n++](sock));
    srv.listen(0, '127.0.0.1', () => {
      log('s9|listening');
      T[10] = setImmediate(() => {
        log('s9|I10');
        clearImmediate(T[10]);
        clearImmediate(T[10]);
      });
      c9_1();
    });
    function a9_1(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a9.1|data');
        queueMicrotask(() => {
          log('a9.1|M35');
        });
      });
      sock.on('end', () => {
        log('a9.1|end:' + got);
        T[36] = setImmediate(() => {
          log('a9.1|I36');
        });
      });
      sock.on('close', () => {
        log('a9.1|close');
        queueMicrotask(() => {
          log('a9.1|M37');
          fs.stat(__filename + '.missing', (err) => {
            log('f38|F38:' + (err ? err.code : 'ok'));
          });
        });
      });
      log('a9.1|connection');
      T[33] = setTimeout(() => {
        log('t33|T33');
        log('t33|L34');
      }, 0);
    }
    function c9_1() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c9.1|connect');
        process.nextTick(() => {
          log('c9.1|K11');
          P[12] = (async () => {
            log('c9.1|A13');
            return 'v14';
          })();
          log('c9.1|L15');
        });
        fs.readFile(__filename, (err) => {
          log('f16|F16:' + (err ? err.code : 'ok'));
          queueMicrotask(() => {
            log('f16|M17');
          });
        });
        sent += 3014;
        sock.write(Buffer.alloc(3014, 120), (err) => {
          log('c9.1|w23:' + (err ? err.code : 'ok'));
        });
        sent += 1189;
        sock.write(Buffer.alloc(1189, 120), (err) => {
          log('c9.1|w18:' + (err ? err.code : 'ok'));
          queueMicrotask(() => {
            log('c9.1|M19');
            T[20] = setTimeout(() => {
              log('t20|T20');
            }, 5);
          });
          P[21] = Promise.reject(new Error('e22'));
        });
        sent += 2646;
        sock.write(Buffer.alloc(2646, 120));
        if (sent === 0) {
          ended = true;
          sock.end();
        }
      });
      sock.on('data', (d) => {
        got += d.length;
        if (first) {
          first = false;
          log('c9.1|data');
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c9.1|end:' + got);
      });
      sock.on('close', () => {
        log('c9.1|close');
        fs.readFile(__filename, (err) => {
          log('f29|F29:' + (err ? err.code : 'ok'));
          process.nextTick(() => {
            log('f29|K30');
            process.nextTick(() => {
              log('f29|K31');
              T[32] = setImmediate(() => {
                log('f29|I32');
              });
            });
          });
        });
        c9_2();
      });
      sent += 1752;
      sock.write(Buffer.alloc(1752, 120));
      sent += 1882;
      sock.write(Buffer.alloc(1882, 120));
      sent += 1970;
      sock.write(Buffer.alloc(1970, 120), (err) => {
        log('c9.1|w26:' + (err ? err.code : 'ok'));
        T[27] = setTimeout(() => {
          log('t27|T27');
        }, 5);
      });
    }
    function a9_2(sock) {
      let got = 0, first = true;
      sock.on('data', (d) => {
        sock.write(d);
        got += d.length;
        if (!first) return;
        first = false;
        log('a9.2|data');
      });
      sock.on('end', () => {
        log('a9.2|end:' + got);
      });
      sock.on('close', () => {
        log('a9.2|close');
      });
      log('a9.2|connection');
    }
    function c9_2() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c9.2|connect');
        if (sent === 0) {
          ended = true;
          sock.end();
        }
      });
      sock.on('data', (d) => {
        got += d.length;
        if (first) {
          first = false;
          log('c9.2|data');
          fs.readFile(__filename, (err) => {
            log('f52|F52:' + (err ? err.code : 'ok'));
            queueMicrotask(() => {
              log('f52|M53');
              T[54] = setImmediate(() => {
                log('f52|I54');
                P[55] = Promise.all([]);
              });
            });
          });
        }
        if (got === sent && !ended) {
          ended = true;
          sock.end();
        }
      });
      sock.on('end', () => {
        log('c9.2|end:' + got);
      });
      sock.on('close', () => {
        log('c9.2|close');
        srv.close(() => {
          log('s9|close');
        });
      });
      sent += 2041;
      sock.write(Buffer.alloc(2041, 120), (err) => {
        log('c9.2|w42:' + (err ? err.code : 'ok'));
        fs.stat(__filename, (err) => {
          log('f43|F43:' + (err ? err.code : 'ok'));
          process.nextTick(() => {
            log('f43|K44');
            T[45] = setImmediate(() => {
              log('f43|I45');
            });
          });
          queueMicrotask(() => {
            log('f43|M46');
          });
        });
        log('c9.2|L47');
      });
      sent += 408;
      sock.write(Buffer.alloc(408, 120), (err) => {
        log('c9.2|w39:' + (err ? err.code : 'ok'));
        T[40] = setImmediate(() => {
          log('c9.2|I40');
        });
        P[41] = Promise.all([]);
      });
      sent += 2428;
      sock.write(Buffer.alloc(2428, 120), (err) => {
        log('c9.2|w48:' + (err ? err.code : 'ok'));
        log('c9.2|L49');
        fs.stat(__filename, (err) => {
          log('f50|F50:' + (err ? err.code : 'ok'));
          T[51] = setImmediate(() => {
            log('f50|I51');
            clearImmediate(T[51]);
          });
        });
      });
    }
  }
}, 0);
