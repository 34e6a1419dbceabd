'use strict';
// queue-work: N work items on libuv's threadpool, all queued at once; the completion
// callbacks (on the main thread, in the poll phase) count them (ns_per_op = per item,
// queueing included). uvgo: BenchmarkQueueWork; libuv: bench/libuv/queue_work.c.
//
// Plain Node cannot queue an arbitrary (or empty) function on the threadpool, so each item is
// the lightest built-in operation that runs there: crypto.randomFill of a 1-byte buffer. Its
// work on the pool thread is one RAND_bytes call for 1 byte (a userspace DRBG step, no system
// call); the rest is Node's own cost of a threadpool request (the JS wrapper and its checks,
// the job object, uv_queue_work, the completion back into JS), which is what this row
// compares. Chosen over the alternatives by measurement (Node v20, 200k items, same machine):
// randomFill ~4.5-13 µs per item, fs.access(__filename) ~11-17 µs, fs.stat(__filename)
// ~13-17 µs (a system call and a stats object each). dns.lookup('127.0.0.1') is not a
// candidate: Node answers an IP literal itself, on a nextTick, without the pool.
// That randomFill runs on the pool was checked by saturating the pool (UV_THREADPOOL_SIZE,
// 4) with four slow crypto.pbkdf2 calls first: the randomFill callback came only after the
// first of them finished (~100 ms), where dns.lookup('127.0.0.1') came at once.
const crypto = require('crypto');
const { fail, parseN, start, report } = require('./common.js');

const name = 'queue-work';
const n = parseN(name, 200_000);
const buf = Buffer.alloc(1); // every item fills the same byte: the bytes are not the point
let done = 0;
let clock;

function after(err) {
  if (err) fail(name, `randomFill: ${err}`);
  if (++done === n) report(name, n, clock, { work: 'crypto.randomFill-1-byte' });
}

clock = start();
for (let i = 0; i < n; i++) crypto.randomFill(buf, after);
process.on('exit', () => { if (done !== n) fail(name, `completed ${done}, want ${n}`); });
