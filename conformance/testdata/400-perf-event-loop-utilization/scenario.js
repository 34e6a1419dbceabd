// 400: performance.eventLoopUtilization: all zero in the main script (the loop has not
// started), the three fields, the delta forms; no timing values are printed.
const { performance } = require('perf_hooks');

function busy(ms) {
  const s = performance.now();
  while (performance.now() - s < ms);
}

const e0 = performance.eventLoopUtilization();
console.log('main:', JSON.stringify(e0));
console.log('main, delta from itself:', JSON.stringify(performance.eventLoopUtilization(e0)));
setTimeout(() => {
  const e1 = performance.eventLoopUtilization();
  console.log('fields:', Object.keys(e1).join(', '));
  console.log('utilization in [0, 1]:', e1.utilization >= 0 && e1.utilization <= 1);
  busy(20);
  const d = performance.eventLoopUtilization(e1);
  console.log('delta over a 20 ms busy wait: idle 0:', d.idle === 0, 'active >= 20:', d.active >= 20,
    'utilization 1:', d.utilization === 1);
  const e2 = performance.eventLoopUtilization();
  const two = performance.eventLoopUtilization(e2, e1);
  console.log('two arguments are their difference:', two.idle === e2.idle - e1.idle && two.active === e2.active - e1.active);
  const same = performance.eventLoopUtilization(e1, e1);
  console.log('a result minus itself:', same.idle, same.active, same.utilization);
  setImmediate(() => {
    const e3 = performance.eventLoopUtilization();
    console.log('later: idle and active never shrink:', e3.idle >= e2.idle && e3.active >= e2.active);
  });
}, 5);
console.log('main end');
