'use strict';
// immediate-batch: N setImmediate queued at once, all run in one check phase (ns_per_op =
// per immediate, queueing included). uvgo: BenchmarkImmediateBatch.
const { fail, parseN, start, report } = require('./common.js');

const name = 'immediate-batch';
const n = parseN(name, 1_000_000);
let ran = 0;
let clock;

function cb() {
  if (++ran === n) report(name, n, clock);
}

clock = start();
for (let i = 0; i < n; i++) setImmediate(cb);
process.on('exit', () => { if (ran !== n) fail(name, `ran ${ran}, want ${n}`); });
