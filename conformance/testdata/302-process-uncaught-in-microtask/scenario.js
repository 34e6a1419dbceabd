// A microtask that throws is reported at once (V8 reports it and goes on): the listener
// runs, then the rest of the microtasks, then the ticks, all before the next timeout.
process.on('uncaughtException', (err, origin) => {
  console.log('uncaughtException:', err.message, origin);
  process.nextTick(() => console.log('  tick from the listener'));
  queueMicrotask(() => console.log('  microtask from the listener'));
});
setTimeout(() => {
  console.log('timeout 1');
  queueMicrotask(() => { console.log('microtask 1'); throw new Error('microtask 1 threw'); });
  queueMicrotask(() => {
    console.log('microtask 2');
    process.nextTick(() => console.log('  tick from microtask 2'));
  });
  process.nextTick(() => console.log('tick from timeout 1'));
}, 0);
setTimeout(() => console.log('timeout 2'), 0);
const start = Date.now();
while (Date.now() - start < 3);
console.log('main end');
