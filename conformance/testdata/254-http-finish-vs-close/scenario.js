// 'finish' then 'close' for a response that ends; only 'close' (and the request's
// 'aborted' then 'close') when the client goes away in the middle of the response.
const http = require('http');

let n = 0;
const server = http.createServer((req, res) => {
  const id = ++n;
  res.on('finish', () => console.log(id, 'res finish'));
  res.on('close', () => {
    console.log(id, 'res close, writableFinished', res.writableFinished);
    if (id === 2) server.close(() => console.log('server closed'));
  });
  req.on('aborted', () => console.log(id, 'req aborted'));
  req.on('close', () => console.log(id, 'req close'));
  if (id === 1) {
    res.end('done');
  } else {
    res.write('part');
  }
});

server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  http.get({ port, host: '127.0.0.1', agent: false }, (res) => {
    res.resume();
    res.on('end', () => {
      console.log('client 1: end');
      const req2 = http.get({ port, host: '127.0.0.1', agent: false }, (res2) => {
        res2.once('data', (d) => {
          console.log('client 2: data', d.toString());
          req2.destroy();
        });
      });
      req2.on('error', (e) => console.log('client 2: error', e.code, e.message));
      req2.on('close', () => console.log('client 2: close'));
    });
  });
});
