'use strict';
// fs-stat: N fs.stat calls of one 1 KiB file, each started from the previous one's callback:
// ns_per_op is one threadpool round trip with a stat on the pool thread and a Stats object.
// uvgo: BenchmarkFSStat; libuv: bench/libuv/fs_stat.c.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { fail, parseN, start, report } = require('./common.js');

const name = 'fs-stat';
const n = parseN(name, 100_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fs-'));
const file = path.join(dir, 'bench.txt');
fs.writeFileSync(file, Buffer.alloc(1024));
let done = 0;
let clock;
function cb(err) {
  if (err) fail(name, String(err));
  if (++done < n) return fs.stat(file, cb);
  report(name, n, clock);
  fs.rmSync(dir, { recursive: true });
}
clock = start();
fs.stat(file, cb);
