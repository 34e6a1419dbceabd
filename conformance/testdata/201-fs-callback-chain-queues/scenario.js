// A chain of fs calls, each callback queueing a nextTick, a promise reaction, an immediate
// and a 0 ms timeout: inside an fs callback (poll phase) the order is the callback's own
// code, ticks, microtasks, then the immediate (check phase) before the timeout (next
// timers phase). The next fs call starts from the timeout.
const fs = require('fs');
const os = require('os');
const path = require('path');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uvgo-201-'));
const file = path.join(dir, 'chain.txt');
function queues(name, next) {
  process.nextTick(() => console.log(name, 'nextTick'));
  Promise.resolve().then(() => console.log(name, 'promise'));
  setTimeout(() => { console.log(name, 'timeout 0'); if (next) next(); }, 0);
  setImmediate(() => console.log(name, 'immediate'));
  console.log(name, 'callback end');
}
fs.writeFile(file, 'hello chain', (err) => {
  console.log('writeFile', err);
  queues('writeFile', () => fs.stat(file, (err, st) => {
    console.log('stat', err, st.size, st.isFile());
    queues('stat', () => fs.readFile(file, 'utf8', (err, text) => {
      console.log('readFile', err, text);
      queues('readFile', () => fs.unlink(file, (err) => {
        console.log('unlink', err);
        queues('unlink', null);
        fs.rmdirSync(dir);
      }));
    }));
  }));
});
console.log('main end');
