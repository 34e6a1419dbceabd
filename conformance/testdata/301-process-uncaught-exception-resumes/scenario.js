// An 'uncaughtException' listener lets the process go on, where Node goes on: a throwing
// tick leaves the next tick queued until a later callback; a throwing timeout is followed
// by the rest of its due timeouts before the queues drain; a throwing immediate by the rest
// of its batch; an unhandled rejection with no 'unhandledRejection' listener arrives with
// origin 'unhandledRejection'. exitCode stays unset and the status is 0.
process.on('uncaughtException', (err, origin) => {
  console.log('uncaughtException:', err.message, origin, 'exitCode', process.exitCode);
  process.nextTick(() => console.log('  tick from the listener (' + err.message + ')'));
});
process.on('exit', (code) => console.log('exit', code));
const start = Date.now();
setTimeout(() => {
  console.log('timeout 1');
  process.nextTick(() => console.log('  tick from timeout 1'));
  Promise.resolve().then(() => console.log('  promise from timeout 1'));
  throw new Error('timeout 1 threw');
}, 1);
setTimeout(() => console.log('timeout 2 (same list)'), 1);
setTimeout(() => console.log('timeout 3 (2 ms list)'), 2);
setImmediate(() => { console.log('immediate 1'); throw new Error('immediate 1 threw'); });
setImmediate(() => console.log('immediate 2'));
process.nextTick(() => { console.log('tick 1'); throw new Error('tick 1 threw'); });
process.nextTick(() => console.log('tick 2'));
Promise.reject(new Error('rejected in main'));
while (Date.now() - start < 5); // all three timeouts are due when the loop starts
console.log('main end');
