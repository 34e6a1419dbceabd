'use strict';
// The peer of examples/http for bench/net.sh: Node's http module answering every request
// with the same status, headers and body as uvgo's server ("Hello, World!", text/plain,
// Content-Length, Date). Node adds its own "Connection: keep-alive" and "Keep-Alive:
// timeout=5" headers, which it does not let a handler remove.
//
//   node http-hello.js [port]      (default 8080; prints "listening <port>")
const http = require('http');

const port = Number(process.argv[2] || 8080);
const body = 'Hello, World!';
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(port, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
