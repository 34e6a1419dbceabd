'use strict';
// dns-lookup: dns.lookup('localhost') N times one after the other (ns_per_op = per round
// trip: a getaddrinfo on the threadpool, reading /etc/hosts, and the callback on the loop).
// uvgo: BenchmarkLookupLocalhost (nodedns.Lookup).
const dns = require('dns');
const { fail, parseN, start, report } = require('./common.js');

const name = 'dns-lookup';
const n = parseN(name, 20_000);
let done = 0;
let clock;

function next() {
  dns.lookup('localhost', (err, address) => {
    if (err) fail(name, `lookup: ${err}`);
    if (++done === n) report(name, n, clock, { address });
    else next();
  });
}

clock = start();
next();
process.on('exit', () => { if (done !== n) fail(name, `looked up ${done}, want ${n}`); });
