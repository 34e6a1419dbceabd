// fs.watch on a directory: renaming an entry reports 'rename' for the old name and the new
// one; close() emits 'close' from a nextTick.
const fs = require('fs');
const os = require('os');
const path = require('path');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uvgo-204-'));
fs.writeFileSync(path.join(dir, 'a.txt'), 'a');
const seen = [];
const watcher = fs.watch(dir, (eventType, filename) => {
  seen.push(eventType + ' ' + filename);
  if (seen.length === 2) {
    console.log(seen.join(', '));
    watcher.close();
    console.log('closed');
  }
});
watcher.on('close', () => {
  console.log('close event');
  fs.rmSync(dir, { recursive: true });
});
setTimeout(() => fs.renameSync(path.join(dir, 'a.txt'), path.join(dir, 'b.txt')), 20);
