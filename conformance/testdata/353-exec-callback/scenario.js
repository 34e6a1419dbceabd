// exec's callback: a command that succeeds gets a null error and its output; one that fails
// gets Node's "Command failed" error with the exit code, killed, signal and cmd, and both
// outputs.
const { exec } = require('child_process');
exec('echo ok', (err, stdout, stderr) => {
  console.log('first', err, JSON.stringify(stdout), JSON.stringify(stderr));
  exec('echo out; echo err >&2; exit 2', (err, stdout, stderr) => {
    console.log('second', JSON.stringify(err.message));
    console.log('fields', err.code, err.killed, err.signal, JSON.stringify(err.cmd));
    console.log('output', JSON.stringify(stdout), JSON.stringify(stderr));
  });
});
