'use strict';
// fs-readfile: N fs.readFile calls of one 1 KiB file, each started from the previous one's
// callback (open, fstat, read, close on the threadpool). uvgo: nodefs BenchmarkReadFile.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { fail, parseN, start, report } = require('./common.js');

const name = 'fs-readfile';
const n = parseN(name, 50_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fs-'));
const file = path.join(dir, 'bench.txt');
fs.writeFileSync(file, Buffer.alloc(1024));
let done = 0;
let clock;
function cb(err, data) {
  if (err || data.length !== 1024) fail(name, String(err));
  if (++done < n) return fs.readFile(file, cb);
  report(name, n, clock);
  fs.rmSync(dir, { recursive: true });
}
clock = start();
fs.readFile(file, cb);
