// The combinators over inputs of which some had settled and some were pending when they were
// called: the settled ones react in the turn after the call, the pending ones in the turn
// after they settle. Pending inputs that reject later are handled by the combinator (no
// unhandled rejection ends the run).
const log = (...a) => console.log(a.join(' '));
function hops(tag, n) { let p = Promise.resolve(); for (let i = 1; i <= n; i++) p = p.then(() => log(tag, 'hop', i)); }
const r = (v) => Promise.resolve(v);
const e = (m) => { const p = Promise.reject(new Error(m)); p.catch(() => {}); return p; };
function pending() { let res, rej; const p = new Promise((a, b) => { res = a; rej = b; }); return { p, res, rej }; }
// after runs fn in the reaction n turns from now.
function after(n, fn) { let p = Promise.resolve(); for (let i = 1; i < n; i++) p = p.then(() => {}); p.then(fn); }

const a = pending(), b = pending(), c = pending(), d = pending(), f = pending(), g = pending(), h = pending();
Promise.resolve().then(() => log('queued before'));
Promise.all([r(1), a.p, r(3)]).then((v) => log('all mixed', v.join(',')));
Promise.all([r(1), e('x'), b.p]).then(() => log('all mixed fulfilled?'), (x) => log('all mixed rejected', x.message));
Promise.all([a.p, e('late'), r(2)]).catch((x) => log('all pending first rejected', x.message));
Promise.allSettled([e('y'), c.p, r(2)]).then((v) => log('allSettled mixed', v.map((s) => s.status).join(',')));
Promise.any([e('p'), d.p, e('q')]).then((v) => log('any mixed', v));
Promise.any([e('s'), r(5), f.p]).then((v) => log('any settled wins', v));
Promise.any([e('t'), g.p]).catch((x) => log('any mixed rejected', x.errors.map((y) => y.message).join(',')));
Promise.race([h.p, r(6)]).then((v) => log('race settled wins', v));
Promise.race([b.p, e('z')]).catch((x) => log('race rejected', x.message));
Promise.race([c.p, d.p]).then((v) => log('race pending', v));
Promise.resolve().then(() => log('queued after'));
after(2, () => { log('settle a, d, c'); a.res(2); d.res(4); c.rej(new Error('c')); });
after(3, () => { log('reject b, g, h'); b.rej(new Error('b')); g.rej(new Error('g')); h.rej(new Error('h')); f.res(7); });
hops('H', 7);
