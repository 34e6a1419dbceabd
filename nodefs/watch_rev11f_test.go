package nodefs_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// watchFile's bookkeeping (not its timing): watchers are keyed by the resolved path, so
// 'f', './f' and its absolute path share one; unwatchFile of a path never watched does
// nothing; unwatchFile drops the listeners and stops the watcher ("stop" from a nextTick),
// by any spelling of the path; a watchFile after it makes a new watcher; a second
// unwatchFile does nothing.
func TestRev11fWatchFileBookkeeping(t *testing.T) {
	const js = `
fs.writeFileSync('f', 'x');
const l1 = () => {}, l2 = () => {};
const opts = { interval: 3600000 };
const w1 = fs.watchFile('f', opts, l1);
const w2 = fs.watchFile('./f', opts, l2);
const w3 = fs.watchFile(require('path').resolve('f'), opts, l2);
console.log('same', w1 === w2, w1 === w3, w1.listenerCount('change'));
w1.on('stop', () => console.log('w1 stop', w1.listenerCount('change')));
fs.unwatchFile('g');
fs.unwatchFile('./f');
console.log('after unwatch', w1.listenerCount('change'));
const w4 = fs.watchFile('f', opts, l1);
console.log('new', w4 !== w1, w4.listenerCount('change'));
w4.on('stop', () => console.log('w4 stop'));
fs.unwatchFile('d/../f');
fs.unwatchFile('f');
console.log('sync end');
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("f", []byte("x"), nil))
		l1 := func(_, _ *nodefs.Stats) {}
		const iv = time.Hour
		abs, err := filepath.Abs("f")
		rev10sMust(t, err)
		w1, err := fs.WatchFile("f", iv, l1)
		rev10sMust(t, err)
		w2, err := fs.WatchFile("./f", iv, l1)
		rev10sMust(t, err)
		w3, err := fs.WatchFile(abs, iv, l1)
		rev10sMust(t, err)
		log("same %v %v %d", w1 == w2, w1 == w3, w1.ListenerCount("change"))
		w1.On("stop", func(...any) { log("w1 stop %d", w1.ListenerCount("change")) })
		fs.UnwatchFile("g")
		fs.UnwatchFile("./f")
		log("after unwatch %d", w1.ListenerCount("change"))
		w4, err := fs.WatchFile("f", iv, l1)
		rev10sMust(t, err)
		log("new %v %d", w4 != w1, w4.ListenerCount("change"))
		w4.On("stop", func(...any) { log("w4 stop") })
		fs.UnwatchFile("d/../f")
		fs.UnwatchFile("f")
		log("sync end")
		for _, w := range []*nodefs.StatWatcher{w1, w2, w3, w4} {
			w.Stop() // what the fault left running
		}
	})
}
