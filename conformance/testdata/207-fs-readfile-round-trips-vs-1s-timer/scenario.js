// fs.readFile of a 1.5 MiB file is open, fstat, three reads of 512 KiB and close: six
// round trips to the threadpool, each completing in a later poll phase than the one that
// started it, so a chain of immediates turns at least six times meanwhile; a 1 s timer set
// first fires after the readFile callback, which busies the loop for 10 ms. (1 s, not less:
// on a loaded machine the six round trips can take over 100 ms, in node too.)
const fs = require('fs');
const os = require('os');
const path = require('path');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uvgo-207-'));
const file = path.join(dir, 'big.bin');
fs.writeFileSync(file, Buffer.alloc(1536 * 1024, 'x'));
const scheduled = Date.now();
let done = false;
let iterations = 0;
setTimeout(() => {
  console.log('timeout fired; readFile done:', done, 'delay >= 999:', Date.now() - scheduled >= 999);
  fs.rmSync(dir, { recursive: true });
}, 1000);
(function spin() {
  iterations++;
  if (!done) setImmediate(spin);
})();
fs.readFile(file, (err, data) => {
  done = true;
  console.log('readFile', err, data.length, 'immediates meanwhile >= 6:', iterations >= 6);
  const t = Date.now();
  while (Date.now() - t < 10) {
    // busy 10 ms
  }
  console.log('readFile callback end');
});
console.log('main end');
