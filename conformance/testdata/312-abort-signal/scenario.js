// AbortController and AbortSignal: abort() sets aborted and reason, then runs the 'abort'
// listeners synchronously, once (a second abort does nothing); the default reason is an
// AbortError DOMException; AbortSignal.abort() is aborted already; AbortSignal.timeout
// aborts with a TimeoutError from the timers phase but does not keep the loop alive;
// AbortSignal.any follows the first of its signals.
const ac = new AbortController();
ac.signal.addEventListener('abort', () => console.log('abort listener 1, aborted', ac.signal.aborted));
ac.signal.addEventListener('abort', () => {
  console.log('abort listener 2');
  process.nextTick(() => console.log('tick from an abort listener'));
});
console.log('before abort', ac.signal.aborted, ac.signal.reason);
ac.abort();
ac.abort(new Error('second reason ignored'));
console.log('after abort', ac.signal.aborted, ac.signal.reason.name, ac.signal.reason.message, ac.signal.reason.code);

const mine = new AbortController();
mine.abort(new Error('my reason'));
console.log('custom reason', mine.signal.reason.message);
const pre = AbortSignal.abort();
console.log('AbortSignal.abort()', pre.aborted, pre.reason.name);
try { pre.throwIfAborted(); } catch (err) { console.log('throwIfAborted threw', err.name); }

// (The 1 ms timer is set first, so that it is due first however long this script takes.)
const a = new AbortController();
const b = new AbortController();
const any = AbortSignal.any([a.signal, b.signal]);
any.addEventListener('abort', () => console.log('any aborted with', any.reason.message));
setTimeout(() => { b.abort(new Error('b went first')); a.abort(new Error('a went second')); }, 1);

const t = AbortSignal.timeout(5);
t.addEventListener('abort', () => console.log('timeout signal:', t.reason.name, t.reason.message, t.reason.code));
const keep = setTimeout(() => console.log('a 20 ms timeout keeps the loop alive'), 20);

const unrefOnly = AbortSignal.timeout(100000);
unrefOnly.addEventListener('abort', () => console.log('never: the timeout signal is unref\'d'));
console.log('main end');
