// process.nextTick interleaved with then chains, queueMicrotask and await: every tick queued
// so far runs before the next microtask of the same drain, and a tick queued by a microtask
// waits until the microtask queue is empty; then the drain goes round again.
const log = (...a) => console.log(a.join(' '));
function hops(tag, n) { let p = Promise.resolve(); for (let i = 1; i <= n; i++) p = p.then(() => log(tag, 'hop', i)); }
Promise.resolve().then(() => { log('then 1'); process.nextTick(() => log('tick from then 1')); }).then(() => log('then 2'));
process.nextTick(() => {
  log('tick 1');
  Promise.resolve().then(() => log('then from tick 1'));
  process.nextTick(() => log('tick from tick 1'));
});
queueMicrotask(() => { log('microtask'); queueMicrotask(() => log('microtask from microtask')); });
process.nextTick(() => log('tick 2'));
(async () => {
  log('async start');
  await null;
  log('async after await');
  process.nextTick(() => { log('tick from async'); Promise.resolve().then(() => log('then from tick from async')); });
  await null;
  log('async after await 2');
})();
setTimeout(() => {
  log('timeout');
  process.nextTick(() => log('tick from timeout'));
  Promise.resolve().then(() => { log('then from timeout'); process.nextTick(() => log('tick from then from timeout')); });
  setImmediate(() => {
    log('immediate');
    Promise.resolve().then(() => log('then from immediate'));
    process.nextTick(() => log('tick from immediate'));
  });
  setTimeout(() => log('timeout 2'), 0);
}, 0);
hops('H', 4);
log('sync end');
