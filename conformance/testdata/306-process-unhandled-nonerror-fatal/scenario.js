// An unhandled rejection with a reason that is not an Error and no listener of
// 'unhandledRejection': it becomes an uncaught exception (ERR_UNHANDLED_REJECTION, origin
// 'unhandledRejection'), which the monitor sees; with no 'uncaughtException' listener the
// process exits with 1.
process.on('uncaughtExceptionMonitor', (err, origin) => {
  console.log('monitor:', err.code, origin);
  console.log(err.message);
});
process.on('exit', (code) => console.log('exit', code, 'exitCode', process.exitCode));
setTimeout(() => console.log('timeout (never)'), 0);
Promise.reject(42);
Promise.resolve().then(() => console.log('microtask before the checkpoint'));
console.log('main end');
