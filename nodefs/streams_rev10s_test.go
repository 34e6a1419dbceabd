package nodefs_test

// Review rev10-streams: the file streams against node v20, in every mode (epoll and
// io_uring, each with and without an OS thread of the loop's own). Each test is a Go
// scenario and its JavaScript twin; the twin runs with node (when it is installed) in a
// directory of its own, and every mode's log must be node's.

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// rev10sPrelude is the twins' common part: watch logs a stream's events as rev10sWatch
// does.
const rev10sPrelude = `'use strict';
const fs = require('fs');
function show(x) {
  if (x instanceof Error) return String(x.code) + ' ' + x.message;
  if (Buffer.isBuffer(x)) return JSON.stringify(x.toString('latin1'));
  if (typeof x === 'string') return JSON.stringify(x);
  if (typeof x === 'number') return 'N';
  return String(x);
}
function watch(name, s, events) {
  for (const ev of events) s.on(ev, (...a) => console.log([name, ev, ...a.map(show)].join(' ')));
}
function code(e) { return e ? String(e.code) : 'null'; }
function watchEv(name, s, events) {
  for (const ev of events) s.on(ev, () => console.log(name + ' ' + ev));
}
`

// rev10sShow is the prelude's show.
func rev10sShow(x any) string {
	switch v := x.(type) {
	case error:
		return rev10sCode(v) + " " + v.Error()
	case []byte:
		return rev10sJSON(string(v))
	case string:
		return rev10sJSON(v)
	case int, int64:
		return "N"
	case nil: // a callback's error: null
		return "null"
	}
	return fmt.Sprint(x)
}

// rev10sCode is the prelude's code: an error's code, "undefined" when it has none.
func rev10sCode(err error) string {
	if err == nil {
		return "null"
	}
	var fe *nodefs.Error
	var ne *nodenet.Error
	switch {
	case errors.As(err, &fe):
		return fe.Code
	case errors.As(err, &ne):
		return ne.Code
	}
	return "undefined"
}

func rev10sJSON(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// rev10sWatch is the prelude's watch.
func rev10sWatch(log func(string, ...any), name string, s nodenet.Emitter, events ...string) {
	for _, ev := range events {
		s.On(ev, func(a ...any) {
			parts := []string{name, ev}
			for _, x := range a {
				parts = append(parts, rev10sShow(x))
			}
			log("%s", strings.Join(parts, " "))
		})
	}
}

// rev10sWatchEv is the prelude's watchEv: the events without their arguments.
func rev10sWatchEv(log func(string, ...any), name string, s nodenet.Emitter, events ...string) {
	for _, ev := range events {
		s.On(ev, func(...any) { log("%s %s", name, ev) })
	}
}

// rev10sDiff runs scenario in every mode, each in a fresh directory, until the loop ends,
// and compares each mode's log with node's (the twin's), or, without node, with the first
// mode's.
func rev10sDiff(t *testing.T, js string, scenario func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any))) {
	t.Helper()
	rev10sDiffBy(t, js, nil, scenario)
}

// rev10sDiffBy is rev10sDiff with both logs put in norm's order first (nil: as they are).
func rev10sDiffBy(t *testing.T, js string, norm func([]string) []string, scenario func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any))) {
	t.Helper()
	if norm == nil {
		norm = func(s []string) []string { return s }
	}
	want, haveNode := looptest.Node(t, rev10sPrelude+js)
	want = norm(want)
	for _, m := range looptest.Modes {
		inTempDir(t)
		l, ok := m.New(t)
		if !ok {
			t.Logf("%s: not available", m.Name)
			continue
		}
		var got []string
		log := func(f string, a ...any) { got = append(got, fmt.Sprintf(f, a...)) }
		scenario(t, l, nodefs.New(l), log)
		dog := l.SetTimeout(func() {
			t.Errorf("%s: watchdog: the loop is still alive after 20s", m.Name)
			l.Stop()
		}, 20*time.Second)
		dog.Unref()
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Errorf("%s: Run: %v", m.Name, err)
		}
		closeLoop(t, l)
		got = norm(got)
		if want == nil {
			want = got
			t.Logf("%s (reference, no node): %q", m.Name, got)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", m.Name, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
		}
	}
	if !haveNode {
		t.Skip("node is not installed: the modes were compared with each other only")
	}
}

// rev10sSteps runs each step once the one before called its done.
func rev10sSteps(steps []func(done func())) {
	if len(steps) > 0 {
		steps[0](func() { rev10sSteps(steps[1:]) })
	}
}

// rev10sMust fails the test on err.
func rev10sMust(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A ReadStream is not paused before anything reads it; a "data" listener, pause() and
// resume() in one tick give one "resume" (Node's resumeScheduled), and the stream flows.
func TestRev10sReadStreamResumeOnce(t *testing.T) {
	const js = `
fs.writeFileSync('src', '0123456789abcdef');
const r = fs.createReadStream('src', { highWaterMark: 8 });
console.log('fresh isPaused', r.isPaused());
watch('r', r, ['pause', 'resume', 'end', 'close']);
r.on('data', (d) => console.log('data', d.length));
console.log('after data isPaused', r.isPaused());
r.pause();
console.log('after pause isPaused', r.isPaused());
r.resume();
console.log('after resume isPaused', r.isPaused());
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("src", []byte("0123456789abcdef"), nil))
		r, err := fs.CreateReadStream("src", &nodefs.ReadStreamOptions{HighWaterMark: 8})
		rev10sMust(t, err)
		log("fresh isPaused %v", r.IsPaused())
		rev10sWatch(log, "r", r, "pause", "resume", "end", "close")
		r.OnData(func(b []byte) { log("data %d", len(b)) })
		log("after data isPaused %v", r.IsPaused())
		r.Pause()
		log("after pause isPaused %v", r.IsPaused())
		r.Resume()
		log("after resume isPaused %v", r.IsPaused())
	})
}

// createReadStream({ fd, end }) without start reads from the descriptor's position, end -
// bytesRead + 1 bytes at most (Node's _read: pos stays undefined); with start it reads
// from start.
func TestRev10sReadStreamFdPositionEnd(t *testing.T) {
	const js = `
fs.writeFileSync('src', '0123456789abcdef');
const fd = fs.openSync('src', 'r');
fs.readSync(fd, Buffer.alloc(3), 0, 3, null);
const r = fs.createReadStream(null, { fd, end: 5, highWaterMark: 4 });
watch('r', r, ['open', 'ready', 'data', 'end', 'close', 'error']);
r.on('close', () => {
  console.log('bytesRead', r.bytesRead);
  const fd2 = fs.openSync('src', 'r');
  fs.readSync(fd2, Buffer.alloc(3), 0, 3, null);
  const r2 = fs.createReadStream(null, { fd: fd2, start: 1, end: 5, highWaterMark: 4 });
  watch('r2', r2, ['data', 'end', 'close']);
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("src", []byte("0123456789abcdef"), nil))
		fd, err := fs.OpenSync("src", "r", 0)
		rev10sMust(t, err)
		_, err = fs.ReadSync(fd, make([]byte, 3), 0, 3, -1)
		rev10sMust(t, err)
		r, err := fs.CreateReadStream("", &nodefs.ReadStreamOptions{Fd: fd, HasFd: true, End: 5, HasEnd: true, HighWaterMark: 4})
		rev10sMust(t, err)
		rev10sWatch(log, "r", r, "open", "ready", "data", "end", "close", "error")
		r.On("close", func(...any) {
			log("bytesRead %d", r.BytesRead)
			fd2, err := fs.OpenSync("src", "r", 0)
			rev10sMust(t, err)
			_, err = fs.ReadSync(fd2, make([]byte, 3), 0, 3, -1)
			rev10sMust(t, err)
			r2, err := fs.CreateReadStream("", &nodefs.ReadStreamOptions{Fd: fd2, HasFd: true, Start: 1, HasStart: true, End: 5, HasEnd: true, HighWaterMark: 4})
			rev10sMust(t, err)
			rev10sWatch(log, "r2", r2, "data", "end", "close")
		})
	})
}

// A WriteStream's "drain" comes before the callback of the write that emptied it (Node's
// afterWrite), and writes made in "open" and "ready" listeners wait for the end of the
// construct: they go out with the ones made before, as one writev.
func TestRev10sWriteStreamDrainBeforeCallback(t *testing.T) {
	const js = `
const w = fs.createWriteStream('out', { highWaterMark: 5 });
console.log('write', w.write('0'));
w.on('open', () => {
  console.log('open');
  w.write('ab', (e) => console.log('cb ab', code(e), w.writableLength));
  process.nextTick(() => w.write('cd', (e) => console.log('cb cd', code(e), w.writableLength)));
});
w.on('ready', () => console.log('write in ready', w.write('efg', (e) => {
  console.log('cb efg', code(e), w.writableLength);
  w.end('h', () => console.log('end cb'));
})));
watch('w', w, ['drain', 'finish', 'close', 'error']);
w.on('close', () => {
  console.log('file', fs.readFileSync('out', 'latin1'), w.bytesWritten);
  const w2 = fs.createWriteStream('out2', { highWaterMark: 5 });
  console.log('w2 write', w2.write('abcdef', (e) => console.log('w2 cb', code(e), w2.writableLength)));
  watch('w2', w2, ['drain', 'finish', 'close']);
  w2.on('drain', () => w2.end());
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		w, err := fs.CreateWriteStream("out", &nodefs.WriteStreamOptions{HighWaterMark: 5})
		rev10sMust(t, err)
		log("write %v", w.Write([]byte("0"), nil))
		w.On("open", func(...any) {
			log("open")
			w.Write([]byte("ab"), func(e error) { log("cb ab %s %d", rev10sCode(e), w.WritableLength()) })
			l.NextTick(func() {
				w.Write([]byte("cd"), func(e error) { log("cb cd %s %d", rev10sCode(e), w.WritableLength()) })
			})
		})
		w.On("ready", func(...any) {
			log("write in ready %v", w.Write([]byte("efg"), func(e error) {
				log("cb efg %s %d", rev10sCode(e), w.WritableLength())
				w.End([]byte("h"), func() { log("end cb") })
			}))
		})
		rev10sWatch(log, "w", w, "drain", "finish", "close", "error")
		w.On("close", func(...any) {
			b, _ := fs.ReadFileStringSync("out", "latin1")
			log("file %s %d", b, w.BytesWritten)
			w2, err := fs.CreateWriteStream("out2", &nodefs.WriteStreamOptions{HighWaterMark: 5})
			rev10sMust(t, err)
			log("w2 write %v", w2.Write([]byte("abcdef"), func(e error) { log("w2 cb %s %d", rev10sCode(e), w2.WritableLength()) }))
			rev10sWatch(log, "w2", w2, "drain", "finish", "close")
			w2.On("drain", func(...any) { w2.End(nil, nil) })
		})
	})
}

// WriteStream.destroy in each state, with a write and end(cb) pending: the callbacks get
// the stream's error (Destroy's) or, with none, ERR_STREAM_DESTROYED ("Cannot call end
// after a stream was destroyed" for end's), from a nextTick (Node's errorBuffer); a write
// in flight gets ERR_STREAM_DESTROYED, which then is the stream's error, and "error" is
// emitted with it even after destroy() (Node's onwriteError and close(stream, err || er)).
func TestRev10sWriteStreamDestroyCallbacks(t *testing.T) {
	const js = `
const cases = ['sync', 'open', 'ready', 'tick', 'inflight', 'finish', 'sync-err', 'ready-err', 'inflight-err'];
function next() {
  const when = cases.shift();
  if (!when) return;
  const n = when;
  const w = fs.createWriteStream('out', { highWaterMark: 4 });
  watch(n, w, ['open', 'ready', 'drain', 'finish', 'close', 'error']);
  const d = () => {
    w.destroy(n.endsWith('-err') ? new Error('boom') : undefined);
    console.log(n, 'destroy()', w.destroyed, w.writableFinished, w.writableLength);
  };
  const pend = () => {
    w.write('abc', (e) => console.log(n, 'cb abc', show(e)));
    w.write('def', (e) => console.log(n, 'cb def', show(e)));
    w.end('g', (e) => console.log(n, 'end cb', show(e)));
  };
  if (when.startsWith('sync')) { pend(); d(); }
  if (when === 'open') { pend(); w.once('open', d); }
  if (when.startsWith('ready')) { pend(); w.once('ready', d); }
  if (when === 'tick') { pend(); w.once('ready', () => process.nextTick(d)); }
  if (when.startsWith('inflight')) w.once('ready', () => process.nextTick(() => process.nextTick(() => { pend(); d(); })));
  if (when === 'finish') { pend(); w.once('finish', d); }
  w.on('close', () => {
    console.log(n, 'file', JSON.stringify(fs.readFileSync('out', 'latin1')), w.bytesWritten);
    fs.unlinkSync('out');
    setImmediate(next);
  });
}
next();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		cases := []string{"sync", "open", "ready", "tick", "inflight", "finish", "sync-err", "ready-err", "inflight-err"}
		var next func()
		next = func() {
			if len(cases) == 0 {
				return
			}
			n := cases[0]
			cases = cases[1:]
			w, err := fs.CreateWriteStream("out", &nodefs.WriteStreamOptions{HighWaterMark: 4})
			rev10sMust(t, err)
			rev10sWatch(log, n, w, "open", "ready", "drain", "finish", "close", "error")
			d := func() {
				var err error
				if strings.HasSuffix(n, "-err") {
					err = errors.New("boom")
				}
				w.Destroy(err)
				log("%s destroy() %v %v %d", n, w.Destroyed(), w.WritableFinished(), w.WritableLength())
			}
			pend := func() {
				w.Write([]byte("abc"), func(e error) { log("%s cb abc %s", n, rev10sShow(e)) })
				w.Write([]byte("def"), func(e error) { log("%s cb def %s", n, rev10sShow(e)) })
				w.EndErr([]byte("g"), func(e error) { log("%s end cb %s", n, rev10sShow(e)) })
			}
			switch {
			case strings.HasPrefix(n, "sync"):
				pend()
				d()
			case n == "open":
				pend()
				w.Once("open", func(...any) { d() })
			case strings.HasPrefix(n, "ready"):
				pend()
				w.Once("ready", func(...any) { d() })
			case n == "tick":
				pend()
				w.Once("ready", func(...any) { l.NextTick(d) })
			case strings.HasPrefix(n, "inflight"):
				w.Once("ready", func(...any) { l.NextTick(func() { l.NextTick(func() { pend(); d() }) }) })
			case n == "finish":
				pend()
				w.Once("finish", func(...any) { d() })
			}
			w.On("close", func(...any) {
				b, _ := fs.ReadFileStringSync("out", "latin1")
				log("%s file %s %d", n, rev10sJSON(b), w.BytesWritten)
				fs.UnlinkSync("out")
				l.SetImmediate(next)
			})
		}
		next()
	})
}

// A write that fails (EBADF: the descriptor is read-only) calls back with the error, the
// writes buffered behind it and end's callback get the same error (errorBuffer), then
// "error" and "close"; no "finish".
func TestRev10sWriteStreamWriteError(t *testing.T) {
	const js = `
fs.writeFileSync('ro', 'x');
const w = fs.createWriteStream(null, { fd: fs.openSync('ro', 'r') });
watch('w', w, ['open', 'ready', 'drain', 'finish', 'close', 'error']);
w.once('ready', () => console.log('never'));
process.nextTick(() => process.nextTick(() => {
  w.write('abc', (e) => console.log('cb abc', show(e)));
  w.write('def', (e) => console.log('cb def', show(e)));
  w.end((e) => console.log('end cb', show(e)));
}));
w.on('close', () => console.log('bytesWritten', w.bytesWritten, w.destroyed));
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("ro", []byte("x"), nil))
		fd, err := fs.OpenSync("ro", "r", 0)
		rev10sMust(t, err)
		w, err := fs.CreateWriteStream("", &nodefs.WriteStreamOptions{Fd: fd, HasFd: true})
		rev10sMust(t, err)
		rev10sWatch(log, "w", w, "open", "ready", "drain", "finish", "close", "error")
		w.Once("ready", func(...any) { log("never") })
		l.NextTick(func() {
			l.NextTick(func() {
				w.Write([]byte("abc"), func(e error) { log("cb abc %s", rev10sShow(e)) })
				w.Write([]byte("def"), func(e error) { log("cb def %s", rev10sShow(e)) })
				w.EndErr(nil, func(e error) { log("end cb %s", rev10sShow(e)) })
			})
		})
		w.On("close", func(...any) { log("bytesWritten %d %v", w.BytesWritten, w.Destroyed()) })
	})
}

// ReadStream.destroy in each state (before the open, in "open", in "ready", a tick after,
// in "data", in "end", in "close"): the events and flags; then autoClose false on both
// kinds (no "close" after "end"/"finish"; the descriptor stays until destroy), and
// WriteStream.close(cb) on an open and on a closed stream.
func TestRev10sStreamDestroyStates(t *testing.T) {
	const js = `
fs.writeFileSync('src', '0123456789abcdef');
const steps = [];
for (const when of ['sync', 'open', 'ready', 'tick', 'data', 'end', 'close']) steps.push((done) => {
  const r = fs.createReadStream('src', { highWaterMark: 6 });
  const n = 'rd-' + when;
  watch(n, r, ['open', 'ready', 'data', 'end', 'close', 'error', 'pause', 'resume']);
  const d = () => { r.destroy(); console.log(n, 'destroy()', r.destroyed, r.readableEnded, r.isPaused()); };
  if (when === 'sync') d();
  if (when === 'open') r.once('open', d);
  if (when === 'ready') r.once('ready', d);
  if (when === 'tick') r.once('open', () => process.nextTick(d));
  if (when === 'data') r.once('data', d);
  if (when === 'end') r.once('end', d);
  if (when === 'close') r.once('close', d);
  r.on('close', () => setImmediate(done));
});
steps.push((done) => {
  const r = fs.createReadStream('src', { autoClose: false });
  watch('rac', r, ['open', 'end', 'close', 'error']);
  r.on('data', () => {});
  r.on('end', () => setImmediate(() => {
    console.log('rac after end', r.fd !== null, r.destroyed);
    r.destroy();
  }));
  r.on('close', () => { console.log('rac closed', r.fd); done(); });
});
steps.push((done) => {
  const w = fs.createWriteStream('out', { autoClose: false });
  watch('wac', w, ['open', 'finish', 'close', 'error']);
  w.write('hi');
  w.close(() => {
    console.log('wac close cb', w.fd);
    w.close(() => { console.log('wac close cb again'); done(); });
  });
});
steps.push((done) => {
  const r = fs.createReadStream('missing', { autoClose: false });
  watch('rerr', r, ['open', 'error', 'close', 'end']);
  r.on('data', () => {});
  r.on('error', () => setImmediate(() => { console.log('rerr destroyed', r.destroyed, r.readable); r.destroy(); }));
  r.on('close', () => {
    const w = fs.createWriteStream('out', { autoClose: false });
    watch('werr', w, ['open', 'error', 'close', 'finish']);
    w.end('a');
    w.write('b', (e) => console.log('werr cb', show(e)));
    w.on('error', () => { console.log('werr destroyed', w.destroyed, w.writableFinished); w.destroy(); });
    w.on('close', () => { console.log('werr file', JSON.stringify(fs.readFileSync('out', 'latin1'))); done(); });
  });
});
function next() { const f = steps.shift(); if (f) f(next); }
next();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("src", []byte("0123456789abcdef"), nil))
		var steps []func(done func())
		for _, when := range []string{"sync", "open", "ready", "tick", "data", "end", "close"} {
			steps = append(steps, func(done func()) {
				r, err := fs.CreateReadStream("src", &nodefs.ReadStreamOptions{HighWaterMark: 6})
				rev10sMust(t, err)
				n := "rd-" + when
				rev10sWatch(log, n, r, "open", "ready", "data", "end", "close", "error", "pause", "resume")
				d := func(...any) {
					r.Destroy(nil)
					log("%s destroy() %v %v %v", n, r.Destroyed(), r.ReadableEnded(), r.IsPaused())
				}
				switch when {
				case "sync":
					d()
				case "open", "ready", "data", "end", "close":
					r.Once(when, d)
				case "tick":
					r.Once("open", func(...any) { l.NextTick(func() { d() }) })
				}
				r.On("close", func(...any) { l.SetImmediate(done) })
			})
		}
		steps = append(steps, func(done func()) {
			r, err := fs.CreateReadStream("src", &nodefs.ReadStreamOptions{NoAutoClose: true})
			rev10sMust(t, err)
			rev10sWatch(log, "rac", r, "open", "end", "close", "error")
			r.OnData(func([]byte) {})
			r.On("end", func(...any) {
				l.SetImmediate(func() {
					log("rac after end %v %v", r.Fd() >= 0, r.Destroyed())
					r.Destroy(nil)
				})
			})
			r.On("close", func(...any) { log("rac closed %s", rev10sFd(r.Fd())); done() })
		})
		steps = append(steps, func(done func()) {
			w, err := fs.CreateWriteStream("out", &nodefs.WriteStreamOptions{NoAutoClose: true})
			rev10sMust(t, err)
			rev10sWatch(log, "wac", w, "open", "finish", "close", "error")
			w.Write([]byte("hi"), nil)
			w.Close(func() {
				log("wac close cb %s", rev10sFd(w.Fd()))
				w.Close(func() { log("wac close cb again"); done() })
			})
		})
		steps = append(steps, func(done func()) {
			r, err := fs.CreateReadStream("missing", &nodefs.ReadStreamOptions{NoAutoClose: true})
			rev10sMust(t, err)
			rev10sWatch(log, "rerr", r, "open", "error", "close", "end")
			r.OnData(func([]byte) {})
			r.On("error", func(...any) {
				l.SetImmediate(func() { log("rerr destroyed %v %v", r.Destroyed(), r.Readable()); r.Destroy(nil) })
			})
			r.On("close", func(...any) {
				w, err := fs.CreateWriteStream("out", &nodefs.WriteStreamOptions{NoAutoClose: true})
				rev10sMust(t, err)
				rev10sWatch(log, "werr", w, "open", "error", "close", "finish")
				w.End([]byte("a"), nil)
				w.Write([]byte("b"), func(e error) { log("werr cb %s", rev10sShow(e)) })
				w.On("error", func(...any) {
					log("werr destroyed %v %v", w.Destroyed(), w.WritableFinished())
					w.Destroy(nil)
				})
				w.On("close", func(...any) {
					b, _ := fs.ReadFileStringSync("out", "latin1")
					log("werr file %s", rev10sJSON(b))
					done()
				})
			})
		})
		rev10sSteps(steps)
	})
}

// rev10sFd shows a descriptor as node's stream.fd: null once closed.
func rev10sFd(fd int) string {
	if fd < 0 {
		return "null"
	}
	return "N"
}

// rev10sByStream puts the lines in the order of their first two words (the side and the
// stream), stably: each stream's events in their order, as two streams' completions (a
// file's close on the work pool, a socket's shutdown) come in no fixed order.
func rev10sByStream(lines []string) []string {
	key := func(s string) string {
		f := strings.Fields(s)
		if len(f) < 2 {
			return s
		}
		return f[0] + " " + f[1]
	}
	out := append([]string(nil), lines...)
	sort.SliceStable(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out
}

// A file piped into a socket, and the socket piped into a file with a small high-water mark
// (backpressure pauses the socket): each stream's "pipe", "unpipe", "end", "finish" and
// "close" in order, and the copy is the file.
func TestRev10sPipeFileSocketFile(t *testing.T) {
	const js = `
const net = require('net');
const data = Buffer.alloc(300 * 1024);
for (let i = 0; i < data.length; i++) data[i] = (i * 7) & 255;
fs.writeFileSync('src', data);
const server = net.createServer((sock) => {
  const w = fs.createWriteStream('dst', { highWaterMark: 1024 });
  watchEv('server w', w, ['pipe', 'unpipe', 'finish', 'close', 'error']);
  watchEv('server sock', sock, ['end', 'finish', 'close', 'error']);
  let pauses = 0;
  sock.on('pause', () => pauses++);
  sock.pipe(w);
  w.on('close', () => {
    console.log('server w same', fs.readFileSync('dst').equals(data), pauses > 0, w.bytesWritten);
    server.close();
  });
});
server.listen(0, '127.0.0.1', () => {
  const c = net.connect(server.address().port, '127.0.0.1');
  const r = fs.createReadStream('src', { highWaterMark: 16384 });
  watchEv('client r', r, ['open', 'end', 'close', 'error']);
  watchEv('client c', c, ['pipe', 'unpipe', 'finish', 'end', 'close', 'error']);
  r.pipe(c);
  c.on('close', () => console.log('client c bytesWritten', c.bytesWritten));
});
`
	rev10sDiffBy(t, js, rev10sByStream, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		data := make([]byte, 300<<10)
		for i := range data {
			data[i] = byte(i * 7)
		}
		rev10sMust(t, fs.WriteFileSync("src", data, nil))
		var server *nodenet.Server
		server = nodenet.CreateServer(l, func(sock *nodenet.Socket) {
			w, err := fs.CreateWriteStream("dst", &nodefs.WriteStreamOptions{HighWaterMark: 1024})
			rev10sMust(t, err)
			rev10sWatchEv(log, "server w", w, "pipe", "unpipe", "finish", "close", "error")
			rev10sWatchEv(log, "server sock", sock, "end", "finish", "close", "error")
			pauses := 0
			sock.On("pause", func(...any) { pauses++ })
			sock.Pipe(w, true)
			w.On("close", func(...any) {
				b, _ := fs.ReadFileSync("dst")
				log("server w same %v %v %d", string(b) == string(data), pauses > 0, w.BytesWritten)
				server.Close(nil)
			})
		})
		server.OnError(func(err error) { t.Errorf("server error: %v", err) })
		server.Listen(0, "127.0.0.1", func() {
			c := nodenet.Connect(l, server.Address().Port, "127.0.0.1", nil)
			r, err := fs.CreateReadStream("src", &nodefs.ReadStreamOptions{HighWaterMark: 16384})
			rev10sMust(t, err)
			rev10sWatchEv(log, "client r", r, "open", "end", "close", "error")
			rev10sWatchEv(log, "client c", c, "pipe", "unpipe", "finish", "end", "close", "error")
			r.Pipe(c, true)
			c.On("close", func(...any) { log("client c bytesWritten %d", c.BytesWritten()) })
		})
	})
}

// Read ranges at the edges (start past the end, end 0, start == end), a directory (EISDIR
// from the read, after "open"), pending and bytesRead; a WriteStream's empty write, two
// end(cb), and end(cb) after "finish" and after "close" (ERR_STREAM_ALREADY_FINISHED).
func TestRev10sStreamEdges(t *testing.T) {
	const js = `
fs.writeFileSync('src', '0123456789');
fs.mkdirSync('dir');
const steps = [];
const opts = { past: { start: 20 }, zero: { end: 0 }, one: { start: 3, end: 3 }, dir: null };
for (const [n, o] of Object.entries(opts)) steps.push((done) => {
  const r = fs.createReadStream(n === 'dir' ? 'dir' : 'src', o || undefined);
  console.log(n, 'pending', r.pending, r.path);
  watch(n, r, ['open', 'data', 'end', 'close', 'error']);
  r.on('open', () => console.log(n, 'pending at open', r.pending));
  r.on('close', () => { console.log(n, 'bytesRead', r.bytesRead, 'pending', r.pending); done(); });
});
steps.push((done) => {
  const w = fs.createWriteStream('out');
  watch('w', w, ['open', 'finish', 'close', 'error']);
  console.log('w write empty', w.write(''), w.pending);
  w.end('x', (e) => console.log('w end cb', show(e)));
  w.end((e) => console.log('w end cb2', show(e)));
  w.on('finish', () => w.end((e) => console.log('w end after finish', show(e))));
  w.on('close', () => {
    w.end((e) => console.log('w end after close', show(e)));
    console.log('w bytesWritten', w.bytesWritten, w.pending);
    done();
  });
});
function next() { const f = steps.shift(); if (f) f(next); }
next();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("src", []byte("0123456789"), nil))
		_, err := fs.MkdirSync("dir", nil)
		rev10sMust(t, err)
		var steps []func(done func())
		for _, c := range []struct {
			name string
			opts *nodefs.ReadStreamOptions
		}{
			{"past", &nodefs.ReadStreamOptions{Start: 20, HasStart: true}},
			{"zero", &nodefs.ReadStreamOptions{End: 0, HasEnd: true}},
			{"one", &nodefs.ReadStreamOptions{Start: 3, HasStart: true, End: 3, HasEnd: true}},
			{"dir", nil},
		} {
			steps = append(steps, func(done func()) {
				p := "src"
				if c.name == "dir" {
					p = "dir"
				}
				r, err := fs.CreateReadStream(p, c.opts)
				rev10sMust(t, err)
				n := c.name
				log("%s pending %v %s", n, r.Pending(), r.Path())
				rev10sWatch(log, n, r, "open", "data", "end", "close", "error")
				r.On("open", func(...any) { log("%s pending at open %v", n, r.Pending()) })
				r.On("close", func(...any) {
					log("%s bytesRead %d pending %v", n, r.BytesRead, r.Pending())
					done()
				})
			})
		}
		steps = append(steps, func(done func()) {
			w, err := fs.CreateWriteStream("out", nil)
			rev10sMust(t, err)
			rev10sWatch(log, "w", w, "open", "finish", "close", "error")
			log("w write empty %v %v", w.Write([]byte{}, nil), w.Pending())
			w.EndErr([]byte("x"), func(e error) { log("w end cb %s", rev10sShow(e)) })
			w.EndErr(nil, func(e error) { log("w end cb2 %s", rev10sShow(e)) })
			w.On("finish", func(...any) {
				w.EndErr(nil, func(e error) { log("w end after finish %s", rev10sShow(e)) })
			})
			w.On("close", func(...any) {
				w.EndErr(nil, func(e error) { log("w end after close %s", rev10sShow(e)) })
				log("w bytesWritten %d %v", w.BytesWritten, w.Pending())
				done()
			})
		})
		rev10sSteps(steps)
	})
}

// emitClose: false on both kinds (no "close"; closed turns true once the descriptor is
// closed) and flush: true (the descriptor is fsync'ed, then closed; the events are the
// same).
func TestRev10sEmitCloseFlush(t *testing.T) {
	const js = `
const w = fs.createWriteStream('out', { emitClose: false, flush: true });
for (const ev of ['open', 'finish', 'close', 'error']) w.on(ev, () => console.log('w', ev, w.closed, w.destroyed));
w.end('x');
const poll = () => {
  if (!w.closed) { setImmediate(poll); return; }
  console.log('w closed', w.closed, w.pending, fs.readFileSync('out', 'latin1'));
  const r = fs.createReadStream('out', { emitClose: false });
  for (const ev of ['open', 'end', 'close', 'error']) r.on(ev, () => console.log('r', ev, r.closed, r.destroyed));
  r.resume();
  const poll2 = () => {
    if (!r.closed) { setImmediate(poll2); return; }
    console.log('r closed', r.closed, r.pending);
    const w2 = fs.createWriteStream('out2', { flush: true });
    for (const ev of ['open', 'finish', 'close', 'error']) w2.on(ev, () => console.log('w2', ev, w2.closed, w2.destroyed));
    w2.end('y');
    w2.on('close', () => console.log('w2 file', fs.readFileSync('out2', 'latin1')));
  };
  poll2();
};
poll();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		w, err := fs.CreateWriteStream("out", &nodefs.WriteStreamOptions{NoEmitClose: true, Flush: true})
		rev10sMust(t, err)
		for _, ev := range []string{"open", "finish", "close", "error"} {
			w.On(ev, func(...any) { log("w %s %v %v", ev, w.Closed(), w.Destroyed()) })
		}
		w.End([]byte("x"), nil)
		var poll func()
		poll = func() {
			if !w.Closed() {
				l.SetImmediate(poll)
				return
			}
			b, _ := fs.ReadFileStringSync("out", "latin1")
			log("w closed %v %v %s", w.Closed(), w.Pending(), b)
			r, err := fs.CreateReadStream("out", &nodefs.ReadStreamOptions{NoEmitClose: true})
			rev10sMust(t, err)
			for _, ev := range []string{"open", "end", "close", "error"} {
				r.On(ev, func(...any) { log("r %s %v %v", ev, r.Closed(), r.Destroyed()) })
			}
			r.Resume()
			var poll2 func()
			poll2 = func() {
				if !r.Closed() {
					l.SetImmediate(poll2)
					return
				}
				log("r closed %v %v", r.Closed(), r.Pending())
				w2, err := fs.CreateWriteStream("out2", &nodefs.WriteStreamOptions{Flush: true})
				rev10sMust(t, err)
				for _, ev := range []string{"open", "finish", "close", "error"} {
					w2.On(ev, func(...any) { log("w2 %s %v %v", ev, w2.Closed(), w2.Destroyed()) })
				}
				w2.End([]byte("y"), nil)
				w2.On("close", func(...any) {
					b, _ := fs.ReadFileStringSync("out2", "latin1")
					log("w2 file %s", b)
				})
			}
			poll2()
		}
		poll()
	})
}

// stream.pipeline from a file into a socket and from the socket into a file: each stream's
// events and each callback's error, with a file that is missing on the second connection
// (the socket is destroyed with ENOENT).
func TestRev10sPipelineFileSocket(t *testing.T) {
	const js = `
const net = require('net');
const { pipeline } = require('stream');
fs.writeFileSync('src', Buffer.alloc(200000, 'z'));
let n = 0;
function watchE(name, s, events) {
  for (const ev of events) s.on(ev, (e) => console.log(name + ' ' + ev + (e instanceof Error ? ' ' + show(e) : '')));
}
const server = net.createServer((sock) => {
  const k = n++;
  const w = fs.createWriteStream('dst' + k);
  watchE('server' + k + ' w', w, ['finish', 'close', 'error']);
  watchE('server' + k + ' sock', sock, ['end', 'finish', 'close', 'error']);
  pipeline(sock, w, (err) => {
    console.log('server' + k + ' pipeline', err ? show(err) : 'null', fs.statSync('dst' + k).size);
    if (k === 1) server.close();
  });
});
server.listen(0, '127.0.0.1', () => {
  const c = net.connect(server.address().port, '127.0.0.1');
  const r = fs.createReadStream('src');
  watchE('client0 r', r, ['end', 'close', 'error']);
  watchE('client0 c', c, ['finish', 'end', 'close', 'error']);
  pipeline(r, c, (err) => {
    console.log('client0 pipeline', err ? show(err) : 'null');
    const c1 = net.connect(server.address().port, '127.0.0.1');
    const r1 = fs.createReadStream('missing');
    watchE('client1 r', r1, ['end', 'close', 'error']);
    watchE('client1 c', c1, ['finish', 'end', 'close', 'error']);
    pipeline(r1, c1, (err) => console.log('client1 pipeline', show(err), c1.destroyed));
  });
});
`
	rev10sDiffBy(t, js, rev10sByStream, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("src", []byte(strings.Repeat("z", 200000)), nil))
		watchE := func(name string, s nodenet.Emitter, events ...string) {
			for _, ev := range events {
				s.On(ev, func(a ...any) {
					if len(a) > 0 {
						if err, ok := a[0].(error); ok {
							log("%s %s %s", name, ev, rev10sShow(err))
							return
						}
					}
					log("%s %s", name, ev)
				})
			}
		}
		n := 0
		var server *nodenet.Server
		server = nodenet.CreateServer(l, func(sock *nodenet.Socket) {
			k := n
			n++
			name := fmt.Sprintf("server%d", k)
			dst := fmt.Sprintf("dst%d", k)
			w, err := fs.CreateWriteStream(dst, nil)
			rev10sMust(t, err)
			watchE(name+" w", w, "finish", "close", "error")
			watchE(name+" sock", sock, "end", "finish", "close", "error")
			nodenet.Pipeline(func(err error) {
				st, _ := fs.StatSync(dst)
				log("%s pipeline %s %d", name, rev10sShow(err), st.Size)
				if k == 1 {
					server.Close(nil)
				}
			}, sock, w)
		})
		server.OnError(func(err error) { t.Errorf("server error: %v", err) })
		server.Listen(0, "127.0.0.1", func() {
			port := server.Address().Port
			c := nodenet.Connect(l, port, "127.0.0.1", nil)
			r, err := fs.CreateReadStream("src", nil)
			rev10sMust(t, err)
			watchE("client0 r", r, "end", "close", "error")
			watchE("client0 c", c, "finish", "end", "close", "error")
			nodenet.Pipeline(func(err error) {
				log("client0 pipeline %s", rev10sShow(err))
				c1 := nodenet.Connect(l, port, "127.0.0.1", nil)
				r1, err := fs.CreateReadStream("missing", nil)
				rev10sMust(t, err)
				watchE("client1 r", r1, "end", "close", "error")
				watchE("client1 c", c1, "finish", "end", "close", "error")
				nodenet.Pipeline(func(err error) { log("client1 pipeline %s %v", rev10sShow(err), c1.Destroyed()) }, r1, c1)
			}, r, c)
		})
	})
}

// createReadStream's encoding "buffer" passes the options' check but not the stream's
// StringDecoder: ERR_UNKNOWN_ENCODING is thrown (returned), as setEncoding("buffer") does.
func TestRev10sReadStreamEncodingBuffer(t *testing.T) {
	const js = `
fs.writeFileSync('s', 'hi');
try { fs.createReadStream('s', { encoding: 'buffer' }); console.log('no throw'); } catch (e) { console.log('threw', show(e)); }
const r = fs.createReadStream('s');
try { r.setEncoding('buffer'); console.log('no throw'); } catch (e) { console.log('threw', show(e)); }
r.destroy();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("s", []byte("hi"), nil))
		if r, err := fs.CreateReadStream("s", &nodefs.ReadStreamOptions{Encoding: "buffer"}); err != nil {
			log("threw %s", rev10sShow(err))
		} else {
			log("no throw")
			r.Destroy(nil)
		}
		r, err := fs.CreateReadStream("s", nil)
		rev10sMust(t, err)
		if err := r.SetEncoding("buffer"); err != nil {
			log("threw %s", rev10sShow(err))
		} else {
			log("no throw")
		}
		r.Destroy(nil)
	})
}

// An unknown flag is not thrown by createReadStream/createWriteStream: the open in the
// construct throws it, and the stream emits it ("error", then "close"); with a descriptor
// the flags are not used.
func TestRev10sStreamBadFlags(t *testing.T) {
	const js = `
fs.writeFileSync('s', 'hi');
let r;
try { r = fs.createReadStream('s', { flags: 'zz' }); console.log('r no throw'); } catch (e) { console.log('r threw', show(e)); }
watch('r', r, ['open', 'error', 'close']);
r.on('close', () => {
  let w;
  try { w = fs.createWriteStream('o', { flags: 'zz' }); console.log('w no throw'); } catch (e) { console.log('w threw', show(e)); }
  watch('w', w, ['open', 'error', 'close']);
  w.on('close', () => {
    const f = fs.createReadStream(null, { fd: fs.openSync('s', 'r'), flags: 'zz' });
    watch('f', f, ['data', 'error', 'close']);
  });
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("s", []byte("hi"), nil))
		r, err := fs.CreateReadStream("s", &nodefs.ReadStreamOptions{Flags: "zz"})
		if err != nil {
			log("r threw %s", rev10sShow(err))
			return
		}
		log("r no throw")
		rev10sWatch(log, "r", r, "open", "error", "close")
		r.On("close", func(...any) {
			w, err := fs.CreateWriteStream("o", &nodefs.WriteStreamOptions{Flags: "zz"})
			if err != nil {
				log("w threw %s", rev10sShow(err))
				return
			}
			log("w no throw")
			rev10sWatch(log, "w", w, "open", "error", "close")
			w.On("close", func(...any) {
				fd, err := fs.OpenSync("s", "r", 0)
				rev10sMust(t, err)
				f, err := fs.CreateReadStream("", &nodefs.ReadStreamOptions{Fd: fd, HasFd: true, Flags: "zz"})
				if err != nil {
					log("f threw %s", rev10sShow(err))
					fs.CloseSync(fd)
					return
				}
				rev10sWatch(log, "f", f, "data", "error", "close")
			})
		})
	})
}

// What the stream constructors throw (a NUL byte in the path, a negative fd, a negative
// highWaterMark on either kind) and what they emit (an empty path: ENOENT from the open).
func TestRev10sStreamConstructorErrors(t *testing.T) {
	const js = `
const cases = [
  ['empty r', () => fs.createReadStream('')],
  ['empty w', () => fs.createWriteStream('')],
  ['nul r', () => fs.createReadStream('a\0b')],
  ['nul w', () => fs.createWriteStream('a\0b')],
  ['fd -1 r', () => fs.createReadStream(null, { fd: -1 })],
  ['fd -1 w', () => fs.createWriteStream(null, { fd: -1 })],
  ['hwm -1 r', () => fs.createReadStream('x', { highWaterMark: -1 })],
  ['hwm -1 w', () => fs.createWriteStream('x', { highWaterMark: -1 })],
];
function next() {
  const c = cases.shift();
  if (!c) return;
  const [n, f] = c;
  let s;
  try { s = f(); } catch (e) { console.log(n, 'threw', show(e)); next(); return; }
  console.log(n, 'no throw');
  watch(n, s, ['open', 'error', 'close']);
  s.on('close', next);
}
next();
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		type mk func() (nodenet.Emitter, error)
		r := func(p string, o *nodefs.ReadStreamOptions) mk {
			return func() (nodenet.Emitter, error) { return fs.CreateReadStream(p, o) }
		}
		w := func(p string, o *nodefs.WriteStreamOptions) mk {
			return func() (nodenet.Emitter, error) { return fs.CreateWriteStream(p, o) }
		}
		cases := []struct {
			name string
			f    mk
		}{
			{"empty r", r("", nil)},
			{"empty w", w("", nil)},
			{"nul r", r("a\x00b", nil)},
			{"nul w", w("a\x00b", nil)},
			{"fd -1 r", r("", &nodefs.ReadStreamOptions{Fd: -1, HasFd: true})},
			{"fd -1 w", w("", &nodefs.WriteStreamOptions{Fd: -1, HasFd: true})},
			{"hwm -1 r", r("x", &nodefs.ReadStreamOptions{HighWaterMark: -1})},
			{"hwm -1 w", w("x", &nodefs.WriteStreamOptions{HighWaterMark: -1})},
		}
		var next func()
		next = func() {
			if len(cases) == 0 {
				return
			}
			c := cases[0]
			cases = cases[1:]
			s, err := c.f()
			if err != nil {
				log("%s threw %s", c.name, rev10sShow(err))
				next()
				return
			}
			log("%s no throw", c.name)
			rev10sWatch(log, c.name, s, "open", "error", "close")
			s.On("close", func(...any) { next() })
		}
		next()
	})
}

// A pipe's "error" listener on its destination comes before the others (Node prepends it):
// when the destination fails (EBADF: a read-only descriptor), the source is paused and
// "unpipe" emitted before the user's "error" listener runs.
func TestRev10sPipeErrorListenerFirst(t *testing.T) {
	const js = `
fs.writeFileSync('s', 'hello');
fs.writeFileSync('ro', '');
const r = fs.createReadStream('s');
const w = fs.createWriteStream(null, { fd: fs.openSync('ro', 'r') });
w.on('error', (e) => console.log('w error', e.code, r.isPaused()));
w.on('unpipe', () => console.log('w unpipe'));
w.on('close', () => { console.log('w close'); r.destroy(); });
r.on('pause', () => console.log('r pause'));
r.pipe(w);
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("s", []byte("hello"), nil))
		rev10sMust(t, fs.WriteFileSync("ro", nil, nil))
		r, err := fs.CreateReadStream("s", nil)
		rev10sMust(t, err)
		fd, err := fs.OpenSync("ro", "r", 0)
		rev10sMust(t, err)
		w, err := fs.CreateWriteStream("", &nodefs.WriteStreamOptions{Fd: fd, HasFd: true})
		rev10sMust(t, err)
		w.On("error", func(a ...any) { log("w error %s %v", rev10sCode(a[0].(error)), r.IsPaused()) })
		w.On("unpipe", func(...any) { log("w unpipe") })
		w.On("close", func(...any) { log("w close"); r.Destroy(nil) })
		r.On("pause", func(...any) { log("r pause") })
		r.Pipe(w, true)
	})
}

// One socket piped into two files: the socket flows again only once every destination it
// waits for has drained (Node's awaitDrainWriters), so no "data" comes while either still
// needs to drain; both copies are whole.
func TestRev10sPipeTwoDestinations(t *testing.T) {
	const js = `
const net = require('net');
const data = Buffer.alloc(256 * 1024);
for (let i = 0; i < data.length; i++) data[i] = (i * 13) & 255;
const server = net.createServer((sock) => {
  const w1 = fs.createWriteStream('d1', { highWaterMark: 1024 });
  const w2 = fs.createWriteStream('d2', { highWaterMark: 1024 });
  let early = 0;
  sock.on('data', () => { if (w1.writableNeedDrain || w2.writableNeedDrain) early++; });
  sock.pipe(w1);
  sock.pipe(w2);
  let closed = 0;
  const onclose = () => {
    if (++closed < 2) return;
    console.log('server early data', early);
    console.log('server same', fs.readFileSync('d1').equals(data), fs.readFileSync('d2').equals(data));
    server.close();
  };
  w1.on('close', onclose);
  w2.on('close', onclose);
});
server.listen(0, '127.0.0.1', () => {
  const c = net.connect(server.address().port, '127.0.0.1');
  c.end(data);
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		data := make([]byte, 256<<10)
		for i := range data {
			data[i] = byte(i * 13)
		}
		var server *nodenet.Server
		server = nodenet.CreateServer(l, func(sock *nodenet.Socket) {
			w1, err := fs.CreateWriteStream("d1", &nodefs.WriteStreamOptions{HighWaterMark: 1024})
			rev10sMust(t, err)
			w2, err := fs.CreateWriteStream("d2", &nodefs.WriteStreamOptions{HighWaterMark: 1024})
			rev10sMust(t, err)
			early := 0
			sock.OnData(func([]byte) {
				if w1.WritableNeedDrain() || w2.WritableNeedDrain() {
					early++
				}
			})
			sock.Pipe(w1, true)
			sock.Pipe(w2, true)
			closed := 0
			onclose := func(...any) {
				if closed++; closed < 2 {
					return
				}
				log("server early data %d", early)
				b1, _ := fs.ReadFileSync("d1")
				b2, _ := fs.ReadFileSync("d2")
				log("server same %v %v", string(b1) == string(data), string(b2) == string(data))
				server.Close(nil)
			}
			w1.On("close", onclose)
			w2.On("close", onclose)
		})
		server.OnError(func(err error) { t.Errorf("server error: %v", err) })
		server.Listen(0, "127.0.0.1", func() {
			c := nodenet.Connect(l, server.Address().Port, "127.0.0.1", nil)
			c.End(data)
		})
	})
}

// unpipe() of a destination the source waits for (its write returned false): the source no
// longer waits for it and, having a "data" listener of its own, flows to the end (Node's
// cleanup calls pipeOnDrain); it must not stay paused.
func TestRev10sUnpipeWhileAwaitingDrain(t *testing.T) {
	const js = `
fs.writeFileSync('big', Buffer.alloc(100000, 'a'));
const r = fs.createReadStream('big', { highWaterMark: 1000 });
const w = fs.createWriteStream('o', { highWaterMark: 10 });
let n = 0;
r.on('data', () => { n++; });
r.on('end', () => console.log('end', n));
r.on('close', () => { console.log('r close'); w.end(); });
r.on('pause', () => console.log('pause', r.isPaused()));
r.pipe(w);
r.once('data', () => process.nextTick(() => {
  console.log('before unpipe', r.isPaused(), w.writableNeedDrain);
  r.unpipe(w);
  console.log('after unpipe', r.isPaused());
}));
w.on('close', () => console.log('w close'));
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("big", []byte(strings.Repeat("a", 100000)), nil))
		r, err := fs.CreateReadStream("big", &nodefs.ReadStreamOptions{HighWaterMark: 1000})
		rev10sMust(t, err)
		w, err := fs.CreateWriteStream("o", &nodefs.WriteStreamOptions{HighWaterMark: 10})
		rev10sMust(t, err)
		n := 0
		r.OnData(func([]byte) { n++ })
		r.On("end", func(...any) { log("end %d", n) })
		r.On("close", func(...any) { log("r close"); w.End(nil, nil) })
		r.On("pause", func(...any) { log("pause %v", r.IsPaused()) })
		r.Pipe(w, true)
		r.Once("data", func(...any) {
			l.NextTick(func() {
				log("before unpipe %v %v", r.IsPaused(), w.WritableNeedDrain())
				r.Unpipe(w)
				log("after unpipe %v", r.IsPaused())
			})
		})
		w.On("close", func(...any) { log("w close") })
	})
}

// stream.finished on a stream that already closed calls back (from a nextTick): nil after
// it ended or finished, ERR_STREAM_PREMATURE_CLOSE if it was destroyed before; a socket
// counts as closed once destroy() is called (socket.closed), before its "close".
func TestRev10sFinishedAfterClose(t *testing.T) {
	const js = `
const net = require('net');
const { finished } = require('stream');
fs.writeFileSync('s', 'hi');
const r = fs.createReadStream('s');
r.resume();
r.on('close', () => setImmediate(() => {
  finished(r, (e) => console.log('r finished', code(e)));
  const r2 = fs.createReadStream('s');
  r2.on('open', () => r2.destroy());
  r2.on('close', () => setImmediate(() => finished(r2, (e) => {
    console.log('r2 finished', code(e));
    const w = fs.createWriteStream('o');
    w.end('x');
    w.on('finish', () => finished(w, (e) => console.log('w finished from finish', code(e))));
    w.on('close', () => setImmediate(() => finished(w, (e) => {
      console.log('w finished after close', code(e));
      const server = net.createServer((s) => { s.resume(); s.on('end', () => s.end()); });
      server.listen(0, '127.0.0.1', () => {
        const c = net.connect(server.address().port, '127.0.0.1', () => {
          c.destroy();
          finished(c, (e) => console.log('c finished', code(e)));
          c.on('close', () => {
            console.log('c close');
            const d = net.connect(server.address().port, '127.0.0.1', () => d.end());
            d.resume();
            d.on('close', () => setImmediate(() => finished(d, (e) => {
              console.log('d finished', code(e));
              server.close();
            })));
          });
        });
      });
    })));
  })));
}));
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("s", []byte("hi"), nil))
		r, err := fs.CreateReadStream("s", nil)
		rev10sMust(t, err)
		r.Resume()
		r.On("close", func(...any) {
			l.SetImmediate(func() {
				nodenet.Finished(r, true, true, func(e error) { log("r finished %s", rev10sCode(e)) })
				r2, err := fs.CreateReadStream("s", nil)
				rev10sMust(t, err)
				r2.On("open", func(...any) { r2.Destroy(nil) })
				r2.On("close", func(...any) {
					l.SetImmediate(func() {
						nodenet.Finished(r2, true, true, func(e error) {
							log("r2 finished %s", rev10sCode(e))
							w, err := fs.CreateWriteStream("o", nil)
							rev10sMust(t, err)
							w.End([]byte("x"), nil)
							w.On("finish", func(...any) {
								nodenet.Finished(w, true, true, func(e error) { log("w finished from finish %s", rev10sCode(e)) })
							})
							w.On("close", func(...any) {
								l.SetImmediate(func() {
									nodenet.Finished(w, true, true, func(e error) {
										log("w finished after close %s", rev10sCode(e))
										rev10sFinishedSockets(t, l, log)
									})
								})
							})
						})
					})
				})
			})
		})
	})
}

// rev10sFinishedSockets is TestRev10sFinishedAfterClose's part with sockets.
func rev10sFinishedSockets(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
	var server *nodenet.Server
	server = nodenet.CreateServer(l, func(s *nodenet.Socket) {
		s.Resume()
		s.OnEnd(func() { s.End(nil) })
	})
	server.OnError(func(err error) { t.Errorf("server error: %v", err) })
	server.Listen(0, "127.0.0.1", func() {
		port := server.Address().Port
		var c *nodenet.Socket
		c = nodenet.Connect(l, port, "127.0.0.1", func() {
			c.Destroy(nil)
			nodenet.Finished(c, true, true, func(e error) { log("c finished %s", rev10sCode(e)) })
			c.OnClose(func(bool) {
				log("c close")
				var d *nodenet.Socket
				d = nodenet.Connect(l, port, "127.0.0.1", func() { d.End(nil) })
				d.Resume()
				d.OnClose(func(bool) {
					l.SetImmediate(func() {
						nodenet.Finished(d, true, true, func(e error) {
							log("d finished %s", rev10sCode(e))
							server.Close(nil)
						})
					})
				})
			})
		})
	})
}

// stream.finished does not wait for a "close" the stream will not emit: a socket (Node's
// have emitClose false) is done at its later "end"/"finish", a ReadStream with autoClose
// false or emitClose false at "end"; with autoClose the ReadStream is done at "close".
func TestRev10sFinishedWithoutClose(t *testing.T) {
	const js = `
const net = require('net');
const { finished } = require('stream');
fs.writeFileSync('s', 'hi');
const server = net.createServer((s) => { s.resume(); s.on('end', () => s.end()); });
server.listen(0, '127.0.0.1', () => {
  const d = net.connect(server.address().port, '127.0.0.1', () => d.end());
  d.resume();
  let ended = false, fin = false;
  d.on('end', () => { ended = true; });
  d.on('finish', () => { fin = true; });
  finished(d, (e) => console.log('finished d', code(e), ended, fin, d.destroyed));
  d.on('close', () => {
    console.log('d close');
    server.close();
    const r = fs.createReadStream('s', { autoClose: false });
    r.resume();
    finished(r, (e) => { console.log('finished r', code(e)); r.destroy(); });
    watch('r', r, ['end', 'close']);
    r.on('close', () => {
      const r2 = fs.createReadStream('s', { emitClose: false });
      r2.resume();
      finished(r2, (e) => {
        console.log('finished r2', code(e));
        const r3 = fs.createReadStream('s');
        r3.resume();
        finished(r3, (e) => console.log('finished r3', code(e)));
        watch('r3', r3, ['end', 'close']);
      });
      watch('r2', r2, ['end', 'close']);
    });
  });
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("s", []byte("hi"), nil))
		var server *nodenet.Server
		server = nodenet.CreateServer(l, func(s *nodenet.Socket) {
			s.Resume()
			s.OnEnd(func() { s.End(nil) })
		})
		server.OnError(func(err error) { t.Errorf("server error: %v", err) })
		server.Listen(0, "127.0.0.1", func() {
			var d *nodenet.Socket
			d = nodenet.Connect(l, server.Address().Port, "127.0.0.1", func() { d.End(nil) })
			d.Resume()
			ended, fin := false, false
			d.OnEnd(func() { ended = true })
			d.OnFinish(func() { fin = true })
			nodenet.Finished(d, true, true, func(e error) { log("finished d %s %v %v %v", rev10sCode(e), ended, fin, d.Destroyed()) })
			d.OnClose(func(bool) {
				log("d close")
				server.Close(nil)
				r, err := fs.CreateReadStream("s", &nodefs.ReadStreamOptions{NoAutoClose: true})
				rev10sMust(t, err)
				r.Resume()
				nodenet.Finished(r, true, true, func(e error) { log("finished r %s", rev10sCode(e)); r.Destroy(nil) })
				rev10sWatch(log, "r", r, "end", "close")
				r.On("close", func(...any) {
					r2, err := fs.CreateReadStream("s", &nodefs.ReadStreamOptions{NoEmitClose: true})
					rev10sMust(t, err)
					r2.Resume()
					nodenet.Finished(r2, true, true, func(e error) {
						log("finished r2 %s", rev10sCode(e))
						r3, err := fs.CreateReadStream("s", nil)
						rev10sMust(t, err)
						r3.Resume()
						nodenet.Finished(r3, true, true, func(e error) { log("finished r3 %s", rev10sCode(e)) })
						rev10sWatch(log, "r3", r3, "end", "close")
					})
					rev10sWatch(log, "r2", r2, "end", "close")
				})
			})
		})
	})
}

// With autoClose false a failed write leaves the stream errored, not destroyed: a write
// then buffers and returns false (Node's writeOrBuffer), its callback waits for the destroy,
// which gives it the stream's error.
func TestRev10sWriteAfterErrorNoAutoClose(t *testing.T) {
	const js = `
fs.writeFileSync('ro', '');
const w = fs.createWriteStream(null, { fd: fs.openSync('ro', 'r'), autoClose: false });
w.write('a', (e) => console.log('cb a', code(e)));
w.on('error', (e) => {
  console.log('error', code(e), w.destroyed, w.writable);
  console.log('write b', w.write('b', (e) => console.log('cb b', code(e))), w.writableLength);
  setImmediate(() => { console.log('destroy'); w.destroy(); });
});
w.on('close', () => console.log('close', w.writableLength));
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("ro", nil, nil))
		fd, err := fs.OpenSync("ro", "r", 0)
		rev10sMust(t, err)
		w, err := fs.CreateWriteStream("", &nodefs.WriteStreamOptions{Fd: fd, HasFd: true, NoAutoClose: true})
		rev10sMust(t, err)
		w.Write([]byte("a"), func(e error) { log("cb a %s", rev10sCode(e)) })
		w.On("error", func(a ...any) {
			log("error %s %v %v", rev10sCode(a[0].(error)), w.Destroyed(), w.Writable())
			ok := w.Write([]byte("b"), func(e error) { log("cb b %s", rev10sCode(e)) })
			log("write b %v %d", ok, w.WritableLength())
			l.SetImmediate(func() { log("destroy"); w.Destroy(nil) })
		})
		w.On("close", func(...any) { log("close %d", w.WritableLength()) })
	})
}

// destroy() from the last "data" (the decoder's U+FFFD for a character cut by the end of
// the file) does not take back the "end" already due: node emits it (its endReadableNT
// checks closeEmitted, not destroyed), then "close".
func TestRev10sDestroyInLastData(t *testing.T) {
	const js = `
fs.writeFileSync('cut', Buffer.from([0x68, 0xe2, 0x82]));
const r = fs.createReadStream('cut', { encoding: 'utf8' });
r.on('data', (d) => {
  console.log('data', JSON.stringify(d));
  if (d === '\ufffd') { r.destroy(); console.log('destroyed'); }
});
r.on('end', () => console.log('end', r.destroyed, r.readableEnded));
r.on('close', () => console.log('close'));
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("cut", []byte{0x68, 0xe2, 0x82}, nil))
		r, err := fs.CreateReadStream("cut", &nodefs.ReadStreamOptions{Encoding: "utf8"})
		rev10sMust(t, err)
		r.OnDataString(func(d string) {
			log("data %s", rev10sJSON(d))
			if d == "\uFFFD" {
				r.Destroy(nil)
				log("destroyed")
			}
		})
		r.On("end", func(...any) { log("end %v %v", r.Destroyed(), r.ReadableEnded()) })
		r.On("close", func(...any) { log("close") })
	})
}

// stream.pipeline(file, socket, file) through an echo server (the socket is the Duplex in
// the middle): each stream's events in order, the callback once with null, the copy whole.
func TestRev10sPipelineThroughSocket(t *testing.T) {
	const js = `
const net = require('net');
const { pipeline } = require('stream');
const data = Buffer.alloc(150000);
for (let i = 0; i < data.length; i++) data[i] = (i * 31) & 255;
fs.writeFileSync('src', data);
const server = net.createServer((sock) => { sock.pipe(sock); sock.on('close', () => server.close()); });
server.listen(0, '127.0.0.1', () => {
  const c = net.connect(server.address().port, '127.0.0.1');
  const r = fs.createReadStream('src');
  const w = fs.createWriteStream('dst');
  watchEv('client r', r, ['end', 'close', 'error']);
  watchEv('client w', w, ['finish', 'close', 'error']);
  watchEv('client c', c, ['end', 'finish', 'close', 'error']);
  pipeline(r, c, w, (err) => {
    console.log('client pipeline', code(err), fs.readFileSync('dst').equals(data));
  });
});
`
	rev10sDiffBy(t, js, rev10sByStream, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		data := make([]byte, 150000)
		for i := range data {
			data[i] = byte(i * 31)
		}
		rev10sMust(t, fs.WriteFileSync("src", data, nil))
		var server *nodenet.Server
		server = nodenet.CreateServer(l, func(sock *nodenet.Socket) {
			sock.Pipe(sock, true)
			sock.OnClose(func(bool) { server.Close(nil) })
		})
		server.OnError(func(err error) { t.Errorf("server error: %v", err) })
		server.Listen(0, "127.0.0.1", func() {
			c := nodenet.Connect(l, server.Address().Port, "127.0.0.1", nil)
			r, err := fs.CreateReadStream("src", nil)
			rev10sMust(t, err)
			w, err := fs.CreateWriteStream("dst", nil)
			rev10sMust(t, err)
			rev10sWatchEv(log, "client r", r, "end", "close", "error")
			rev10sWatchEv(log, "client w", w, "finish", "close", "error")
			rev10sWatchEv(log, "client c", c, "end", "finish", "close", "error")
			nodenet.Pipeline(func(err error) {
				b, _ := fs.ReadFileSync("dst")
				log("client pipeline %s %v", rev10sCode(err), string(b) == string(data))
			}, r, c, w)
		})
	})
}
