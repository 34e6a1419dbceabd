'use strict';
// fs-smallfiles: N files of 1 KiB in a fresh directory, each written with fs.writeFile
// (open, write, close), then each read back with fs.readFile (open, fstat, read, close);
// at most 64 calls in flight in each phase. Removing the files is not measured.
// uvgo: nodefs BenchmarkSmallFiles.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { fail, parseN, start, report } = require('./common.js');

const name = 'fs-smallfiles';
const window = 64;
const n = parseN(name, 10_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fs-'));
const data = Buffer.alloc(1024, 'x');
const files = [];
for (let i = 0; i < n; i++) files.push(path.join(dir, 'f' + i));

// phase runs op(i, cb) for every file, at most window at a time, then calls then().
function phase(op, then) {
  let next = 0;
  let done = 0;
  function one() {
    const i = next++;
    op(i, (err) => {
      if (err) fail(name, String(err));
      if (++done === n) return then();
      if (next < n) one();
    });
  }
  for (let k = 0; k < window && k < n; k++) one();
}

const clock = start();
phase((i, cb) => fs.writeFile(files[i], data, cb), () => {
  phase((i, cb) => fs.readFile(files[i], (err, b) => {
    if (!err && b.length !== data.length) err = new Error('short read ' + b.length);
    cb(err);
  }), () => {
    report(name, n, clock);
    fs.rmSync(dir, { recursive: true });
  });
});
