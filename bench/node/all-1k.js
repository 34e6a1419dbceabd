// all-1k: Promise.all over 1,000 already-resolved promises, repeated N times (each op is one
// Promise.all of 1,000 fresh promises, awaited); the Node twin of BenchmarkAll1k in
// promise/bench_test.go. Prints one line:
// name=all-1k n=<N> ns_per_op=<float> total_ns=<int>
'use strict';
const N = Number(process.argv[2] || 1000);
const K = 1000;
async function run(n) {
  for (let r = 0; r < n; r++) {
    const ps = new Array(K);
    for (let i = 0; i < K; i++) ps[i] = Promise.resolve(i);
    const vs = await Promise.all(ps);
    if (vs.length !== K) throw new Error('bad length');
  }
}
(async () => {
  await run(50); // warm up
  const t0 = process.hrtime.bigint();
  await run(N);
  const total = process.hrtime.bigint() - t0;
  console.log(`name=all-1k n=${N} ns_per_op=${(Number(total) / N).toFixed(2)} total_ns=${total}`);
})();
