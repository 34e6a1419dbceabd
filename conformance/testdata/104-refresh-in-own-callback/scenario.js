// Timeout.refresh() inside its own callback schedules the timeout again, counting
// from now with its original delay, and keeps the loop alive for it. The 30 ms
// timeout runs between the first run (20 ms) and the second (40 ms or later).
let runs = 0;
const t = setTimeout(() => {
  runs++;
  console.log('t run', runs, 'hasRef', t.hasRef());
  if (runs < 3) t.refresh();
}, 20);
setTimeout(() => console.log('30 ms timeout'), 30);
console.log('main end');
