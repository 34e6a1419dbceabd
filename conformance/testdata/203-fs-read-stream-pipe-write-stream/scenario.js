// A read stream piped into a write stream: each stream's events in Node's order. The write
// stream is made first and the read stream once it is ready, so the two do not race.
const fs = require('fs');
const os = require('os');
const path = require('path');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uvgo-203-'));
const src = path.join(dir, 'in.txt');
const dst = path.join(dir, 'out.txt');
fs.writeFileSync(src, 'abcdefghij'.repeat(5));
const rlog = [];
const wlog = [];
const ws = fs.createWriteStream(dst, { highWaterMark: 20 });
for (const ev of ['open', 'ready', 'finish', 'close', 'pipe']) ws.on(ev, () => wlog.push(ev));
ws.on('close', () => {
  console.log('read stream:', rlog.join(' '));
  console.log('write stream:', wlog.join(' '));
  console.log('copied:', fs.readFileSync(dst, 'utf8') === fs.readFileSync(src, 'utf8'));
  fs.rmSync(dir, { recursive: true });
});
ws.on('ready', () => {
  const rs = fs.createReadStream(src, { highWaterMark: 16 });
  for (const ev of ['open', 'ready', 'end']) rs.on(ev, () => rlog.push(ev));
  rs.on('data', (chunk) => rlog.push('data:' + chunk.length));
  rs.pipe(ws);
});
