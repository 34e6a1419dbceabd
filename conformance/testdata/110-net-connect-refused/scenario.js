// Connecting to a port nobody listens on: connect() returns at once (connecting is true),
// the refusal destroys the socket, 'error' comes from a nextTick (before an immediate that
// its handler queues) and 'close' (hadError true) from the close phase after it.
const net = require('net');

const probe = net.createServer();
probe.listen(0, '127.0.0.1', () => {
  const port = probe.address().port;
  probe.close(() => {
    console.log('probe closed');
    const sock = net.connect(port, '127.0.0.1', () => console.log('connect (unexpected)'));
    console.log('connect() returned, connecting', sock.connecting);
    process.nextTick(() => console.log('nextTick after connect()'));
    sock.on('error', (err) => {
      console.log('error', err.code, err.syscall, err.message === 'connect ECONNREFUSED 127.0.0.1:' + port);
      console.log('destroyed', sock.destroyed, 'connecting', sock.connecting);
      process.nextTick(() => console.log('nextTick from error'));
      setImmediate(() => console.log('immediate from error'));
    });
    sock.on('close', (hadError) => console.log('close', hadError));
  });
});
