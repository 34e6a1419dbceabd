// socket.setTimeout: 'timeout' comes after that long without activity and does not close the
// socket; reads and writes start the count again; setTimeout(0) turns it off. readyState,
// bytesRead and bytesWritten along the way.
const net = require('net');
const server = net.createServer((c) => {
  c.setTimeout(30, () => console.log('server timeout', c.readyState, c.bytesRead));
  c.on('data', (d) => console.log('server data', d.toString(), c.bytesRead));
  c.on('end', () => console.log('server end', c.readyState));
  c.on('close', () => {
    console.log('server close', c.readyState);
    server.close();
  });
});
server.listen(0, '127.0.0.1', () => {
  const c = net.connect(server.address().port, '127.0.0.1');
  console.log('connecting', c.readyState, c.timeout);
  c.setTimeout(60);
  console.log('timeout set', c.timeout);
  c.on('connect', () => {
    console.log('connect', c.readyState);
    c.write('hi', () => console.log('written', c.bytesWritten));
  });
  let timeouts = 0;
  c.on('timeout', () => {
    timeouts++;
    console.log('client timeout', timeouts, c.readyState, c.destroyed);
    if (timeouts === 1) {
      c.write('again');
      return;
    }
    c.setTimeout(0);
    console.log('timeout off', c.timeout);
    c.end('bye');
    console.log('after end', c.readyState);
  });
  c.on('end', () => console.log('client end', c.readyState));
  c.on('close', () => console.log('client close', c.readyState, c.bytesWritten));
  c.resume();
});
