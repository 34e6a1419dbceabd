// Finally whose callback returns a promise that is still pending: the derived promise waits
// for it, keeps the original outcome when it fulfills, takes its reason when it rejects.
const log = (...a) => console.log(a.join(' '));
function hops(tag, n) { let p = Promise.resolve(); for (let i = 1; i <= n; i++) p = p.then(() => log(tag, 'hop', i)); }
// after runs fn in the reaction n turns from now.
function after(n, fn) { let p = Promise.resolve(); for (let i = 1; i < n; i++) p = p.then(() => {}); p.then(fn); }
let resolveGate, rejectGate, resolveTimer;
const gate = new Promise((res) => { resolveGate = res; });
const bad = new Promise((_, rej) => { rejectGate = rej; });
const timed = new Promise((res) => { resolveTimer = res; });
Promise.resolve(1).finally(() => { log('finally 1 runs'); return gate; }).then((v) => log('after finally 1', v));
Promise.reject(new Error('x')).finally(() => { log('finally 2 runs'); return gate; }).catch((e) => log('after finally 2', e.message));
Promise.resolve(3).finally(() => { log('finally 3 runs'); return bad; }).then((v) => log('after finally 3 fulfilled', v), (e) => log('after finally 3', e.message));
Promise.reject(new Error('z')).finally(() => bad).catch((e) => log('after finally 4', e.message));
Promise.resolve(5).finally(() => { log('finally 5 runs'); return timed; }).then((v) => log('after finally 5', v));
Promise.resolve(6).finally(() => gate).finally(() => { log('finally 6b runs'); return gate; }).then((v) => log('after finally 6', v));
setTimeout(() => { log('timer resolves'); resolveTimer('ignored'); }, 0);
after(2, () => { log('resolve gate'); resolveGate('ignored'); });
after(3, () => { log('reject bad'); rejectGate(new Error('y')); });
hops('H', 9);
log('sync end');
