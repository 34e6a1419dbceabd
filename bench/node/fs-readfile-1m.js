'use strict';
// fs-readfile-1m: N fs.readFile calls of one 1 MiB file, each started from the previous
// one's callback (open, fstat, two reads of 512 KiB, close on the threadpool).
// uvgo: nodefs BenchmarkReadFile1M.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { fail, parseN, start, report } = require('./common.js');

const name = 'fs-readfile-1m';
const size = 1 << 20;
const n = parseN(name, 2_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fs-'));
const file = path.join(dir, 'bench.bin');
fs.writeFileSync(file, Buffer.alloc(size, 7));
let done = 0;
let clock;
function cb(err, data) {
  if (err || data.length !== size) fail(name, String(err));
  if (++done < n) return fs.readFile(file, cb);
  report(name, n, clock);
  fs.rmSync(dir, { recursive: true });
}
clock = start();
fs.readFile(file, cb);
