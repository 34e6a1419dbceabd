'use strict';
// signal-roundtrip: process.kill(process.pid, 'SIGUSR2') and wait for the listener, N times
// one after the other (ns_per_op = per round trip: kill(2), the signal handler, the loop's
// wake-up and the listener). uvgo: BenchmarkSignalRoundTrip.
const { fail, parseN, start, report } = require('./common.js');

const name = 'signal-roundtrip';
const n = parseN(name, 50_000);
let got = 0;
let clock;
const keep = setInterval(() => {}, 1 << 30); // a signal listener does not keep Node alive

process.on('SIGUSR2', () => {
  if (++got === n) {
    report(name, n, clock);
    clearInterval(keep);
    process.removeAllListeners('SIGUSR2');
    return;
  }
  process.kill(process.pid, 'SIGUSR2');
});

clock = start();
process.kill(process.pid, 'SIGUSR2');
process.on('exit', () => { if (got !== n) fail(name, `got ${got}, want ${n}`); });
