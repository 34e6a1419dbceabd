// server.close() with idle keep-alive connections: the idle ones are closed at once, the
// agent's free sockets see the end and go away, and the server's 'close' follows once the
// last connection is gone.
const http = require('http');

const agent = new http.Agent({ keepAlive: true });
const server = http.createServer((req, res) => res.end('ok ' + req.url));
server.on('connection', (s) => {
  console.log('server: connection');
  s.on('close', () => console.log('server: socket close'));
});
server.on('close', () => console.log('server: close event'));

server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  let done = 0;
  for (const path of ['/1', '/2']) {
    const req = http.get({ port, host: '127.0.0.1', path, agent }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (d) => console.log('client: data', d));
      res.on('end', () => console.log('client: end', path));
    });
    req.on('socket', (s) => s.once('close', () => console.log('client: socket close')));
    req.on('close', () => {
      console.log('client: req close', path);
      if (++done === 2) {
        setImmediate(() => {
          const name = '127.0.0.1:' + port + ':';
          console.log('free sockets', agent.freeSockets[name].length);
          server.close(() => console.log('server: close callback'));
          console.log('close() returned, listening', server.listening);
        });
      }
    });
  }
});
