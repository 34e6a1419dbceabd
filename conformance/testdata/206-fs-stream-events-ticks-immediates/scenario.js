// A read stream's events, each handler queueing a nextTick, a promise reaction and an
// immediate: 'open' and 'ready' come together from the open's completion, each 'data' from
// a read's completion (poll phase), so the handlers' ticks and microtasks run right after
// them and their immediates (check phase) before the next read completes; 'end' comes from
// a nextTick after the read that returned 0, 'close' after the close's completion.
const fs = require('fs');
const os = require('os');
const path = require('path');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uvgo-206-'));
const file = path.join(dir, 'in.txt');
fs.writeFileSync(file, 'abcdefghijklmnopqrst');
function queues(name) {
  process.nextTick(() => console.log(name, 'nextTick'));
  Promise.resolve().then(() => console.log(name, 'promise'));
  setImmediate(() => console.log(name, 'immediate'));
}
const rs = fs.createReadStream(file, { highWaterMark: 8 });
for (const ev of ['open', 'ready', 'end', 'close']) {
  rs.on(ev, () => {
    console.log(ev);
    queues(ev);
  });
}
let n = 0;
rs.on('data', (chunk) => {
  n++;
  console.log('data', n, chunk.toString());
  queues('data ' + n);
});
rs.on('close', () => fs.rmSync(dir, { recursive: true }));
process.nextTick(() => console.log('main nextTick'));
console.log('main end');
