// A request listener throws, and an 'uncaughtException' listener lets the process go on.
// The connection of that request takes no other one: the next bytes on it are a
// clientError (the parser stopped in its headers-complete callback), and without a
// 'clientError' listener Node answers them with its bare 400 and closes. A response the
// listener ended before it threw, or ends from a later callback, still goes out, keep-alive;
// the next bytes after it get the 400. Other connections are served.
const http = require('http');
const net = require('net');

let second = null;
process.on('uncaughtException', (err) => {
  console.log('uncaughtException:', err.message);
  if (second) { second(); second = null; }
});

const server = http.createServer((req, res) => {
  console.log('request', req.url);
  if (req.url === '/ended') {
    res.end('ended');
    throw new Error('after the end');
  }
  if (req.url === '/later') {
    setTimeout(() => res.end('later'), 0);
    throw new Error('before the end');
  }
  if (req.url.startsWith('/boom')) throw new Error('boom');
  res.end('ok ' + req.url);
});

// client writes first, then next: from the 'uncaughtException' listener, or, with onData,
// when the response to first has come.
function client(port, first, next, onData, done) {
  let send = null;
  const sock = net.connect(port, '127.0.0.1', () => {
    send = () => sock.write(next);
    if (!onData) second = send;
    sock.write(first);
  });
  let all = '';
  sock.setEncoding('latin1');
  sock.on('data', (d) => {
    all += d;
    if (onData && send) { send(); send = null; }
  });
  sock.on('close', () => {
    const lines = all.split('\r\n').filter((l) => !l.startsWith('Date:'));
    console.log('client got', JSON.stringify(lines.join('|')));
    done();
  });
}

server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  server.once('clientError', (err, socket) => {
    console.log('clientError', err.code, err.message);
    socket.destroy();
  });
  const next = 'GET /next HTTP/1.1\r\nHost: x\r\n\r\n';
  client(port, 'GET /boom1 HTTP/1.1\r\nHost: x\r\n\r\n', next, false, () => {
    client(port, 'GET /boom2 HTTP/1.1\r\nHost: x\r\n\r\n', next, false, () => {
      client(port, 'GET /ended HTTP/1.1\r\nHost: x\r\n\r\n', next, true, () => {
        client(port, 'GET /later HTTP/1.1\r\nHost: x\r\n\r\n', next, true, () => {
          client(port, 'GET /fine HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', '', false, () => {
            server.close(() => console.log('server closed'));
          });
        });
      });
    });
  });
});
process.on('exit', (code) => console.log('exit', code));
