// A dns.Resolver's servers (set, formatted, refused when invalid) and cancel(): every query
// not yet called back gets ECANCELLED, in the order made, from the check phase before the
// immediates queued earlier; a second cancel() and one with nothing pending do nothing.
const dns = require('dns');

const r = new dns.Resolver();
r.setServers(['127.0.0.1:1', '[::1]:5353', '10.0.0.1:53', '::2']);
console.log('servers', JSON.stringify(r.getServers()));
try {
  r.setServers(['127.0.0.1', 'not an ip']);
} catch (e) {
  console.log('setServers', e.code, e.message);
}
console.log('servers unchanged', JSON.stringify(r.getServers()));
r.setServers(['127.0.0.1:1']);
const show = (label) => (err, v) => console.log(label, err && err.code, err && err.message, err && err.syscall, err && err.hostname, v);
r.resolve4('example.com', show('resolve4'));
r.resolveMx('example.org', show('resolveMx'));
r.resolve6('example.net', show('resolve6'));
setImmediate(() => console.log('immediate queued before cancel'));
process.nextTick(() => console.log('tick'));
r.cancel();
r.cancel();
setImmediate(() => console.log('immediate queued after cancel'));
console.log('main end');
new dns.Resolver().cancel();
