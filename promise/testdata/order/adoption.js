// Turns taken by adoption: resolve with a native promise, with a thenable, a handler returning
// a native promise, await of native / thenable, async returning value / native, finally, catch.
const log = (...a) => console.log(a.join(' '));
function hops(tag, n) { let p = Promise.resolve(); for (let i = 1; i <= n; i++) p = p.then(() => log(tag, 'hop', i)); }
const th = { then(res) { res(1); } };
new Promise((res) => res(Promise.resolve(1))).then(() => log('adopt native'));
new Promise((res) => res(th)).then(() => log('adopt thenable'));
(async () => { await th; log('await thenable'); })();
(async () => { await Promise.resolve(1); log('await native'); })();
(async () => Promise.resolve(1))().then(() => log('async returns native'));
(async () => 1)().then(() => log('async returns value'));
Promise.resolve(1).then(() => Promise.resolve(2)).then(() => log('then returns native'));
Promise.resolve(1).finally(() => {}).then(() => log('finally'));
Promise.reject(new Error('x')).catch(() => {}).then(() => log('catch'));
Promise.reject(new Error('y')).finally(() => {}).catch(() => log('finally rejected'));
hops('H', 6);
log('sync end');
