// User Timing: marks at given times, measures between marks, timestamps and options, and
// the errors of each bad call (their name, code and message); the buffer sorted by
// startTime (ties in the order made), filtered, and cleared. Values that depend on the
// clock are printed as comparisons only.
const { performance } = require('perf_hooks');

function show(label, f) {
  try {
    const r = f();
    if (r && r.toJSON) {
      const j = r.toJSON();
      console.log(label, j.name, j.entryType, j.startTime, j.duration, JSON.stringify(j.detail));
    } else {
      console.log(label, JSON.stringify(r));
    }
  } catch (e) {
    console.log(label, 'throws', e.name, e.code === undefined ? '' : e.code, e.message);
  }
}
const names = (list) => list.map((e) => e.name + ':' + e.entryType).join(' ');

show('mark a', () => performance.mark('a', { startTime: 5, detail: { x: 1 } }));
show('mark b', () => performance.mark('b', { startTime: 9 }));
show('mark c', () => performance.mark('c', { startTime: 9.5, detail: 'd' }));
show('mark negative', () => performance.mark('n', { startTime: -1 }));
show('mark string time', () => performance.mark('n', { startTime: 'x' }));
show('mark milestone', () => performance.mark('loopStart'));
show('measure a..b', () => performance.measure('m1', 'a', 'b'));
show('measure b..a', () => performance.measure('m2', 'b', 'a'));
show('measure unknown', () => performance.measure('m3', 'zz'));
show('measure unknown end', () => performance.measure('m3', 'a', 'zz'));
show('measure options', () => performance.measure('m4', { start: 'a', end: 'c', detail: [1, 2] }));
show('measure start+duration', () => performance.measure('m5', { start: 2, duration: 3 }));
show('measure end+duration', () => performance.measure('m6', { end: 'b', duration: 1 }));
show('measure all three', () => performance.measure('m7', { start: 2, end: 4, duration: 3 }));
show('measure options+endMark', () => performance.measure('m7', { start: 'a' }, 'b'));
show('measure a..12', () => performance.measure('m8', 'a', 12));
show('measure negative end', () => performance.measure('m8', 'a', -3));
show('measure negative start option', () => performance.measure('m8', { start: -2, end: 4 }));
show('measure number start ignored', () => performance.measure('m9', 3, 'b'));
show('measure nodeStart..a', () => performance.measure('m10', 'nodeStart', 'a').name);
const open = performance.measure('m11', { detail: 'no start or end' });
console.log('measure without start or end:', open.startTime, open.duration > 0, JSON.stringify(open.detail));
const tillNow = performance.measure('m12', 'a');
console.log('measure a..now:', tillNow.startTime, tillNow.duration > 0);
show('mark a again', () => performance.mark('a', { startTime: 1 }));
show('measure a(new)..b', () => performance.measure('m13', 'a', 'b'));
show('byName a', () => performance.getEntriesByName('a').map((e) => e.startTime));
show('byName m1 as mark', () => performance.getEntriesByName('m1', 'mark').length);
show('byType mark', () => names(performance.getEntriesByType('mark')));
show('byType other', () => performance.getEntriesByType('resource').length);
show('entries', () => names(performance.getEntries().filter((e) => e.name !== 'm10')));
show('clear milestone', () => performance.clearMarks('loopStart'));
show('clearMarks a', () => performance.clearMarks('a'));
show('after clearing a', () => names(performance.getEntriesByType('mark')));
show('measure from a', () => performance.measure('m14', 'a'));
show('clearMeasures m1', () => performance.clearMeasures('m1'));
show('measures', () => performance.getEntriesByType('measure').length);
show('clearMeasures', () => performance.clearMeasures());
show('clearMarks', () => performance.clearMarks());
show('entries', () => performance.getEntries().length);
const t0 = performance.now();
console.log('now is a number that grows:', typeof t0, performance.now() >= t0);
console.log('timeOrigin after 2020:', performance.timeOrigin > Date.UTC(2020, 0, 1));
