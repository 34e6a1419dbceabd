// A server listening without a host listens on '::' and sees an IPv4 client as
// '::ffff:127.0.0.1' (family IPv6); the client sees plain IPv4. A second server on the same
// port gets EADDRINUSE for ':::PORT', as a listen error with Node's message and fields.
const net = require('net');
const server = net.createServer((c) => {
  console.log('server sees', c.remoteAddress, c.remoteFamily, c.address().address, c.address().family);
  c.end();
});
server.listen(0, () => {
  const { address, family, port } = server.address();
  console.log('listening', address, family);
  const second = net.createServer();
  second.on('error', (e) => {
    console.log('error', e.code, e.errno, e.syscall, e.address, e.port === port);
    console.log(e.message.replace(String(port), 'PORT'));
    const c = net.connect(port, '127.0.0.1');
    c.on('end', () => console.log('client sees', c.remoteAddress, c.remoteFamily, c.address().address));
    c.on('close', () => server.close(() => console.log('server closed')));
    c.resume();
  });
  second.listen(port);
});
