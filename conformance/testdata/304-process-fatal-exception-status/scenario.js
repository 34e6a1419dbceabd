// An uncaught exception with no listener: the monitor sees it, 'exit' comes with 1 (and
// exitCode 1), no 'beforeExit', nothing else runs; an exit listener sets the status to 9.
process.on('uncaughtExceptionMonitor', (err, origin) => console.log('monitor:', err.message, origin));
process.on('beforeExit', () => console.log('beforeExit (never)'));
process.on('exit', (code) => {
  console.log('exit', code, 'exitCode', process.exitCode);
  Promise.resolve().then(() => console.log('promise from exit (never: the process is dying)'));
  process.exitCode = 9;
});
setTimeout(() => {
  console.log('timeout');
  process.nextTick(() => console.log('tick (never)'));
  throw new Error('nobody catches this');
}, 1);
setTimeout(() => console.log('second timeout (never)'), 1);
console.log('main end');
