// A child writes a line and exits: 'spawn' from a tick, 'exit' with code 0, and 'close'
// only after both 'exit' and the end of stdout, with everything the child wrote.
const { spawn } = require('child_process');
const child = spawn('sh', ['-c', 'echo hello; exit 0']);
let out = '';
let exited = false;
let ended = false;
child.on('spawn', () => console.log('spawn'));
child.stdout.setEncoding('utf8');
child.stdout.on('data', (d) => { out += d; });
child.stdout.on('end', () => { ended = true; });
child.on('exit', (code, signal) => {
  exited = true;
  console.log('exit', code, signal);
});
child.on('close', (code, signal) => {
  console.log('close', code, signal, 'after exit:', exited, 'after stdout end:', ended);
  console.log('stdout', JSON.stringify(out));
});
console.log('spawned');
