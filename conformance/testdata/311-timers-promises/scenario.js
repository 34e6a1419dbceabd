// timers/promises: setTimeout and setImmediate promises settle from the timers and check
// phases, in the same lists and queues as the callback forms, and their reactions run
// right after the callback that settled them; an aborted signal rejects at once or
// cancels; ref: false does not keep the loop alive; setInterval is an async iterator that
// a break clears.
const tp = require('timers/promises');

async function order() {
  setTimeout(() => console.log('callback timeout 1 ms (set first)'), 1);
  const a = tp.setTimeout(1, 'promise timeout 1 ms').then((v) => console.log(v));
  setTimeout(() => console.log('callback timeout 1 ms (set last)'), 1);
  const b = tp.setImmediate('promise immediate').then((v) => console.log(v));
  setImmediate(() => console.log('callback immediate'));
  process.nextTick(() => console.log('tick'));
  const start = Date.now();
  while (Date.now() - start < 3); // the 1 ms timeouts are due when the loop starts
  await Promise.all([a, b]);
  console.log('both settled');
}

async function aborts() {
  const ac = new AbortController();
  const p = tp.setTimeout(50, 'never', { signal: ac.signal });
  setTimeout(() => ac.abort(), 1);
  try {
    await p;
  } catch (err) {
    console.log('timeout aborted:', err.name, err.code, err.cause.name);
  }
  try {
    await tp.setImmediate('never', { signal: AbortSignal.abort('why not') });
  } catch (err) {
    console.log('already aborted:', err.name, err.cause);
  }
}

async function interval() {
  let n = 0;
  const start = Date.now();
  for await (const v of tp.setInterval(5, 'tick value')) {
    n++;
    console.log('interval', n, v, Date.now() - start >= 5 * n - 1);
    if (n === 3) break;
  }
  console.log('interval done');
}

async function unrefd() {
  tp.setTimeout(1000, 'never', { ref: false }).then(() => console.log('unref timeout (never)'));
  await tp.setTimeout(2);
  console.log('ref timeout');
}

order().then(aborts).then(interval).then(unrefd).then(() => console.log('done'));
process.on('exit', () => console.log('exit'));
