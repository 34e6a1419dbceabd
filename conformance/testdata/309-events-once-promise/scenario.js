// events.once, as the documentation shows it: the value of an event emitted from a
// nextTick; a rejection for an 'error' while waiting for another event; once(ee, 'error')
// as an ordinary event; an AbortSignal cancelling the wait; and the edge case of two events
// emitted in one nextTick, where awaiting the second once() misses it (the function never
// finishes) unless both promises are made first. The turn counter shows when once()'s
// promise settles: two microtasks after the event.
const { EventEmitter, once } = require('events');

async function run() {
  const ee = new EventEmitter();
  process.nextTick(() => ee.emit('myevent', 42, 'x'));
  const [value, extra] = await once(ee, 'myevent');
  console.log('value', value, extra);
  const err = new Error('kaboom');
  process.nextTick(() => ee.emit('error', err));
  try {
    await once(ee, 'myevent');
  } catch (e) {
    console.log('error happened', e.message, 'listeners left', ee.listenerCount('myevent'), ee.listenerCount('error'));
  }
}

async function waitForError() {
  const ee = new EventEmitter();
  const p = once(ee, 'error').then(([e]) => console.log('ok', e.message));
  ee.emit('error', new Error('boom'));
  await p;
}

async function cancel() {
  const ee = new EventEmitter();
  const ac = new AbortController();
  const p = once(ee, 'foo', { signal: ac.signal });
  ac.abort();
  try {
    await p;
    console.log('event emitted!');
  } catch (error) {
    console.log(error.name === 'AbortError' ? 'Waiting for the event was canceled!' : 'other', error.code, 'listeners left', ee.listenerCount('foo'));
  }
}

async function missed() {
  const myEE = new EventEmitter();
  process.nextTick(() => { myEE.emit('bar'); myEE.emit('foo'); });
  await once(myEE, 'bar');
  console.log('bar');
  await once(myEE, 'foo'); // never: 'foo' was emitted before this once() was made
  console.log('foo (never)');
}

async function both() {
  const myEE = new EventEmitter();
  process.nextTick(() => { myEE.emit('bar'); myEE.emit('foo'); });
  await Promise.all([once(myEE, 'bar'), once(myEE, 'foo')]);
  console.log('foo', 'bar');
}

async function turns() {
  const ee = new EventEmitter();
  let turn = 0;
  const counter = () => { if (turn < 5) { turn++; queueMicrotask(counter); } };
  const p = once(ee, 'go').then(() => console.log('once settled at turn', turn));
  ee.emit('go');
  queueMicrotask(counter);
  await p;
}

run()
  .then(waitForError)
  .then(cancel)
  .then(() => { missed().then(() => console.log('done (never)')); })
  .then(both)
  .then(() => console.log('done'))
  .then(turns);
process.on('exit', () => console.log('exit'));
