// events.on as an async iterator (the documentation's examples): events emitted in one
// nextTick are handed out one per iteration, in order; an AbortSignal aborted later ends
// the loop with an AbortError; an 'error' event ends it with the error; the close option
// ends it quietly; leaving the loop removes the listeners.
const { on, EventEmitter } = require('events');

async function plain() {
  const ee = new EventEmitter();
  process.nextTick(() => {
    ee.emit('foo', 'bar');
    ee.emit('foo', 42);
    ee.emit('foo', 'last', true);
  });
  for await (const event of on(ee, 'foo')) {
    console.log('event', event);
    if (event[0] === 'last') break;
  }
  console.log('after break, listeners', ee.listenerCount('foo'), ee.listenerCount('error'));
}

async function aborted() {
  const ac = new AbortController();
  const ee = new EventEmitter();
  process.nextTick(() => {
    ee.emit('foo', 'bar');
    ee.emit('foo', 42);
  });
  setTimeout(() => ac.abort(), 1);
  try {
    for await (const event of on(ee, 'foo', { signal: ac.signal })) console.log('event', event);
  } catch (err) {
    console.log('loop ended:', err.name, err.code, 'listeners', ee.listenerCount('foo'));
  }
}

async function errored() {
  const ee = new EventEmitter();
  setImmediate(() => {
    ee.emit('foo', 1);
    ee.emit('error', new Error('broken'));
    ee.emit('foo', 2);
  });
  try {
    for await (const event of on(ee, 'foo')) console.log('event', event);
  } catch (err) {
    console.log('loop ended:', err.message, 'listeners', ee.listenerCount('foo'));
  }
}

async function closed() {
  const ee = new EventEmitter();
  setImmediate(() => {
    ee.emit('foo', 'a');
    ee.emit('end');
    ee.emit('foo', 'b');
  });
  for await (const event of on(ee, 'foo', { close: ['end'] })) console.log('event', event);
  console.log('closed, listeners', ee.listenerCount('foo'), ee.listenerCount('end'));
}

plain().then(aborted).then(errored).then(closed).then(() => console.log('done'));
