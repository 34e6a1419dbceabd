// Records badinput.txt (run from an empty directory: node badinput.js > badinput.txt): bad
// arguments to the callback API and streams (what Node throws at the call), then bad input
// that fails in the system call (what the callbacks get, in order), then a timer: the loop
// runs on. For nodefs's TestBadInputAgainstNode.
const fs = require('fs');
const show = (v) => (v === undefined ? 'undefined' : JSON.stringify(v));
const line = (name, e) => console.log(name, e.code, show(e.errno), show(e.syscall), show(e.path), '|', e.message);
const t = (name, f) => {
  try {
    f();
    console.log(name, 'no throw');
  } catch (e) {
    line(name, e);
  }
};
fs.writeFileSync('f', '0123456789');
fs.mkdirSync('d');
const fd = fs.openSync('f', 'r');
const nop = () => {};
t('stat without cb', () => fs.stat('f'));
t('readFile without cb', () => fs.readFile('f'));
t('fstat fd -1', () => fs.fstat(-1, nop));
t('close fd 2**31', () => fs.close(2 ** 31, nop));
t('read length past the buffer', () => fs.read(fd, Buffer.alloc(4), 0, 8, 0, nop));
t('read offset past the buffer', () => fs.read(fd, Buffer.alloc(4), 5, 1, 0, nop));
t('read empty buffer', () => fs.read(fd, Buffer.alloc(0), 0, 4, 0, nop));
t('read negative offset', () => fs.read(fd, Buffer.alloc(4), -1, 4, 0, nop));
t('read position -2', () => fs.read(fd, Buffer.alloc(4), 0, 4, -2, nop));
t('read position 2**60', () => fs.read(fd, Buffer.alloc(4), 0, 4, 2 ** 60, nop));
t('write offset past the buffer', () => fs.write(fd, Buffer.alloc(4), 5, 1, 0, nop));
t('write length past the buffer', () => fs.write(fd, Buffer.alloc(4), 1, 4, 0, nop));
t('open bad flags', () => fs.open('f', 'zz', nop));
t('copyFile bad mode', () => fs.copyFile('f', 'g', 99, nop));
t('access bad mode', () => fs.access('f', 99, nop));
t('readFile bad encoding', () => fs.readFile('f', 'klingon', nop));
t('writeFile bad encoding', () => fs.writeFile('g', 'x', 'klingon', nop));
t('stat NUL', () => fs.stat('a\0', nop));
t('rename NUL', () => fs.rename('f', 'b\0', nop));
t('createReadStream start -1', () => fs.createReadStream('f', { start: -1 }));
t('createReadStream start > end', () => fs.createReadStream('f', { start: 5, end: 2 }));
t('createReadStream highWaterMark -1', () => fs.createReadStream('f', { highWaterMark: -1 }));
t('createReadStream bad encoding', () => fs.createReadStream('f', { encoding: 'klingon' }));
t('createWriteStream start -1', () => fs.createWriteStream('g', { start: -1 }));
t('setEncoding bad', () => { const s = fs.createReadStream('f'); try { s.setEncoding('klingon'); } finally { s.destroy(); } });
t('watch missing', () => fs.watch('nope'));
t('watch empty', () => fs.watch(''));
t('watchFile without listener', () => fs.watchFile('f'));
const steps = [
  ['stat empty path', (cb) => fs.stat('', cb)],
  ['read closed fd', (cb) => fs.read(99999, Buffer.alloc(4), 0, 4, 0, cb)],
  ['readFile a directory', (cb) => fs.readFile('d', cb)],
  ['writeFile a directory', (cb) => fs.writeFile('.', 'x', cb)],
  ['open through a file', (cb) => fs.open('f/x', 'r', cb)],
  ['mkdir through a file', (cb) => fs.mkdir('f/x', cb)],
  ['rmdir a file', (cb) => fs.rmdir('f', cb)],
  ['read zero length', (cb) => fs.read(fd, Buffer.alloc(4), 0, 0, 0, cb)],
  ['read position -1', (cb) => fs.read(fd, Buffer.alloc(4), 0, 4, -1, cb)],
  ['read past the end', (cb) => fs.read(fd, Buffer.alloc(4), 0, 4, 1000, cb)],
  ['write read-only fd', (cb) => fs.write(fd, Buffer.from('x'), 0, 1, 0, cb)],
];
let i = 0;
(function next() {
  if (i === steps.length) {
    fs.closeSync(fd);
    setTimeout(() => {
      console.log('loop still running');
      fs.rmSync('d', { recursive: true });
      fs.rmSync('f');
    }, 1);
    return;
  }
  const [name, step] = steps[i++];
  step((err, n) => {
    if (err) line(name, err);
    else console.log(name, 'ok', show(n));
    next();
  });
})();
