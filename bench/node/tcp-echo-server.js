'use strict';
// The peer of examples/echo for bench/net.sh: a TCP echo server with Node's net module.
//
//   node tcp-echo-server.js [port]      (default 7000; prints "listening <port>")
const net = require('net');

const port = Number(process.argv[2] || 7000);
const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  socket.on('data', (data) => socket.write(data));
  socket.on('error', () => socket.destroy());
});
server.maxConnections = 1 << 20;
server.listen({ port, host: '127.0.0.1', backlog: 1024 }, () => console.log(`listening ${server.address().port}`));
