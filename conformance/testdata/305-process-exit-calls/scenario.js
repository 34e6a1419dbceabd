// process.exit in a promise reaction: 'exit' comes at once, in the reaction; the
// microtasks already queued still run (the reaction's promise rejects), nothing after
// them. process.exit in the exit listener sets the status and ends it there.
process.on('exit', (code) => {
  console.log('exit', code, 'exitCode', process.exitCode);
  Promise.resolve().then(() => console.log('promise from exit (never)'));
  process.exit(4);
  console.log('after process.exit in exit (never)');
});
process.on('exit', () => console.log('second exit listener (never)'));
setTimeout(() => console.log('timeout (never)'), 0);
setImmediate(() => console.log('immediate (never)'));
process.nextTick(() => console.log('tick'));
Promise.resolve().then(() => {
  console.log('reaction 1');
  process.nextTick(() => console.log('tick from reaction 1 (never)'));
  process.exit(2);
});
Promise.resolve().then(() => console.log('reaction 2 (queued before the exit)'));
process.exitCode = 7;
console.log('main end');
