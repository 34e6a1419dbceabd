// A timeout clears an interval: the interval ran once in this timers phase and
// was re-armed, but never runs again, and the cleared interval does not keep the
// loop alive. A second interval is cleared, before its first run, by a timeout
// ahead of it in the same 20 ms list. Main busy-waits 30 ms so that the 5, 6 and
// 20 ms timers are all due when the loop starts.
function busyWait(ms) { const end = Date.now() + ms; while (Date.now() < end) {} }

let runs = 0;
let runs2 = 0;
const iv = setInterval(() => {
  runs++;
  console.log('interval run', runs);
}, 5);
setTimeout(() => {
  clearInterval(iv);
  console.log('6 ms timeout clears the interval');
}, 6);
setTimeout(() => {
  clearInterval(iv2);
  console.log('20 ms timeout clears the second interval');
}, 20);
const iv2 = setInterval(() => { runs2++; }, 20);
setTimeout(() => {
  console.log('40 ms timeout: interval runs =', runs, ', second interval runs =', runs2);
}, 40);
busyWait(30);
console.log('main end');
