// 'unhandledRejection' gets the reason and the promise after the microtasks of the main
// script; a handler added later makes 'rejectionHandled' come after that handler's
// reaction. A second rejection handled late with no 'rejectionHandled' listener left is a
// PromiseRejectionHandledWarning, which the 'warning' event sees on a nextTick.
let n = 0;
const handledLate = [];
process.on('unhandledRejection', (reason, p) => {
  n++;
  console.log('unhandledRejection', n, reason.message, p instanceof Promise);
  handledLate.push(p);
});
const onHandled = (p) => {
  console.log('rejectionHandled', handledLate.indexOf(p) + 1);
  process.removeListener('rejectionHandled', onHandled);
};
process.on('rejectionHandled', onHandled);
process.on('warning', (w) => console.log('warning:', w.name, w.message));
Promise.reject(new Error('first'));
Promise.reject(new Error('second'));
Promise.resolve().then(() => console.log('main microtask'));
setTimeout(() => {
  console.log('timeout: handle the first');
  handledLate[0].catch((err) => console.log('caught', err.message));
  process.nextTick(() => console.log('tick from the timeout'));
}, 1);
setTimeout(() => {
  console.log('timeout: handle the second');
  handledLate[1].catch((err) => console.log('caught', err.message));
}, 5);
process.on('exit', (code) => console.log('exit', code));
console.log('main end');
