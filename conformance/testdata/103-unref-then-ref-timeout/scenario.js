// unref() then ref() makes a timeout keep the loop alive again, also when ref()
// comes later from another callback; an unref'd timeout still runs while
// something else keeps the loop alive, and one due after everything else never
// runs. 'exit event' marks where the event loop ended. (Main prints only after
// all timeouts are set: Node's first console.log can take several ms.)
process.on('exit', () => console.log('exit event'));
const lines = [];

const a = setTimeout(() => console.log('a: unref then ref, runs at 30 ms'), 30);
a.unref();
lines.push(`a hasRef after unref: ${a.hasRef()}`);
a.ref();
lines.push(`a hasRef after ref: ${a.hasRef()}`);

const b = setTimeout(() => console.log('b: ref again by the 10 ms timeout, runs at 60 ms'), 60);
b.unref();
setTimeout(() => {
  b.ref();
  console.log('10 ms timeout refs b; b hasRef:', b.hasRef());
}, 10);

const d = setTimeout(() => console.log('d: unref, runs at 20 ms since a keeps the loop alive'), 20);
d.unref().ref().unref();
lines.push(`d hasRef after unref/ref/unref: ${d.hasRef()}`);

setTimeout(() => console.log('c (must not run)'), 200).unref();
for (const line of lines) console.log(line);
console.log('main end');
