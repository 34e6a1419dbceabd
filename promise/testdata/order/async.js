// Async bodies: synchronous up to the first await, nested async calls, await of a pending
// promise, rejection through await, and interleaving with then chains and nextTick/timers.
const log = (...a) => console.log(a.join(' '));
function hops(tag, n) { let p = Promise.resolve(); for (let i = 1; i <= n; i++) p = p.then(() => log(tag, 'hop', i)); }
async function inner(name) {
  log(name, 'inner start');
  await null;
  log(name, 'inner after await');
  return name + '!';
}
async function outer() {
  log('outer start');
  const v = await inner('a');
  log('outer got', v);
  try {
    await Promise.reject(new Error('boom'));
  } catch (e) {
    log('outer caught', e.message);
  }
  let res;
  const pending = new Promise((r) => { res = r; });
  setTimeout(() => { log('timer resolves'); res(7); process.nextTick(() => log('tick after resolve')); }, 0);
  const w = await pending;
  log('outer got pending', w);
  return w * 2;
}
outer().then((v) => log('outer result', v));
hops('H', 5);
log('sync end');
