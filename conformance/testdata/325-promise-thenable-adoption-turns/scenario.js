// How many microtask turns each way of resolving takes, against a reference chain that
// prints one line per turn.
let p = Promise.resolve();
for (let i = 1; i <= 6; i++) p = p.then(() => console.log('turn', i));

new Promise((resolve) => resolve(1)).then((v) => console.log('executor value', v));
new Promise((resolve) => resolve(Promise.resolve(2))).then((v) => console.log('executor native promise', v));
new Promise((resolve) => resolve({ then(res) { res(3); } })).then((v) => console.log('executor thenable', v));
new Promise((resolve) => resolve({ then(res) { Promise.resolve().then(() => res(4)); } })).then((v) => console.log('executor late thenable', v));
Promise.resolve(5).then((v) => v).then((v) => console.log('handler value', v));
Promise.resolve(6).then((v) => Promise.resolve(v)).then((v) => console.log('handler native promise', v));
Promise.resolve(7).then((v) => ({ then(res) { res(v); } })).then((v) => console.log('handler thenable', v));
Promise.resolve(8).then(() => { throw new Error('thrown'); }).catch((e) => console.log('handler throw', e.message));
new Promise((resolve, reject) => { resolve(Promise.reject(new Error('inner'))); }).catch((e) => console.log('executor rejected promise', e.message));
Promise.any([Promise.reject(new Error('a')), Promise.reject(new Error('b'))])
  .catch((e) => console.log(e.name, e.message, e.errors.map((x) => x.message).join(',')));
Promise.any([]).catch((e) => console.log('empty:', e.message, e.errors.length));
