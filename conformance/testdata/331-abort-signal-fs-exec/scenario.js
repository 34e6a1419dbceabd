// The signal option of fs.readFile and child_process.exec: a signal aborted already fails
// readFile's callback synchronously; one aborted after the call fails it once the file is
// closed (after a tick and an immediate queued with it). exec aborted once the child runs:
// the callback gets the AbortError itself (name, code, message, cause) and no output,
// before the child's 'exit' with SIGTERM and 'close'.
const fs = require('fs');
const { exec } = require('child_process');
const show = (e) => [e.name, e.code, e.message, e.cause.message].join(' | ');

fs.readFile(__filename, { signal: AbortSignal.abort() }, (err) => console.log('pre-aborted readFile:', show(err)));
console.log('after readFile');
process.nextTick(() => console.log('tick'));

setTimeout(() => {
  const ac = new AbortController();
  fs.readFile(__filename, { signal: ac.signal }, (err, data) => {
    console.log('readFile:', show(err), data);
    const ac2 = new AbortController();
    const child = exec('sleep 10', { signal: ac2.signal }, (err, stdout, stderr) => {
      console.log('exec callback:', show(err), JSON.stringify(stdout), JSON.stringify(stderr));
    });
    child.on('spawn', () => {
      ac2.abort(new Error('stop'));
      console.log('aborted, killed', child.killed);
    });
    child.on('exit', (code, signal) => console.log('exit', code, signal));
    child.on('close', (code, signal) => console.log('close', code, signal));
  });
  ac.abort(new Error('changed my mind'));
  process.nextTick(() => console.log('tick after abort'));
  setImmediate(() => console.log('immediate after abort'));
}, 1);
