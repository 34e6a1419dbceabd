package uvloop

import (
	"os"

	"github.com/uvgo/uvgo/internal/fswatch"
)

// FSEvent watches a file or a directory for changes (uv_fs_event_t): inotify on Linux,
// a kqueue EVFILT_VNODE filter on darwin and the BSDs, both polled by the loop. Its callback
// runs in the poll phase with the name of what changed — for a watched directory (on Linux)
// the entry's name, otherwise the watched path's base name — and the kinds of change:
// FSRename (an entry appeared, disappeared or was renamed; or the watched path was deleted
// or moved) and FSChange (contents or attributes). err is non-nil if reading the events
// failed (the handle then stops). Loop goroutine only.
type FSEvent struct {
	handle
	io   ioWatcher
	w    *fswatch.Watcher
	path string
	cb   func(e *FSEvent, filename string, events int, err error)
}

// The kinds of file-system event (UV_RENAME, UV_CHANGE).
const (
	FSRename = fswatch.Rename
	FSChange = fswatch.Change
)

// NewFSEvent creates a file-system event handle (uv_fs_event_init); Start begins watching.
func (l *Loop) NewFSEvent() *FSEvent {
	e := &FSEvent{}
	e.handle.init(l, e, KindFSEvent)
	return e
}

// Start watches path (uv_fs_event_start). Starting an active handle does nothing, as in
// libuv. It fails with ErrNilCallback without a callback, ErrClosed on a closing handle, and
// with an *fs.PathError wrapping the errno when the path cannot be watched (ENOENT, ...).
func (e *FSEvent) Start(path string, cb func(e *FSEvent, filename string, events int, err error)) error {
	if err := e.usable(); err != nil {
		return err
	}
	if cb == nil {
		return ErrNilCallback
	}
	if e.IsActive() {
		return nil
	}
	w, err := fswatch.New(path)
	if err != nil {
		return &os.PathError{Op: "watch", Path: path, Err: err}
	}
	if err := e.loop.io.attach(&e.io, w.Fd(), e.ready); err != nil {
		w.Close()
		return err
	}
	e.w, e.path, e.cb = w, path, cb
	e.loop.io.start(&e.io, Readable)
	e.handle.start()
	return nil
}

// Stop stops watching (uv_fs_event_stop); Start may begin again.
func (e *FSEvent) Stop() error {
	e.stopWatch()
	return nil
}

// Path returns the watched path, "" when not watching (uv_fs_event_getpath).
func (e *FSEvent) Path() string { return e.path }

// closeStart stops watching: the descriptor leaves the poller and is closed at once.
func (e *FSEvent) closeStart() { e.stopWatch() }

func (e *FSEvent) closeFinish() {}

func (e *FSEvent) stopWatch() {
	if e.w == nil {
		return
	}
	e.loop.io.detach(e.loop.poller, &e.io)
	e.w.Close()
	e.w, e.path = nil, ""
	e.handle.stop()
}

func (e *FSEvent) ready(events Events, err error) {
	w := e.w
	if err == nil {
		err = w.Read(func(name string, ev int) {
			if e.w == w { // a callback may have stopped or restarted the handle
				e.cb(e, name, ev, nil)
				e.loop.afterCallback()
			}
		})
	}
	if err != nil && e.w == w {
		e.stopWatch()
		e.cb(e, "", 0, os.NewSyscallError("read", err))
	}
}
