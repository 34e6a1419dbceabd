// The EventEmitter examples of Node's events documentation, retold: listeners run
// synchronously in order with the emitted arguments; once; 'error' with a listener and
// with a monitor; 'newListener' inserting in front; prepending; removal during an emit
// (the emit in progress keeps its snapshot); the most recent duplicate removed first;
// rawListeners and calling a once wrapper; listener counts, names and limits.
const { EventEmitter, errorMonitor } = require('events');

const e1 = new EventEmitter();
e1.on('event', () => console.log('an event occurred!'));
e1.on('event', (a, b) => console.log('arguments', a, b));
e1.on('event', (a, b) => setImmediate(() => console.log('this happens asynchronously', a)));
console.log('emit returned', e1.emit('event', 'a', 'b'), 'and', e1.emit('nothing'));

const e2 = new EventEmitter();
let m = 0, k = 0;
e2.on('every', () => console.log('on:', ++m));
e2.once('first', () => console.log('once:', ++k));
e2.emit('every'); e2.emit('every'); e2.emit('first'); e2.emit('first');

const e3 = new EventEmitter();
e3.on(errorMonitor, (err) => console.log('monitor saw', err.message));
e3.on('error', (err) => console.log('whoops! there was an error:', err.message));
e3.emit('error', new Error('whoops!'));
try {
  new EventEmitter().emit('error', new Error('nobody listens'));
} catch (err) {
  console.log('emit threw', err.message);
}

const e4 = new EventEmitter();
e4.once('newListener', (event) => {
  if (event === 'event') e4.on('event', () => console.log('B'));
});
e4.on('event', () => console.log('A'));
e4.prependListener('event', () => console.log('prepended C'));
e4.emit('event');

const e5 = new EventEmitter();
const callbackB = () => console.log('callback B');
const callbackA = () => {
  console.log('callback A');
  e5.removeListener('event', callbackB);
};
e5.on('event', callbackA);
e5.on('event', callbackB);
e5.emit('event');
e5.emit('event');

const e6 = new EventEmitter();
const pong = () => console.log('pong');
e6.on('ping', pong);
e6.once('ping', pong);
e6.removeListener('ping', pong);
e6.emit('ping');
e6.emit('ping');
console.log('ping listeners', e6.listenerCount('ping'), 'of pong', e6.listenerCount('ping', pong));

const e7 = new EventEmitter();
e7.once('log', () => console.log('log once'));
const wrapper = e7.rawListeners('log')[0];
wrapper.listener();
console.log('after calling the listener itself', e7.listenerCount('log'));
wrapper();
console.log('after calling the wrapper', e7.listenerCount('log'));
e7.on('log', () => console.log('log persistently'));
e7.rawListeners('log')[0]();
e7.emit('log');

const e8 = new EventEmitter();
e8.on('foo', () => {});
e8.on('bar', () => {});
e8.on(errorMonitor, () => {});
console.log('event names', e8.eventNames());
console.log('max listeners', e8.getMaxListeners());
e8.setMaxListeners(e8.getMaxListeners() + 1);
console.log('max listeners', e8.getMaxListeners());
console.log('main end');
