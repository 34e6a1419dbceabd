// Records streams.txt (run from an empty directory: node streams.js > streams.txt): the
// events of file streams, case by case (each starts once the previous one has closed), for
// nodefs's TestStreamsAgainstNode.
const fs = require('fs');
fs.writeFileSync('src', '0123456789abcdef');
fs.mkdirSync('dir');
const log = [];
const out = (s) => log.push(s);
function watch(name, s, events) {
  for (const ev of events) {
    s.on(ev, (a) => {
      if (ev === 'data') out(`${name} data ${JSON.stringify(Buffer.isBuffer(a) ? a.toString() : a)}`);
      else if (ev === 'error') out(`${name} error ${a.code} ${a.message}`);
      else if (ev === 'open') out(`${name} open`);
      else out(`${name} ${ev}`);
    });
  }
}
const rsEvents = ['open', 'ready', 'data', 'end', 'close', 'error', 'pause', 'resume'];
const wsEvents = ['open', 'ready', 'drain', 'finish', 'close', 'error'];
const cases = [
  (done) => { // highWaterMark, start and end
    const s = fs.createReadStream('src', { highWaterMark: 4, start: 2, end: 11 });
    watch('range', s, rsEvents);
    s.on('close', () => { out(`range bytesRead ${s.bytesRead}`); done(); });
  },
  (done) => { // an encoding: chunks of 4 bytes as hex
    const s = fs.createReadStream('src', { highWaterMark: 4, encoding: 'hex', end: 5 });
    watch('hex', s, ['data', 'end', 'close']);
    s.on('close', done);
  },
  (done) => { // setEncoding base64: groups of 3 bytes held back across chunks
    const s = fs.createReadStream('src', { highWaterMark: 4 });
    s.setEncoding('base64');
    watch('base64', s, ['data', 'end', 'close']);
    s.on('close', done);
  },
  (done) => { // a missing file
    const s = fs.createReadStream('missing');
    watch('missing', s, rsEvents);
    s.on('close', done);
  },
  (done) => { // destroy from the first data
    const s = fs.createReadStream('src', { highWaterMark: 4 });
    watch('destroy', s, rsEvents);
    s.once('data', () => s.destroy());
    s.on('close', () => { out(`destroy destroyed ${s.destroyed}`); done(); });
  },
  (done) => { // pause in the first data, resume from a timer
    const s = fs.createReadStream('src', { highWaterMark: 8 });
    watch('pause', s, rsEvents);
    s.once('data', () => { s.pause(); setTimeout(() => s.resume(), 5); });
    s.on('close', done);
  },
  (done) => { // backpressure: write's return, drain, finish, close
    const s = fs.createWriteStream('out', { highWaterMark: 5 });
    watch('write', s, wsEvents);
    out(`write returned ${s.write('abc')}`);
    out(`write returned ${s.write('defg')}`);
    s.once('drain', () => {
      out(`write after drain returned ${s.write('h')}`);
      s.end('ij', () => out('end callback'));
    });
    s.on('close', () => {
      out(`write bytesWritten ${s.bytesWritten} file ${fs.readFileSync('out', 'utf8')}`);
      done();
    });
  },
  (done) => { // write after end
    const s = fs.createWriteStream('out2');
    watch('after end', s, wsEvents);
    s.end('x');
    s.write('y', (err) => out(`after end write callback ${err.code}`));
    s.on('close', done);
  },
  (done) => { // a directory where a file is expected
    const s = fs.createWriteStream('dir');
    watch('dir', s, wsEvents);
    s.on('close', done);
  },
  (done) => { // destroy with an error
    const s = fs.createWriteStream('out3');
    watch('destroyed', s, wsEvents);
    s.on('ready', () => s.destroy(new Error('boom')));
    s.on('close', done);
  },
  (done) => { // start: overwrite in place
    const s = fs.createWriteStream('src', { flags: 'r+', start: 3 });
    watch('start', s, ['finish', 'close']);
    s.end('XYZ');
    s.on('close', () => { out(`start file ${fs.readFileSync('src', 'utf8')}`); done(); });
  },
  (done) => { // pipe with an encoding into a write stream
    const r = fs.createReadStream('src', { highWaterMark: 5, encoding: 'latin1', end: 7 });
    const w = fs.createWriteStream('piped');
    watch('pipe-r', r, ['end']); // its 'close' races the write stream's: two requests on the pool
    watch('pipe-w', w, ['pipe', 'unpipe', 'finish', 'close']);
    r.pipe(w);
    w.on('close', () => { out(`pipe file ${fs.readFileSync('piped', 'utf8')}`); done(); });
  },
];
let i = 0;
(function next() {
  if (i === cases.length) {
    console.log(log.join('\n'));
    for (const f of ['src', 'out', 'out2', 'out3', 'piped']) fs.rmSync(f, { force: true });
    fs.rmdirSync('dir');
    return;
  }
  cases[i++](next);
})();
