'use strict';
// nexttick-chain: each process.nextTick callback queues the next, N in all (ns_per_op = per
// tick). uvgo: BenchmarkNextTickChain.
const { fail, parseN, start, report } = require('./common.js');

const name = 'nexttick-chain';
const n = parseN(name, 1_000_000);
let ran = 0;
let clock;

function next() {
  if (++ran < n) {
    process.nextTick(next);
    return;
  }
  report(name, n, clock);
}

clock = start();
process.nextTick(next);
process.on('exit', () => { if (ran !== n) fail(name, `ran ${ran}, want ${n}`); });
