'use strict';
// immediate-chain: each setImmediate callback queues the next, N in all (ns_per_op = per
// immediate; one loop iteration each). uvgo: BenchmarkImmediateChain.
const { fail, parseN, start, report } = require('./common.js');

const name = 'immediate-chain';
const n = parseN(name, 1_000_000);
let ran = 0;
let clock;

function next() {
  if (++ran < n) {
    setImmediate(next);
    return;
  }
  report(name, n, clock);
}

clock = start();
setImmediate(next);
process.on('exit', () => { if (ran !== n) fail(name, `ran ${ran}, want ${n}`); });
