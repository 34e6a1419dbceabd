// 401: perf_hooks.monitorEventLoopDelay: the empty histogram's values, the range errors,
// enable/disable return values, what a 25 ms busy callback does to the samples, the
// percentiles' keys, reset; no timing values are printed.
const { performance, monitorEventLoopDelay } = require('perf_hooks');

function busy(ms) {
  const s = performance.now();
  while (performance.now() - s < ms);
}

const h = monitorEventLoopDelay({ resolution: 10 });
console.log('empty: count', h.count, 'min is the int64 maximum', h.min === 9223372036854775807, 'max', h.max,
  'mean', h.mean, 'stddev', h.stddev, 'exceeds', h.exceeds, 'percentiles', JSON.stringify([...h.percentiles]));
for (const f of [() => monitorEventLoopDelay({ resolution: -1 }), () => h.percentile(0), () => h.percentile(101)]) {
  try {
    f();
  } catch (e) {
    console.log(e.code, e.message);
  }
}
console.log('enable:', h.enable(), h.enable());
setTimeout(() => busy(25), 50);
setTimeout(() => {
  console.log('disable:', h.disable(), h.disable());
  console.log('sampled:', h.count > 0, 'max >= 25 ms:', h.max >= 25e6, 'min <= mean <= max:', h.min <= h.mean && h.mean <= h.max,
    'percentile(100) is max:', h.percentile(100) === h.max, 'exceeds', h.exceeds);
  const ks = [...h.percentiles.keys()];
  console.log('percentiles from', ks[0], 'to', ks[ks.length - 1], 'ascending:', ks.every((k, i) => i === 0 || k > ks[i - 1]));
  h.reset();
  console.log('reset: count', h.count, 'max', h.max, 'min is the int64 maximum', h.min === 9223372036854775807, 'mean', h.mean);
}, 100);
console.log('main end');
