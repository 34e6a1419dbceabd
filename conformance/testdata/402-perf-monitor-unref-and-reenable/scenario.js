// 402: monitorEventLoopDelay's timer is unref'd: an enabled histogram alone does not keep the
// loop alive; a histogram disabled and enabled again keeps its samples until reset; no timing
// values are printed.
const { monitorEventLoopDelay } = require('perf_hooks');

const idle = monitorEventLoopDelay({ resolution: 1 });
idle.enable();
const h = monitorEventLoopDelay({ resolution: 5 });
h.enable();
setTimeout(() => {
  console.log('disable:', h.disable());
  const c = h.count; // how many depends on timing: never printed
  console.log('enable again:', h.enable());
  setTimeout(() => {
    h.disable();
    console.log('the samples are kept:', h.count >= c);
    h.reset();
    console.log('reset: count', h.count);
  }, 30);
}, 50);
process.on('exit', () => {
  console.log('exit: the enabled monitor did not keep the loop alive:', idle.enable() === false);
  idle.disable();
});
console.log('main end');
