// Ticks and microtasks queued by a timeout callback run right after it: before
// the next timeout of the same list and before the next list. A timeout set from
// a timeout callback never runs in the same timers phase, even when it is due by
// then. Main busy-waits 20 ms so that the 5 ms and 10 ms timeouts are all due
// when the loop starts.
function busyWait(ms) { const end = Date.now() + ms; while (Date.now() < end) {} }

setTimeout(() => {
  console.log('a (5 ms list)');
  process.nextTick(() => console.log('  tick from a'));
  queueMicrotask(() => console.log('  microtask from a'));
  setTimeout(() => console.log('e (1 ms, set by a)'), 1);
  busyWait(5); // e is due before the phase ends, and still waits for the next one
}, 5);
setTimeout(() => {
  console.log('b (5 ms list)');
  queueMicrotask(() => console.log('  microtask from b'));
  process.nextTick(() => {
    console.log('  tick from b');
    process.nextTick(() => console.log('  tick from the tick from b'));
  });
}, 5);
setTimeout(() => console.log('c (10 ms list)'), 10);
busyWait(20);
console.log('main end');
