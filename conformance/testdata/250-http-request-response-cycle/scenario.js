// One POST exchange on a keep-alive agent, both sides' events in Node's order: the
// request listener runs in the read callback; the body waits for the 'data' listener's
// resume tick; 'end' comes a tick later; 'finish' a tick after end(), the response's
// 'close' a tick after that, the request's 'close' two ticks after its 'end'; on the
// client, 'response' in the read callback, the request's 'close' a tick after the
// response's 'end' (when the socket goes back to the agent), the response's 'close' last.
const http = require('http');

const server = http.createServer((req, res) => {
  console.log('server: request', req.method, req.url, req.httpVersion,
    JSON.stringify(req.headers['content-type']), JSON.stringify(req.headers['content-length']));
  req.on('data', (d) => console.log('server: req data', JSON.stringify(d.toString())));
  req.on('end', () => {
    console.log('server: req end, complete', req.complete);
    res.setHeader('X-A', '1');
    res.write('hello ');
    console.log('server: headersSent', res.headersSent);
    res.end('world');
    console.log('server: end() returned, writableEnded', res.writableEnded);
  });
  req.on('close', () => console.log('server: req close'));
  res.on('finish', () => console.log('server: res finish'));
  res.on('close', () => console.log('server: res close'));
  process.nextTick(() => console.log('server: nextTick from the request listener'));
});
server.on('connection', () => console.log('server: connection'));
server.on('close', () => console.log('server: close'));

server.listen(0, '127.0.0.1', () => {
  console.log('server: listening');
  const req = http.request({
    port: server.address().port, host: '127.0.0.1', method: 'POST', path: '/x?y=1',
    headers: { 'Content-Type': 'text/plain', 'Content-Length': 4 },
  }, (res) => {
    console.log('client: response', res.statusCode, res.statusMessage, res.httpVersion,
      res.headers['transfer-encoding'], res.headers['x-a'], res.headers.connection);
    res.on('data', (d) => console.log('client: data', JSON.stringify(d.toString())));
    res.on('end', () => {
      console.log('client: end');
      server.close(() => console.log('server: close callback'));
    });
    res.on('close', () => console.log('client: res close'));
  });
  req.on('socket', () => console.log('client: socket'));
  req.on('finish', () => console.log('client: req finish'));
  req.on('close', () => console.log('client: req close'));
  req.write('ab');
  req.end('cd');
  console.log('client: end() returned');
});
