// util.promisify settles in the callback's own call; util.callbackify calls back from a
// nextTick queued by the reaction, after the microtasks already queued.
const util = require('util');

function double(x, cb) { if (x < 0) cb(new Error('negative')); else cb(null, x * 2); }
function incLater(x, cb) { setImmediate(() => cb(null, x + 1)); }
const doubleP = util.promisify(double);
const incLaterP = util.promisify(incLater);

Promise.resolve().then(() => console.log('microtask 1')).then(() => console.log('microtask 2'));
doubleP(2).then((v) => console.log('promisify sync', v));
doubleP(-1).catch((e) => console.log('promisify error', e.message));
incLaterP(5).then((v) => console.log('promisify immediate', v));
setImmediate(() => console.log('immediate'));

const triple = util.callbackify(async (x) => x * 3);
triple(4, (err, v) => {
  console.log('callbackify', err, v);
  Promise.resolve().then(() => console.log('microtask from callback'));
  process.nextTick(() => console.log('nextTick from callback'));
});
const boom = util.callbackify(async () => { throw new Error('boom'); });
boom((err) => console.log('callbackify error', err.message));
process.nextTick(() => console.log('nextTick'));
console.log('main end');
