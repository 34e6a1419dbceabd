// write() after end(): write returns false, its callback gets ERR_STREAM_WRITE_AFTER_END on
// a nextTick, the socket is destroyed with that error ('error' on the next tick, no
// 'finish'), and 'close' (hadError true) comes from the close phase. What end() wrote
// still reaches the server, followed by the end of the stream.
const net = require('net');

const server = net.createServer((sock) => {
  sock.setEncoding('utf8');
  sock.on('data', (d) => console.log('server socket: data', JSON.stringify(d)));
  sock.on('end', () => console.log('server socket: end'));
  sock.on('close', (hadError) => {
    console.log('server socket: close', hadError);
    server.close(() => console.log('server: closed'));
  });
});

server.listen(0, '127.0.0.1', () => {
  const client = net.connect(server.address().port, '127.0.0.1', () => {
    console.log('client: connect');
    client.end('first');
    const ok = client.write('second', (err) => console.log('client: write callback', err && err.code));
    console.log('client: write returned', ok, 'destroyed', client.destroyed);
    process.nextTick(() => console.log('client: nextTick after write'));
  });
  client.on('error', (err) => console.log('client: error', err.code, err.message));
  client.on('finish', () => console.log('client: finish'));
  client.on('close', (hadError) => console.log('client: close', hadError));
});
