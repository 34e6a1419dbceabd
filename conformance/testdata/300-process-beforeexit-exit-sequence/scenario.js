// The exit sequence: 'beforeExit' (with process.exitCode) comes when the loop has nothing
// left; what its listener schedules runs (its tick before its timeout), then 'beforeExit'
// comes again; when it schedules nothing, 'exit' comes with the exit code: a tick queued
// there never runs, a promise reaction does, and an exit listener may still change the
// status (printed by the last listener, which sets it back to 0 for the recording).
let round = 0;
process.on('beforeExit', (code) => {
  round++;
  console.log('beforeExit', round, 'code', code, 'exitCode', process.exitCode);
  if (round === 1) {
    setTimeout(() => console.log('timeout from beforeExit'), 1);
    process.nextTick(() => console.log('tick from beforeExit'));
    Promise.resolve().then(() => console.log('promise from beforeExit'));
  } else if (round === 2) {
    setImmediate(() => console.log('immediate from the second beforeExit'));
  }
});
process.on('exit', (code) => {
  console.log('exit', code, 'exitCode', process.exitCode);
  process.nextTick(() => console.log('tick from exit (never runs)'));
  setTimeout(() => console.log('timeout from exit (never runs)'), 0);
  Promise.resolve().then(() => console.log('promise from exit'));
  process.exitCode = 0;
});
process.on('exit', (code) => console.log('second exit listener', code, 'exitCode', process.exitCode));
setTimeout(() => console.log('timeout from main'), 1);
process.exitCode = 3;
console.log('main end');
