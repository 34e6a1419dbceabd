// An immediate queued by an immediate waits for the next loop iteration, and a
// timeout that became due in between runs first (the timers phase sits between
// two check phases). Immediate 1 busy-waits 30 ms, so its 10 ms timeout is due
// when the check phase ends.
function busyWait(ms) { const end = Date.now() + ms; while (Date.now() < end) {} }

setImmediate(() => {
  console.log('immediate 1');
  setTimeout(() => console.log('timeout 10 ms (set by immediate 1)'), 10);
  setImmediate(() => {
    console.log('immediate 3 (queued by immediate 1)');
    setImmediate(() => console.log('immediate 4 (queued by immediate 3)'));
  });
  busyWait(30);
});
setImmediate(() => console.log('immediate 2'));
console.log('main end');
