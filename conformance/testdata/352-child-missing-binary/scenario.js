// A missing binary: no pid, 'error' (ENOENT with errno, code, syscall, path, spawnargs)
// from a tick, then 'close' with -2 once the stdio streams have closed, before stdout's own
// 'close'; never 'spawn' or 'exit'.
const { spawn } = require('child_process');
const child = spawn('no-such-binary-uvgo', ['a', 'b']);
console.log('pid', child.pid);
child.on('error', (err) => {
  console.log('error', err.message);
  console.log('fields', err.errno, err.code, err.syscall, err.path, JSON.stringify(err.spawnargs));
  process.nextTick(() => console.log('tick after error'));
  setImmediate(() => console.log('immediate after error'));
});
child.on('spawn', () => console.log('spawn (unexpected)'));
child.on('exit', () => console.log('exit (unexpected)'));
child.on('close', (code, signal) => console.log('close', code, signal));
child.stdout.on('close', () => console.log('stdout close'));
