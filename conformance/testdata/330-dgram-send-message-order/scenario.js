// dgram: bind, send (a message taken at once calls back from a nextTick), "message" with
// rinfo, connect and disconnect with Node's errors, close from a nextTick. A datagram sent from a
// "message" listener to the same socket is read in the same poll phase, before the immediate
// queued when the sends were made.
const dgram = require('dgram');
const server = dgram.createSocket('udp4');
const client = dgram.createSocket('udp4');
let got = 0;
server.on('listening', () => {
  const a = server.address();
  console.log('server listening', a.address, a.family, typeof a.port);
  client.send('one', a.port, '127.0.0.1', (err, bytes) => console.log('sent one', err, bytes));
  process.nextTick(() => console.log('tick after send'));
  setImmediate(() => console.log('immediate after send'));
  client.send(['tw', 'o'], a.port, '127.0.0.1', (err, bytes) => console.log('sent two', err, bytes));
  client.on('listening', () => console.log('client listening', client.address().address));
});
server.on('message', (msg, rinfo) => {
  console.log('message', msg.toString(), rinfo.address, rinfo.family, rinfo.size, rinfo.port === client.address().port);
  if (++got === 2) {
    client.connect(server.address().port, '127.0.0.1', () => {
      console.log('connected', client.remoteAddress().address, client.remoteAddress().port === server.address().port);
      client.send('three', (err) => console.log('sent three', err));
      try { client.connect(1, '127.0.0.1'); } catch (e) { console.log('connect again', e.code, e.message); }
    });
  } else if (got === 3) {
    client.disconnect();
    try { client.remoteAddress(); } catch (e) { console.log('remoteAddress', e.code, e.message); }
    client.close(() => console.log('client closed'));
    server.close();
  }
});
server.on('close', () => console.log('server close'));
server.bind(0, '127.0.0.1', () => console.log('bind callback'));
console.log('main end');
