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
  fs.readFile(__filename, (err) => {
    log('F1:' + (err ? err.code : 'ok'));
  });
  {
    const srv = net.createServer();
    let n = 0;
    srv.on('connection', (sock) => [a2_1][n++](sock));
    srv.listen(0, '127.0.0.1', () => {
      log('s2|listening');
      log('s2|L3');
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
    }
    function c2_1() {
      let got = 0, sent = 0, first = true, ended = false;
      const sock = net.connect(srv.address().port, '127.0.0.1', () => {
        log('c2.1|connect');
        sent += 1842;
        sock.write(Buffer.alloc(1842, 120), (err) => {
          log('c2.1|w7:' + (err ? err.code : 'ok'));
          T[8] = setTimeout(() => {
            log('t8|T8');
            T[9] = setImmediate(() => {
              log('t8|I9');
            });
          }, 0);
        });
        sent += 672;
        sock.write(Buffer.alloc(672, 120));
        queueMicrotask(() => {
          log('c2.1|M4');
        });
        sent += 3498;
        sock.write(Buffer.alloc(3498, 120), (err) => {
          log('c2.1|w6:' + (err ? err.code : 'ok'));
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
        srv.close(() => {
          log('s2|close');
        });
      });
      sent += 2744;
      sock.write(Buffer.alloc(2744, 120), (err) => {
        log('c2.1|w10:' + (err ? err.code : 'ok'));
        process.nextTick(() => {
          log('c2.1|K11');
          T[12] = setTimeout(() => {
            log('t12|T12');
          }, 5);
        });
      });
      sent += 707;
      sock.write(Buffer.alloc(707, 120), (err) => {
        log('c2.1|w15:' + (err ? err.code : 'ok'));
        T[16] = setImmediate(() => {
          log('c2.1|I16');
          P[17] = Promise.resolve({ then(res, rej) {
            log('c2.1|N18');
            res('v18');
            throw new Error('x18');
          } });
          queueMicrotask(() => {
            log('c2.1|M19');
          });
        });
      });
      sent += 2117;
      sock.write(Buffer.alloc(2117, 120), (err) => {
        log('c2.1|w13:' + (err ? err.code : 'ok'));
        T[14] = setImmediate(() => {
          log('c2.1|I14');
          clearImmediate(T[14]);
          clearImmediate(T[14]);
          clearImmediate(T[14]);
        });
      });
    }
  }
}, 0);
