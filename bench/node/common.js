'use strict';
// Shared by the workload scripts: the argument convention and the result line of
// bench/libuv (see bench/libuv/README.md):
//
//   name=<workload> n=<N> ns_per_op=<float> total_ns=<int> [key=value ...]
//
// Each script is `node <script>.js [N]`, times its measured part inside the process with
// process.hrtime.bigint() (and reports process.cpuUsage() over the same span), checks its
// count and exits 1 with a message on stderr if anything is off.

function fail(name, msg) {
  process.stderr.write(`${name}: ${msg}\n`);
  process.exit(1);
}

// parseN returns argv[2] as a positive integer, or def without it.
function parseN(name, def) {
  const argv = process.argv.slice(2);
  if (argv.length > 1) fail(name, 'usage: node <script>.js [N]');
  if (argv.length === 0) return def;
  if (!/^[0-9]+$/.test(argv[0]) || Number(argv[0]) <= 0 || !Number.isSafeInteger(Number(argv[0]))) {
    fail(name, `N must be a positive integer, got ${argv[0]}`);
  }
  return Number(argv[0]);
}

// start takes the clock (wall and CPU) at the beginning of the measured part.
function start() {
  const cpu = process.cpuUsage();
  return { t0: process.hrtime.bigint(), cpu };
}

// report ends the measured part and prints the result line. extra is an object of additional
// key=value fields.
function report(name, n, clock, extra) {
  const t1 = process.hrtime.bigint();
  const cpu = process.cpuUsage(clock.cpu);
  const total = t1 - clock.t0;
  let line = `name=${name} n=${n} ns_per_op=${(Number(total) / n).toFixed(3)} total_ns=${total}` +
    ` user_us=${cpu.user} sys_us=${cpu.system}`;
  for (const [k, v] of Object.entries(extra || {})) line += ` ${k}=${v}`;
  process.stdout.write(line + '\n');
}

module.exports = { fail, parseN, start, report };
