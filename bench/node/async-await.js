// async-await: N awaits of an already-resolved promise in one async function; the Node twin
// of BenchmarkAsyncAwait in promise/bench_test.go. Prints one line:
// name=async-await n=<N> ns_per_op=<float> total_ns=<int>
'use strict';
const N = Number(process.argv[2] || 1000000);
async function body(n) {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += await Promise.resolve(1);
  return sum;
}
(async () => {
  await body(10000); // warm up
  const t0 = process.hrtime.bigint();
  const v = await body(N);
  const total = process.hrtime.bigint() - t0;
  if (v !== N) throw new Error('bad result ' + v);
  console.log(`name=async-await n=${N} ns_per_op=${(Number(total) / N).toFixed(2)} total_ns=${total}`);
})();
