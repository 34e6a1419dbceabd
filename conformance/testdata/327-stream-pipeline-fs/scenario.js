// stream.pipeline from a read stream into a write stream whose high-water mark is below the
// read size: every write returns false, the source pauses and flows again on 'drain'. At the
// source's 'end' the pipe is undone ('unpipe') and the destination ended; the callback comes
// from a nextTick once both streams have closed. A pipeline whose source fails destroys the
// destination and calls back with the source's error.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { pipeline } = require('stream');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uvgo-327-'));
const src = path.join(dir, 'src.txt');
fs.writeFileSync(src, 'x'.repeat(40));
const rs = fs.createReadStream(src, { highWaterMark: 8 });
const ws = fs.createWriteStream(path.join(dir, 'dst.txt'), { highWaterMark: 4 });
let pauses = 0;
let drains = 0;
let closes = 0;
rs.on('pause', () => pauses++);
ws.on('drain', () => drains++);
ws.on('pipe', (s) => console.log('ws pipe', s === rs));
ws.on('unpipe', (s) => console.log('ws unpipe', s === rs));
rs.on('end', () => console.log('rs end'));
ws.on('finish', () => console.log('ws finish'));
rs.on('close', () => closes++);
ws.on('close', () => closes++);
pipeline(rs, ws, (err) => {
  console.log('pipeline done', err, 'closed:', closes, 'paused:', pauses > 0, 'drained:', drains > 0);
  console.log('copied', fs.readFileSync(path.join(dir, 'dst.txt'), 'utf8').length);
  const bad = fs.createReadStream(path.join(dir, 'missing.txt'));
  const ws2 = fs.createWriteStream(path.join(dir, 'dst2.txt'));
  bad.on('close', () => console.log('bad close'));
  ws2.on('close', () => {
    console.log('ws2 close', ws2.destroyed);
    fs.rmSync(dir, { recursive: true });
  });
  pipeline(bad, ws2, (err) => console.log('pipeline failed', err.code, err.syscall));
  process.nextTick(() => console.log('tick after pipeline'));
});
