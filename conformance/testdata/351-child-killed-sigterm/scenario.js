// A child killed with SIGTERM: kill() returns true, 'exit' and 'close' report a null code
// and the signal's name, killed is true, and a kill after the exit returns false.
const { spawn } = require('child_process');
const child = spawn('sleep', ['10']);
child.on('spawn', () => {
  console.log('spawn, kill returns', child.kill());
});
child.on('exit', (code, signal) => {
  console.log('exit', code, signal, 'killed', child.killed, 'signalCode', child.signalCode, 'exitCode', child.exitCode);
});
child.on('close', (code, signal) => {
  console.log('close', code, signal);
  console.log('kill after exit returns', child.kill('SIGKILL'));
});
