// A malformed request: with a 'clientError' listener the listener answers on the socket;
// without one the server writes Node's bare 400 and closes. No 'request' event either way.
const http = require('http');
const net = require('net');

function send(port, bytes, label, done) {
  const sock = net.connect(port, '127.0.0.1', () => sock.write(bytes));
  let all = '';
  sock.setEncoding('latin1');
  sock.on('data', (d) => { all += d; });
  sock.on('close', () => { console.log(label, 'got', JSON.stringify(all)); done(); });
}

const server = http.createServer(() => console.log('request (unexpected)'));
server.once('clientError', (err, socket) => {
  console.log('clientError', err.code, err.message, 'socket writable', socket.writable);
  socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 3\r\n\r\nbad');
});

server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  send(port, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 'with listener:', () => {
    send(port, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 'without listener:', () => {
      server.close(() => console.log('server closed'));
    });
  });
});
