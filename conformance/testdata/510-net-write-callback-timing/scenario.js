// socket.write() on a connected socket that takes the bytes at once: write() returns true
// with writableLength 0, and the callbacks run from nextTicks queued by the writes, before
// a nextTick queued after them; 'finish' comes once end()'s shutdown is done, before the
// server reads the end. (On uvgo's io_uring backend too: Node's layer tries the write at
// once first, as Node does.)
const net = require('net');

const server = net.createServer((sock) => {
  let got = '';
  sock.setEncoding('utf8');
  sock.on('data', (d) => { got += d; });
  sock.on('end', () => {
    console.log('server: end, got', JSON.stringify(got));
    sock.end();
    server.close();
  });
});

server.listen(0, '127.0.0.1', () => {
  const client = net.connect(server.address().port, '127.0.0.1', () => {
    console.log('client: connect');
    const r1 = client.write('one', () => console.log('client: write one callback'));
    console.log('client: write one returned', r1, 'writableLength', client.writableLength);
    const r2 = client.write('two', () => console.log('client: write two callback'));
    console.log('client: write two returned', r2, 'writableLength', client.writableLength);
    process.nextTick(() => console.log('client: nextTick'));
    setImmediate(() => {
      console.log('client: immediate');
      client.end('three');
      console.log('client: end returned, writableLength', client.writableLength);
    });
  });
  client.on('finish', () => console.log('client: finish'));
  client.on('close', () => console.log('client: close'));
});
