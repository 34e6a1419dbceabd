// dns.lookup: an address literal answers from a tick, before the lookup of a name, which
// answers from the work pool; localhost with family 4 is 127.0.0.1.
const dns = require('dns');
dns.lookup('localhost', { family: 4 }, (err, address, family) => {
  console.log('localhost', err, address, family);
  dns.lookup('localhost', { family: 4, all: true }, (err, addresses) => {
    console.log('all', err, JSON.stringify(addresses));
  });
});
dns.lookup('127.0.0.1', (err, address, family) => console.log('literal', err, address, family));
process.nextTick(() => console.log('tick'));
