// The leak warning: the 11th listener of one event raises a MaxListenersExceededWarning,
// once per event, delivered on a nextTick to process 'warning' listeners (after the
// default one that prints it to stderr), with the emitter, the event and the count;
// setMaxListeners(0) lifts the limit, and raising the limit around a once listener (the
// documentation's pattern) avoids the warning.
const { EventEmitter } = require('events');
process.on('warning', (w) => {
  console.log('warning:', w.name);
  console.log('  message:', w.message);
  console.log('  type:', w.type, 'count:', w.count, 'same emitter:', w.emitter === ee);
});
const ee = new EventEmitter();
for (let i = 0; i < 12; i++) ee.on('data', () => {});
console.log('12 data listeners added');
const other = new EventEmitter();
other.setMaxListeners(0);
for (let i = 0; i < 20; i++) other.on('data', () => {});
console.log('20 listeners on an unlimited emitter');
const tight = new EventEmitter();
for (let i = 0; i < 10; i++) tight.on('event', () => {});
tight.setMaxListeners(tight.getMaxListeners() + 1);
tight.once('event', () => {
  tight.setMaxListeners(Math.max(tight.getMaxListeners() - 1, 0));
  console.log('once ran; limit back to', tight.getMaxListeners());
});
tight.emit('event');
process.nextTick(() => console.log('tick queued after the warnings'));
console.log('main end');
