// Inside the callback of any fs call (poll phase) an immediate runs before a 0 ms timeout:
// stat, open, read, close, writeFile, readFile, readdir, an fs/promises reaction, and a
// read stream's 'data'. Each step starts the next one from its timeout.
const fs = require('fs');
const os = require('os');
const path = require('path');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uvgo-208-'));
const file = path.join(dir, 'f.txt');
fs.writeFileSync(file, 'hello');
function race(name, next) {
  setTimeout(() => {
    console.log(name, 'timeout');
    next();
  }, 0);
  setImmediate(() => console.log(name, 'immediate'));
  console.log(name, 'callback');
}
let fd;
const steps = [
  (next) => fs.stat(file, () => race('stat', next)),
  (next) => fs.open(file, 'r', (err, f) => { fd = f; race('open', next); }),
  (next) => fs.read(fd, Buffer.alloc(5), 0, 5, 0, () => race('read', next)),
  (next) => fs.close(fd, () => race('close', next)),
  (next) => fs.writeFile(file, 'world', () => race('writeFile', next)),
  (next) => fs.readFile(file, 'utf8', () => race('readFile', next)),
  (next) => fs.readdir(dir, () => race('readdir', next)),
  (next) => fs.promises.stat(file).then(() => race('promises.stat', next)),
  (next) => fs.createReadStream(file).once('data', () => race('stream data', next)),
];
let i = 0;
(function next() {
  if (i === steps.length) {
    setTimeout(() => fs.rmSync(dir, { recursive: true }), 10);
    return;
  }
  steps[i++](next);
})();
