'use strict';
// fs-read: N fs.read calls of 64 bytes at offset 0 of an open 1 KiB file, each started from
// the previous one's callback. uvgo: BenchmarkFSRead; libuv: bench/libuv/fs_read.c.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { fail, parseN, start, report } = require('./common.js');

const name = 'fs-read';
const n = parseN(name, 100_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fs-'));
const file = path.join(dir, 'bench.txt');
fs.writeFileSync(file, Buffer.alloc(1024));
const fd = fs.openSync(file, 'r');
const buf = Buffer.alloc(64);
let done = 0;
let clock;
function cb(err, n64) {
  if (err || n64 !== 64) fail(name, String(err || n64));
  if (++done < n) return fs.read(fd, buf, 0, 64, 0, cb);
  report(name, n, clock);
  fs.closeSync(fd);
  fs.rmSync(dir, { recursive: true });
}
clock = start();
fs.read(fd, buf, 0, 64, 0, cb);
