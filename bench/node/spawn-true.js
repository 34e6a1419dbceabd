'use strict';
// spawn-true: spawn /bin/true and wait for its 'exit', N times one after the other
// (ns_per_op = per child, spawn to exit). stdio is 'ignore', so the row measures the spawn,
// the reaping and the exit callback, not pipes. uvgo: BenchmarkSpawnTrue.
const { spawn } = require('child_process');
const { fail, parseN, start, report } = require('./common.js');

const name = 'spawn-true';
const n = parseN(name, 500);
let done = 0;
let clock;

function next() {
  const child = spawn('/bin/true', [], { stdio: 'ignore' });
  child.on('error', (err) => fail(name, `spawn: ${err}`));
  child.on('exit', (code) => {
    if (code !== 0) fail(name, `exit code ${code}`);
    if (++done === n) report(name, n, clock);
    else next();
  });
}

clock = start();
next();
process.on('exit', () => { if (done !== n) fail(name, `exited ${done}, want ${n}`); });
