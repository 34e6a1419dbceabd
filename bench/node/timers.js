'use strict';
// Shared by timers-zero.js, timers-spread.js and timers-cancel.js: set N timeouts with
// delay(i), clear every odd-numbered one (i = 1, 3, ...) if asked, and stop the clock when the
// last remaining one fires (ns_per_op = per timeout: set, and fired or cleared). The array
// that keeps the Timeout objects for clearTimeout is allocated before the clock starts.
// uvgo: benchNodeTimers in uvloop/bench_node_test.go.
const { fail, parseN, start, report } = require('./common.js');

function runTimers(name, delay, clearOdd) {
  const n = parseN(name, 1_000_000);
  const want = clearOdd ? Math.ceil(n / 2) : n;
  const ts = clearOdd ? new Array(n).fill(null) : null;
  let fired = 0;
  let clock;

  function cb() {
    if (++fired === want) report(name, n, clock, { fired });
  }

  clock = start();
  if (clearOdd) {
    for (let i = 0; i < n; i++) ts[i] = setTimeout(cb, delay(i));
    for (let i = 1; i < n; i += 2) clearTimeout(ts[i]);
  } else {
    for (let i = 0; i < n; i++) setTimeout(cb, delay(i));
  }
  process.on('exit', () => { if (fired !== want) fail(name, `fired ${fired}, want ${want}`); });
}

const spread = (i) => (i % 1000) + 1;

module.exports = { runTimers, spread };
