// Two requests in one packet on one connection: both 'request' events come from the same
// read callback, the responses go out in order, each 'finish' a tick after its end(), and
// the raw bytes show both answers on the connection, the second with Connection: close.
const http = require('http');
const net = require('net');

const server = http.createServer((req, res) => {
  console.log('server: request', req.url);
  res.on('finish', () => console.log('server: finish', req.url));
  res.on('close', () => console.log('server: close', req.url));
  res.setHeader('Content-Type', 'text/plain');
  res.end('body of ' + req.url);
  console.log('server: end() returned', req.url);
});

server.listen(0, '127.0.0.1', () => {
  const sock = net.connect(server.address().port, '127.0.0.1', () => {
    sock.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  });
  let all = '';
  sock.setEncoding('latin1');
  sock.on('data', (d) => { all += d; });
  sock.on('end', () => {
    for (const line of all.split('\r\n')) {
      if (!line.startsWith('Date:')) console.log('client:', JSON.stringify(line));
    }
    server.close(() => console.log('server: closed'));
  });
});
