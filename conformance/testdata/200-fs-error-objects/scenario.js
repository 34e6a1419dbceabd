// The error objects of failed fs calls: code, errno, syscall, path, dest and message, as
// Node v20 builds them (uvException). Paths are relative to a fresh temporary directory.
const fs = require('fs');
const os = require('os');
const path = require('path');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uvgo-200-'));
const p = (name) => path.join(dir, name);
const rel = (s) => (s === undefined ? 'undefined' : s.split(dir + path.sep).join(''));
fs.writeFileSync(p('file'), 'x');
fs.mkdirSync(p('full'));
fs.writeFileSync(p('full/inner'), 'y');
function show(err) {
  if (!err) return console.log('no error');
  console.log(err.code, err.errno, err.syscall, rel(err.path), rel(err.dest), '|', rel(err.message));
}
const steps = [
  (cb) => fs.open(p('missing.txt'), 'r', cb), // ENOENT
  (cb) => fs.mkdir(p('full'), cb), // EEXIST
  (cb) => fs.readFile(p('full'), cb), // EISDIR (from read)
  (cb) => fs.readdir(p('file'), cb), // ENOTDIR
  (cb) => fs.rmdir(p('full'), cb), // ENOTEMPTY
  (cb) => fs.fstat(987654, cb), // EBADF
  (cb) => fs.rename(p('a'), p('b'), cb), // ENOENT with dest
  (cb) => fs.copyFile(p('file'), p('full/inner'), fs.constants.COPYFILE_EXCL, cb), // EEXIST with dest
  (cb) => fs.unlink(p('full'), cb), // EISDIR
  (cb) => fs.rm(p('full'), cb), // ERR_FS_EISDIR
];
let i = 0;
(function next() {
  if (i === steps.length) {
    fs.rmSync(dir, { recursive: true });
    return console.log('done');
  }
  steps[i++]((err) => { show(err); next(); });
})();
