// Turns taken by the combinators over settled and pending inputs.
const log = (...a) => console.log(a.join(' '));
function hops(tag, n) { let p = Promise.resolve(); for (let i = 1; i <= n; i++) p = p.then(() => log(tag, 'hop', i)); }
const r = (v) => Promise.resolve(v);
const e = (m) => { const p = Promise.reject(new Error(m)); p.catch(() => {}); return p; };
Promise.all([r(1), r(2), r(3)]).then((v) => log('all', v.join(',')));
Promise.all([r(1), e('a'), r(3)]).catch((x) => log('all rejected', x.message));
Promise.all([]).then((v) => log('all empty', v.length));
Promise.allSettled([r(1), e('b')]).then((v) => log('allSettled', v.map((s) => s.status).join(',')));
Promise.race([r(1), r(2)]).then((v) => log('race', v));
Promise.race([e('c'), r(2)]).catch((x) => log('race rejected', x.message));
Promise.any([e('d'), r(5)]).then((v) => log('any', v));
Promise.any([e('f'), e('g')]).catch((x) => log('any rejected', x.errors.length));
Promise.any([]).catch((x) => log('any empty', x.errors.length));
let resolveLater;
const later = new Promise((res) => { resolveLater = res; });
Promise.all([r(1), later]).then((v) => log('all later', v.join(',')));
Promise.race([later, new Promise(() => {})]).then((v) => log('race later', v));
Promise.resolve().then(() => Promise.resolve().then(() => { log('resolve later'); resolveLater(9); }));
hops('H', 6);
