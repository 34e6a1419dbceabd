// server.close() while a connection is open: the listener closes at once (listening is
// false), the connection goes on, and the close callback runs (after 'close' event
// listeners attached before it) from a nextTick once the last connection is destroyed --
// before that socket's own 'close', which comes from the close phase.
const net = require('net');

const server = net.createServer((sock) => {
  console.log('server: connection');
  server.close((err) => console.log('server: close callback', err));
  console.log('server: close() returned, listening', server.listening);
  sock.on('data', (d) => {
    console.log('server socket: data', JSON.stringify(d.toString()));
    sock.end('bye');
  });
  sock.on('end', () => console.log('server socket: end'));
  sock.on('close', (hadError) => console.log('server socket: close', hadError));
});
server.on('close', () => console.log('server: close event'));

server.listen(0, '127.0.0.1', () => {
  console.log('server: listening');
  const client = net.connect(server.address().port, '127.0.0.1');
  client.write('hi');
  client.setEncoding('utf8');
  client.on('data', (d) => console.log('client: data', JSON.stringify(d)));
  client.on('end', () => console.log('client: end'));
  client.on('close', (hadError) => console.log('client: close', hadError));
});
