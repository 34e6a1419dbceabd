// Records encodings.jsonl (node encodings.js > encodings.jsonl): what Node's Buffer and
// StringDecoder make of a few awkward inputs, for nodefs's encoding test.
const { StringDecoder } = require('string_decoder');
const encs = ['utf8', 'base64', 'base64url', 'hex', 'latin1', 'ascii', 'utf16le'];
const out = (a) => console.log(JSON.stringify(a));
const bufs = [
  [0xff, 0xff, 0x41, 0xe2, 0x82, 0x41, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80, 0xc0, 0xaf],
  [0xf4, 0x90, 0x80, 0x80], [0xe0, 0x80, 0x41], [0x80, 0xff, 0x00, 0x7f], [1, 2, 3, 4, 5],
  [0x3d, 0xd8, 0x00, 0xde, 0x61],
];
for (const b of bufs) for (const e of encs) out(['toString', Buffer.from(b).toString('hex'), e, Buffer.from(b).toString(e)]);
const strs = ['ab$cd', 'YW Jj\nZA', 'YWJjZA==YWJj', 'YQ', 'Y', '-_-_', '€😀a', 'abcz12', 'abc', 'héllo'];
for (const s of strs) for (const e of encs) out(['from', s, e, Buffer.from(s, e).toString('hex')]);
// A decoder fed 'aé€😀z' split at every point: write(a) | write(b) | end().
const src = Buffer.from('aé€😀z');
for (const e of ['utf8', 'base64', 'base64url', 'utf16le', 'hex', 'latin1']) {
  const splits = [];
  for (let i = 0; i <= src.length; i++) {
    const d = new StringDecoder(e);
    splits.push(d.write(src.subarray(0, i)) + '|' + d.write(src.subarray(i)) + '|' + d.end());
  }
  out(['decoder', e, splits]);
}
