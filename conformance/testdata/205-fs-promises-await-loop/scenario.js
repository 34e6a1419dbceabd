// fs/promises with await in a loop: each await resumes after the operation's poll-phase
// completion; a nextTick queued before an await runs before the body resumes.
const fsp = require('fs/promises');
const os = require('os');
const path = require('path');
async function main() {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'uvgo-205-'));
  for (let i = 0; i < 3; i++) {
    const file = path.join(dir, 'f' + i);
    process.nextTick(() => console.log('tick before write', i));
    await fsp.writeFile(file, 'x'.repeat(i + 1));
    const st = await fsp.stat(file);
    console.log('file', i, 'size', st.size);
  }
  console.log('entries', (await fsp.readdir(dir)).join(','));
  try {
    await fsp.readFile(path.join(dir, 'nope'));
  } catch (err) {
    console.log('caught', err.code, err.syscall);
  }
  const fh = await fsp.open(path.join(dir, 'f2'), 'r');
  const { bytesRead } = await fh.read(Buffer.alloc(8), 0, 8, 0);
  console.log('bytesRead', bytesRead);
  await fh.close();
  await fsp.rm(dir, { recursive: true });
  return 'done';
}
main().then((v) => console.log(v));
console.log('main end');
