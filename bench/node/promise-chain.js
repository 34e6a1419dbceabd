// promise-chain: N thens on one chain, starting from a resolved promise; the Node twin of
// BenchmarkPromiseChain in promise/bench_test.go. Prints one line:
// name=promise-chain n=<N> ns_per_op=<float> total_ns=<int>
'use strict';
const N = Number(process.argv[2] || 1000000);
const inc = (v) => v + 1;
function run(n) {
  return new Promise((done) => {
    let p = Promise.resolve(0);
    for (let i = 0; i < n; i++) p = p.then(inc);
    p.then(done);
  });
}
(async () => {
  await run(10000); // warm up
  const t0 = process.hrtime.bigint();
  const v = await run(N);
  const total = process.hrtime.bigint() - t0;
  if (v !== N) throw new Error('bad result ' + v);
  console.log(`name=promise-chain n=${N} ns_per_op=${(Number(total) / N).toFixed(2)} total_ns=${total}`);
})();
