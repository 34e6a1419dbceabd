// socket.cork()/uncork(): corked writes wait (writableLength counts them) until the last
// uncork, then go out together and call back in order from one tick; end() uncorks; corks
// nest; a corked socket destroyed fails its waiting writes with ERR_STREAM_DESTROYED; cork
// before 'connect' holds the writes past it.
const net = require('net');

const server = net.createServer((c) => {
  let all = '';
  c.setEncoding('latin1');
  c.on('data', (d) => { all += d; });
  c.on('end', () => { console.log('server got', JSON.stringify(all)); c.end(); });
  c.on('error', () => {});
});

function first(port, done) {
  const s = net.connect(port, '127.0.0.1', () => {
    s.cork();
    console.log('corked', s.writableCorked);
    console.log('write a', s.write('a', (err) => console.log('cb a', err)));
    console.log('write b', s.write('bb', (err) => console.log('cb b', err)));
    console.log('length while corked', s.writableLength);
    s.cork();
    s.uncork();
    console.log('after one of two uncorks', s.writableCorked, s.writableLength);
    process.nextTick(() => console.log('tick queued before the last uncork'));
    s.uncork();
    console.log('after the last uncork', s.writableCorked, s.writableLength);
    s.uncork();
    console.log('uncork again', s.writableCorked);
    setImmediate(() => console.log('immediate'));
    s.cork();
    s.write('c', (err) => console.log('cb c', err));
    s.end('d', () => console.log('end callback'));
    console.log('after end', s.writableCorked, s.writableLength);
  });
  s.on('drain', () => console.log('drain'));
  s.on('finish', () => console.log('finish'));
  s.on('close', () => { console.log('close'); done(); });
}

function destroyed(port, done) {
  const s = net.connect(port, '127.0.0.1', () => {
    s.cork();
    s.write('x', (err) => console.log('cb x', err && err.code));
    s.write('y', (err) => console.log('cb y', err && err.code));
    s.destroy();
    console.log('destroyed, length', s.writableLength);
  });
  s.on('error', (err) => console.log('error', err.code));
  s.on('close', () => { console.log('close 2'); done(); });
}

function beforeConnect(port, done) {
  const s = net.connect(port, '127.0.0.1');
  s.cork();
  s.write('early', (err) => console.log('cb early', err));
  s.on('connect', () => {
    console.log('connect, still corked', s.writableCorked, s.writableLength);
    s.write(' late', (err) => console.log('cb late', err));
    s.end();
  });
  s.on('close', () => { console.log('close 3'); done(); });
}

server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  first(port, () => destroyed(port, () => beforeConnect(port, () => server.close(() => console.log('server closed')))));
});
