// A response written in pieces without a length goes chunked: each write() is a chunk,
// end() sends the last chunk; the client gets the pieces as 'data' and then 'end'.
const http = require('http');
const net = require('net');

const server = http.createServer((req, res) => {
  res.setHeader('Content-Type', 'text/plain');
  res.write('one,');
  setImmediate(() => {
    res.write('two,');
    setImmediate(() => res.end('three'));
  });
});

server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  http.get({ port, host: '127.0.0.1', agent: false }, (res) => {
    console.log('client: response', res.statusCode, res.headers['transfer-encoding'], res.headers['content-length']);
    res.setEncoding('utf8');
    res.on('data', (d) => console.log('client: data', JSON.stringify(d)));
    res.on('end', () => {
      console.log('client: end');
      const sock = net.connect(port, '127.0.0.1', () => sock.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
      let all = '';
      sock.setEncoding('latin1');
      sock.on('data', (d) => { all += d; });
      sock.on('end', () => {
        console.log('raw:', JSON.stringify(all.replace(/Date: [^\r]*\r\n/, '')));
        server.close(() => console.log('server closed'));
      });
    });
  });
});
