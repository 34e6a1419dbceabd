package uvloop_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of more of libuv's test-fs-event.c (and test-ref.c's fs_event_ref), in our own words,
// each run in every mode. Changes are made from timers once the loop runs, as libuv's tests
// make them; nothing waits on a duration but the watchdog.

// createFileRev10l creates path as libuv's create_file does: open O_WRONLY|O_CREAT, close.
func createFileRev10l(t *testing.T, path string) {
	t.Helper()
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_CREAT|unix.O_CLOEXEC, 0o600)
	mustOK(t, err)
	mustOK(t, unix.Close(fd))
}

// touchFileRev10l writes "foo" into path, as libuv's touch_file does.
func touchFileRev10l(t *testing.T, path string) {
	t.Helper()
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_CLOEXEC, 0)
	mustOK(t, err)
	_, err = unix.Write(fd, []byte("foo"))
	mustOK(t, err)
	mustOK(t, unix.Close(fd))
}

// afterRev10l runs fn from a one-shot timer d after the loop starts, and closes the timer.
func afterRev10l(t *testing.T, l *uvloop.Loop, d time.Duration, fn func()) {
	t.Helper()
	tm := l.NewTimer(func(tm *uvloop.Timer) {
		fn()
		tm.Close(nil)
	})
	mustOK(t, tm.Start(d, 0))
}

// fs_event_no_callback_on_close, fs_event_no_callback_after_close,
// fs_event_close_with_pending_event, fs_event_close_with_pending_delete_event: a handle
// closed right after Start gets no event callback, whether nothing happened, the file changes
// after Close, or a change (or the file's removal) was already queued in the kernel before
// Close; its close callback runs once.
func TestLibuvFsEventNoCallbackOnCloseRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := filepath.Join(t.TempDir(), "watch_dir")
		mustOK(t, os.Mkdir(dir, 0o700))
		file := filepath.Join(dir, "file1")
		createFileRev10l(t, file)
		fail := func(_ *uvloop.FSEvent, name string, events int, err error) {
			t.Errorf("an event callback: %q %d %v", name, events, err)
		}
		for _, c := range []struct {
			name          string
			path          string
			before, after func()
		}{
			{"no callback on close", file, nil, nil},
			{"no callback after close", file, nil, func() { touchFileRev10l(t, file) }},
			{"pending event", dir, func() { touchFileRev10l(t, file) }, nil},
			{"pending delete event", file, func() { mustOK(t, os.Remove(file)) }, func() { createFileRev10l(t, file) }},
		} {
			e := l.NewFSEvent()
			mustOK(t, e.Start(c.path, fail))
			if c.before != nil {
				c.before()
			}
			closed := 0
			closeHandle(t, e, &closed)
			if c.after != nil {
				c.after()
			}
			runLoop(t, l)
			if closed != 1 {
				t.Fatalf("%s: close callbacks %d", c.name, closed)
			}
		}
	})
}

// fs_event_immediate_close: a handle started and closed inside a timer callback, with the
// timer, gives two close callbacks and nothing else.
func TestLibuvFsEventImmediateCloseRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		closed := 0
		tm := l.NewTimer(func(tm *uvloop.Timer) {
			e := l.NewFSEvent()
			mustOK(t, e.Start(".", func(*uvloop.FSEvent, string, int, error) { t.Error("an event callback") }))
			e.Close(func() { closed++ })
			tm.Close(func() { closed++ })
		})
		mustOK(t, tm.Start(time.Millisecond, 0))
		runLoop(t, l)
		if closed != 2 {
			t.Fatalf("close callbacks %d", closed)
		}
	})
}

// fs_event_close_in_callback: three files are created in a watched directory, each from its
// own timer callback; each creation is one event, and the third callback closes the handle:
// three event callbacks, no more.
func TestLibuvFsEventCloseInCallbackRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := t.TempDir()
		calls, closed, created := 0, 0, 0
		e := l.NewFSEvent()
		mustOK(t, e.Start(dir, func(h *uvloop.FSEvent, name string, events int, err error) {
			mustOK(t, err)
			if calls >= 3 {
				t.Fatalf("event callback %d (%q, %d) after the close", calls+1, name, events)
			}
			if calls++; calls == 3 {
				h.Close(func() { closed++ })
			}
		}))
		var tm *uvloop.Timer
		tm = l.NewTimer(func(*uvloop.Timer) {
			createFileRev10l(t, filepath.Join(dir, "file"+string(rune('0'+created))))
			if created++; created < 3 {
				mustOK(t, tm.Start(20*time.Millisecond, 0))
			}
		})
		mustOK(t, tm.Start(20*time.Millisecond, 0))
		runLoop(t, l)
		tm.Close(func() { closed++ })
		mustRunMode(t, l, uvloop.RunOnce)
		if calls != 3 || closed != 2 {
			t.Fatalf("event callbacks %d, close %d", calls, closed)
		}
	})
}

// fs_event_stop_in_cb: the first event callback stops the handle; a change that makes several
// kernel events at once (a write and a chmod) gives that one callback only.
func TestLibuvFsEventStopInCallbackRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		path := filepath.Join(t.TempDir(), "fs_event_stop_in_cb.txt")
		createFileRev10l(t, path)
		calls, touched := 0, 0
		e := l.NewFSEvent()
		mustOK(t, e.Start(path, func(h *uvloop.FSEvent, _ string, _ int, _ error) {
			mustOK(t, h.Stop())
			calls++
		}))
		afterRev10l(t, l, 10*time.Millisecond, func() {
			touchFileRev10l(t, path)
			mustOK(t, os.Chmod(path, 0o644))
			touched++
		})
		runLoop(t, l)
		if calls != 1 || touched != 1 {
			t.Fatalf("event callbacks %d, touches %d", calls, touched)
		}
		e.Close(nil)
		runLoop(t, l)
		if calls != 1 {
			t.Fatalf("event callbacks %d after Close", calls)
		}
	})
}

// fs_event_getpath: Path is "" before Start, and the path exactly as Start was given it
// (trailing slashes, "..", doubled slashes kept) while started.
func TestLibuvFsEventGetpathRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		t.Chdir(t.TempDir())
		mustOK(t, os.MkdirAll("watch_dir/subfolder", 0o700))
		for _, p := range []string{"watch_dir", "watch_dir/", "watch_dir///", "watch_dir/subfolder/..", "watch_dir//subfolder//..//"} {
			e := l.NewFSEvent()
			if got := e.Path(); got != "" {
				t.Errorf("Path before Start: %q", got)
			}
			mustOK(t, e.Start(p, func(*uvloop.FSEvent, string, int, error) { t.Error("an event callback") }))
			if got := e.Path(); got != p {
				t.Errorf("Path %q, want %q", got, p)
			}
			mustOK(t, e.Stop())
			closed := 0
			closeHandle(t, e, &closed)
			runLoop(t, l)
			if closed != 1 {
				t.Fatalf("close callbacks %d", closed)
			}
		}
	})
}

// fs_event_watch_file_exact_path: a watch on file.jsx sees nothing of changes to file.js
// beside it; a repeating timer touches file.js, then stops everything.
func TestLibuvFsEventWatchFileExactPathRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := t.TempDir()
		js, jsx := filepath.Join(dir, "file.js"), filepath.Join(dir, "file.jsx")
		createFileRev10l(t, js)
		createFileRev10l(t, jsx)
		e := l.NewFSEvent()
		mustOK(t, e.Start(jsx, func(_ *uvloop.FSEvent, name string, events int, err error) {
			t.Errorf("an event for %q (%d, %v)", name, events, err)
		}))
		ticks := 0
		tm := l.NewTimer(func(tm *uvloop.Timer) {
			if ticks++; ticks == 1 {
				touchFileRev10l(t, js)
				return
			}
			tm.Close(nil)
			mustOK(t, e.Stop())
			e.Close(nil)
		})
		mustOK(t, tm.Start(20*time.Millisecond, 20*time.Millisecond))
		runLoop(t, l)
		if ticks != 2 {
			t.Fatalf("timer callbacks %d", ticks)
		}
	})
}

// fs_event_watch_file_current_dir: a file in the working directory, watched by its bare
// name, reports a change named after it when touched; the callback closes the handle.
func TestLibuvFsEventWatchFileCurrentDirRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		t.Chdir(t.TempDir())
		createFileRev10l(t, "watch_file")
		calls, closed, touched := 0, 0, 0
		e := l.NewFSEvent()
		mustOK(t, e.Start("watch_file", func(h *uvloop.FSEvent, name string, events int, err error) {
			calls++
			mustOK(t, err)
			if events != uvloop.FSChange || name != "watch_file" {
				t.Errorf("event %d for %q, want a change for watch_file", events, name)
			}
			h.Close(func() { closed++ })
		}))
		afterRev10l(t, l, 10*time.Millisecond, func() { touchFileRev10l(t, "watch_file"); touched++ })
		runLoop(t, l)
		if touched != 1 || calls != 1 || closed != 1 {
			t.Fatalf("touches %d, event callbacks %d, close %d", touched, calls, closed)
		}
	})
}

// fs_event_watch_delete_dir: removing a watched directory reports one event named after it
// (a change or a rename); the callback stops and closes the handle, so no other comes.
func TestLibuvFsEventWatchDeleteDirRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := filepath.Join(t.TempDir(), "watch_del_dir")
		mustOK(t, os.Mkdir(dir, 0o700))
		calls, closed := 0, 0
		e := l.NewFSEvent()
		mustOK(t, e.Start(dir, func(h *uvloop.FSEvent, name string, events int, err error) {
			calls++
			mustOK(t, err)
			if (events != uvloop.FSChange && events != uvloop.FSRename) || name != "watch_del_dir" {
				t.Errorf("event %d for %q", events, name)
			}
			mustOK(t, h.Stop())
			h.Close(func() { closed++ })
		}))
		afterRev10l(t, l, 10*time.Millisecond, func() { mustOK(t, os.Remove(dir)) })
		runLoop(t, l)
		if calls != 1 || closed != 1 {
			t.Fatalf("event callbacks %d, close %d", calls, closed)
		}
	})
}

// fs_event_ref: an unref'd, started handle does not keep the loop alive.
// fs_event_watch_invalid_path: Start on "<:;" (no such file) or "" fails and leaves the
// handle inactive.
func TestLibuvFsEventRefAndInvalidPathRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		e := l.NewFSEvent()
		mustOK(t, e.Start(".", func(*uvloop.FSEvent, string, int, error) { t.Error("an event callback") }))
		e.Unref()
		runLoop(t, l)
		closeRunRev10l(t, l, e)

		bad := l.NewFSEvent()
		for _, p := range []string{"<:;", ""} {
			if err := bad.Start(p, func(*uvloop.FSEvent, string, int, error) {}); err == nil {
				t.Errorf("Start(%q) succeeded", p)
			}
			if bad.IsActive() {
				t.Errorf("active after Start(%q) failed", p)
			}
		}
		closeRunRev10l(t, l, bad)
	})
}
