// dns.lookup of a name under .invalid: ENOTFOUND with Node's fields, from the callback and
// from dns.promises.
const dns = require('dns');
dns.lookup('nosuch.invalid', (err, address, family) => {
  console.log('callback', err.message, address, family);
  console.log('fields', err.errno, err.code, err.syscall, err.hostname);
  dns.promises.lookup('nosuch.invalid').catch((err) => {
    console.log('promise', err.message, err.code);
  });
});
