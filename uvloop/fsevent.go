package uvloop

import (
	"os"
	"slices"

	"github.com/uvgo/uvgo/internal/fswatch"
)

// FSEvent watches a file or a directory for changes (uv_fs_event_t): inotify on Linux,
// a kqueue EVFILT_VNODE filter on darwin and the BSDs. All the FSEvent handles of a loop share
// one kernel instance (one inotify descriptor per loop, as libuv's), polled by the loop; on
// Linux handles watching the same file share one watch, and each of them hears every event.
// Its callback runs in the poll phase with the name of what changed — for a watched
// directory (on Linux) the entry's name, otherwise the watched path's base name — and the
// kinds of change: FSRename (an entry appeared, disappeared or was renamed; or the watched
// path was deleted or moved) and FSChange (contents or attributes). err is non-nil if
// reading the events failed (every handle then stops). Loop goroutine only.
type FSEvent struct {
	handle
	watch *fsWatch // what this handle watches; nil when stopped
	path  string
	cb    func(e *FSEvent, filename string, events int, err error)
}

// The kinds of file-system event (UV_RENAME, UV_CHANGE).
const (
	FSRename = fswatch.Rename
	FSChange = fswatch.Change
)

// fsWatchSet is the loop's one kernel watch instance and what each watch fans out to
// (libuv's loop->inotify_fd and its tree of watcher lists). It exists while some handle
// watches. Loop goroutine only.
type fsWatchSet struct {
	set     *fswatch.Set
	io      ioWatcher
	watches map[int]*fsWatch // by wd
	n       int              // handles watching
}

// fsWatch is one kernel watch and the handles that hear it, in start order. A handle that
// stops is removed by replacing the slice, so a dispatch in progress keeps its snapshot.
type fsWatch struct {
	wd      int
	handles []*FSEvent
}

// NewFSEvent creates a file-system event handle (uv_fs_event_init); Start begins watching.
func (l *Loop) NewFSEvent() *FSEvent {
	e := &FSEvent{}
	e.handle.init(l, e, KindFSEvent)
	return e
}

// Start watches path (uv_fs_event_start). Starting an active handle does nothing, as in
// libuv. It fails with ErrNilCallback without a callback, ErrClosed on a closing handle, and
// with an *fs.PathError wrapping the errno when the path cannot be watched (ENOENT for a
// missing or empty path, ...).
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
	l := e.loop
	s := l.fsWatch
	if s == nil {
		set, err := fswatch.NewSet()
		if err != nil {
			return &os.PathError{Op: "watch", Path: path, Err: err}
		}
		s = &fsWatchSet{set: set, watches: make(map[int]*fsWatch)}
		if err := l.io.attach(&s.io, set.Fd(), s.ready(l)); err != nil {
			set.Close()
			return err
		}
		l.io.start(&s.io, Readable)
		l.fsWatch = s
	}
	wd, err := s.set.Add(path)
	if err != nil {
		if s.n == 0 {
			s.close(l)
		}
		return &os.PathError{Op: "watch", Path: path, Err: err}
	}
	w := s.watches[wd]
	if w == nil {
		w = &fsWatch{wd: wd}
		s.watches[wd] = w
	}
	w.handles = append(w.handles[:len(w.handles):len(w.handles)], e)
	s.n++
	e.watch, e.path, e.cb = w, path, cb
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

// closeStart stops watching: the watch is removed at once (and the loop's instance closed
// with the last one).
func (e *FSEvent) closeStart() { e.stopWatch() }

func (e *FSEvent) closeFinish() {}

func (e *FSEvent) stopWatch() {
	w := e.watch
	if w == nil {
		return
	}
	l := e.loop
	s := l.fsWatch
	e.watch, e.path = nil, ""
	e.handle.stop()
	w.handles = slices.DeleteFunc(slices.Clone(w.handles), func(h *FSEvent) bool { return h == e })
	if len(w.handles) == 0 {
		s.set.Remove(w.wd)
		delete(s.watches, w.wd)
	}
	if s.n--; s.n == 0 {
		s.close(l)
	}
}

// close releases the instance when no handle watches any more.
func (s *fsWatchSet) close(l *Loop) {
	l.io.detach(l.poller, &s.io)
	s.set.Close()
	if l.fsWatch == s {
		l.fsWatch = nil
	}
}

// ready is the instance's poll-phase dispatch: every event goes to each handle of its watch
// that is still watching it when its turn comes.
func (s *fsWatchSet) ready(l *Loop) func(Events, error) {
	return func(_ Events, err error) {
		if err == nil {
			err = s.set.Read(func(wd int, name string, events int) {
				w := s.watches[wd]
				if w == nil {
					return
				}
				for _, h := range w.handles {
					if h.watch == w { // an earlier callback may have stopped it
						h.cb(h, name, events, nil)
						l.afterCallback()
					}
				}
			})
		}
		if err == nil || l.fsWatch != s {
			return
		}
		// Reading failed: every handle stops and hears why.
		err = os.NewSyscallError("read", err)
		var all []*FSEvent
		for _, w := range s.watches {
			all = append(all, w.handles...)
		}
		for _, h := range all {
			h.stopWatch()
		}
		for _, h := range all {
			h.cb(h, "", 0, err)
			l.afterCallback()
		}
	}
}
