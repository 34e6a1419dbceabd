'use strict';
// microtask-batch: N queueMicrotask at once, then drained (ns_per_op = per microtask,
// queueing included). uvgo: BenchmarkMicrotaskBatch.
const { fail, parseN, start, report } = require('./common.js');

const name = 'microtask-batch';
const n = parseN(name, 1_000_000);
let ran = 0;
let clock;

function cb() {
  if (++ran === n) report(name, n, clock);
}

clock = start();
for (let i = 0; i < n; i++) queueMicrotask(cb);
process.on('exit', () => { if (ran !== n) fail(name, `ran ${ran}, want ${n}`); });
