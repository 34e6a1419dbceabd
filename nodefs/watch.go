package nodefs

import (
	"path/filepath"
	"time"

	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// FSWatcher is what Watch returns, Node's fs.FSWatcher: it emits "change" (eventType
// "rename" or "change", filename), "error" (err) and, after Close, "close" from a nextTick.
type FSWatcher struct {
	nodenet.EventEmitter
	h         *uvloop.FSEvent
	closed    bool
	stopAbort func() bool
}

// Watch is fs.watch(filename, listener): listener, if not nil, is added for "change". An
// unwatchable path returns Node's error (ENOENT: no such file or directory, watch 'x').
func (f *FS) Watch(filename string, listener func(eventType, filename string)) (*FSWatcher, error) {
	return f.WatchWith(filename, nil, listener)
}

// WatchOptions are the options of fs.watch that uvgo has. A nil *WatchOptions is Node's
// default.
type WatchOptions struct {
	// Signal, if not nil, closes the watcher when aborted, as watcher.Close does ("close"
	// follows on a nextTick); a signal aborted already closes it on a nextTick.
	Signal *nodeevents.AbortSignal
}

// WatchWith is fs.watch(filename, {signal}, listener).
func (f *FS) WatchWith(filename string, opts *WatchOptions, listener func(eventType, filename string)) (*FSWatcher, error) {
	if err := checkPath("path", filename); err != nil {
		return nil, err
	}
	w := &FSWatcher{h: f.loop.NewFSEvent()}
	if listener != nil {
		w.OnChange(listener)
	}
	err := w.h.Start(filename, func(_ *uvloop.FSEvent, name string, events int, err error) {
		if err != nil {
			w.Close()
			w.Emit("error", fromErr(err))
			return
		}
		kind := "change"
		if events&uvloop.FSRename != 0 {
			kind = "rename"
		}
		w.Emit("change", kind, name)
	})
	if err != nil {
		w.h.Close(nil)
		return nil, fromErr(err)
	}
	if opts != nil && opts.Signal != nil {
		sig := opts.Signal
		if sig.Aborted() {
			f.loop.NextTick(w.Close)
		} else {
			w.stopAbort = sig.Watch(func(error) { w.Close() })
		}
	}
	return w, nil
}

// OnChange adds a "change" listener.
func (w *FSWatcher) OnChange(fn func(eventType, filename string)) *nodenet.Listener {
	return w.On("change", func(a ...any) { fn(a[0].(string), a[1].(string)) })
}

// Close is watcher.close(): it stops watching; "close" follows on a nextTick.
func (w *FSWatcher) Close() {
	if w.closed {
		return
	}
	w.closed = true
	if w.stopAbort != nil {
		w.stopAbort()
	}
	w.h.Close(nil)
	w.h.Loop().NextTick(func() { w.Emit("close") })
}

// Ref is watcher.ref(). Unref is watcher.unref(): the watcher no longer keeps the loop alive.
func (w *FSWatcher) Ref() *FSWatcher   { w.h.Ref(); return w }
func (w *FSWatcher) Unref() *FSWatcher { w.h.Unref(); return w }

// StatWatcher is what WatchFile returns, Node's fs.StatWatcher: it emits "change" (curr,
// prev *Stats) when a stat every interval differs, and zeroed Stats when the file is
// missing (once).
type StatWatcher struct {
	nodenet.EventEmitter
	h        *uvloop.FSPoll
	filename string
	fs       *FS
}

// WatchFile is fs.watchFile(filename, {interval}, listener); interval 0 is Node's default,
// 5007 ms. Calling it again for the same file, however its path is spelled ('f', './f',
// its absolute path: Node's path.resolve), adds the listener to the same watcher.
func (f *FS) WatchFile(filename string, interval time.Duration, listener func(curr, prev *Stats)) (*StatWatcher, error) {
	if listener == nil {
		return nil, argError("ERR_INVALID_ARG_TYPE", `The "listener" argument must be of type function. Received undefined`)
	}
	if err := checkPath("path", filename); err != nil {
		return nil, err
	}
	if interval <= 0 {
		interval = 5007 * time.Millisecond
	}
	filename = resolvePath(filename)
	if f.statWatchers == nil {
		f.statWatchers = make(map[string]*StatWatcher)
	}
	w := f.statWatchers[filename]
	if w == nil {
		w = &StatWatcher{h: f.loop.NewFSPoll(), filename: filename, fs: f}
		if err := w.h.Start(filename, interval, func(_ *uvloop.FSPoll, err error, prev, curr uvloop.Stat) {
			w.Emit("change", statsOf(curr), statsOf(prev))
		}); err != nil {
			w.h.Close(nil)
			return nil, fromErr(err)
		}
		f.statWatchers[filename] = w
	}
	if listener != nil {
		w.On("change", func(a ...any) { listener(a[0].(*Stats), a[1].(*Stats)) })
	}
	return w, nil
}

// UnwatchFile is fs.unwatchFile(filename): it drops all the "change" listeners of the
// file's watcher (found by the resolved path, as WatchFile) and stops it.
func (f *FS) UnwatchFile(filename string) {
	filename = resolvePath(filename)
	w := f.statWatchers[filename]
	if w == nil {
		return
	}
	delete(f.statWatchers, filename)
	w.RemoveAllListeners("change")
	w.Stop()
}

// resolvePath is Node's path.resolve(p): absolute and clean (p as it is if the working
// directory is unknown).
func resolvePath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// Stop stops the watcher (it emits "stop" from a nextTick, as Node's).
func (w *StatWatcher) Stop() {
	if w.h.IsClosing() {
		return
	}
	w.h.Close(nil)
	if w.fs.statWatchers[w.filename] == w {
		delete(w.fs.statWatchers, w.filename)
	}
	w.h.Loop().NextTick(func() { w.Emit("stop") })
}

// Ref is watcher.ref(); Unref is watcher.unref().
func (w *StatWatcher) Ref() *StatWatcher   { w.h.Ref(); return w }
func (w *StatWatcher) Unref() *StatWatcher { w.h.Unref(); return w }
