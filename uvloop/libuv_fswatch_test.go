package uvloop_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test-fs-event.c and test-fs-poll.c (their assertions, in our words).

// fs_event_watch_dir: creating a file in a watched directory reports a rename event named
// after the entry (Linux), then closing the handle from the callback ends the loop.
func TestFsEventWatchDir(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	dir := t.TempDir()
	e := l.NewFSEvent()
	if e.Kind() != uvloop.KindFSEvent || e.Kind().String() != "fs_event" {
		t.Fatalf("kind %v", e.Kind())
	}
	closed := 0
	var got []string
	mustOK(t, e.Start(dir, func(h *uvloop.FSEvent, name string, events int, err error) {
		if err != nil {
			t.Errorf("event error: %v", err)
		}
		if events&uvloop.FSRename != 0 {
			got = append(got, name)
			if !h.IsClosing() {
				closeHandle(t, h, &closed)
			}
		}
	}))
	if e.Path() != dir || !e.IsActive() {
		t.Fatalf("path %q active %v", e.Path(), e.IsActive())
	}
	// A timer makes the change once the loop is running, as libuv's test does.
	tm := l.NewTimer(func(tm *uvloop.Timer) {
		mustOK(t, os.WriteFile(filepath.Join(dir, "file1"), nil, 0o600))
		tm.Close(nil)
	})
	mustOK(t, tm.Start(time.Millisecond, 0))
	mustRunMode(t, l, uvloop.RunDefault)
	if closed != 1 || len(got) == 0 || (isLinux && got[0] != "file1") {
		t.Fatalf("closed %d, events %q", closed, got)
	}
}

// fs_event_watch_file: writing to a watched file reports a change named after the file.
func TestFsEventWatchFile(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	p := filepath.Join(t.TempDir(), "file2")
	mustOK(t, os.WriteFile(p, nil, 0o600))
	e := l.NewFSEvent()
	var name string
	mustOK(t, e.Start(p, func(h *uvloop.FSEvent, n string, events int, err error) {
		if events&uvloop.FSChange != 0 && name == "" {
			name = n
			mustOK(t, h.Stop())
			if h.IsActive() || h.Path() != "" {
				t.Errorf("stopped handle: active %v path %q", h.IsActive(), h.Path())
			}
		}
	}))
	mustOK(t, os.WriteFile(p, []byte("change"), 0o600))
	mustRunMode(t, l, uvloop.RunDefault)
	if name != "file2" {
		t.Fatalf("name %q", name)
	}
	e.Close(nil)
}

// fs_event_error_reporting / fs_event_start_and_close: a missing path fails Start with
// ENOENT; a handle started and closed at once ends cleanly; Start twice is a no-op.
func TestFsEventStartErrors(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	e := l.NewFSEvent()
	err := e.Start(filepath.Join(t.TempDir(), "none"), func(*uvloop.FSEvent, string, int, error) {})
	if !errors.Is(err, fs.ErrNotExist) || e.IsActive() {
		t.Fatalf("start on a missing path: %v", err)
	}
	if err := e.Start(".", nil); !errors.Is(err, uvloop.ErrNilCallback) {
		t.Fatalf("nil callback: %v", err)
	}
	cb := func(*uvloop.FSEvent, string, int, error) { t.Error("event") }
	mustOK(t, e.Start(".", cb))
	mustOK(t, e.Start(t.TempDir(), cb))
	if e.Path() != "." {
		t.Fatalf("second start changed the path to %q", e.Path())
	}
	closed := 0
	closeHandle(t, e, &closed)
	if err := e.Start(".", cb); !errors.Is(err, uvloop.ErrClosed) {
		t.Fatalf("start after close: %v", err)
	}
	mustRunMode(t, l, uvloop.RunDefault)
	if closed != 1 {
		t.Fatal("close callback did not run")
	}
}

// fs_poll: polling a path that does not exist reports ENOENT once; creating it reports the
// change (prev zero, curr the file); writing reports it again; removing it reports ENOENT
// again; then the handle is closed.
func TestFsPoll(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	p := filepath.Join(t.TempDir(), "poll")
	h := l.NewFSPoll()
	step := 0
	closed := 0
	mustOK(t, h.Start(p, time.Millisecond, func(h *uvloop.FSPoll, err error, prev, curr uvloop.Stat) {
		step++
		switch step {
		case 1:
			if !errors.Is(err, syscall.ENOENT) || curr != (uvloop.Stat{}) {
				t.Errorf("step 1: %v", err)
			}
			mustOK(t, os.WriteFile(p, []byte("a"), 0o600))
		case 2:
			if err != nil || prev != (uvloop.Stat{}) || curr.Size != 1 {
				t.Errorf("step 2: %v %+v", err, curr)
			}
			// A different size is a change whatever the clock's resolution.
			mustOK(t, os.WriteFile(p, []byte("abc"), 0o600))
		case 3:
			if err != nil || prev.Size != 1 || curr.Size != 3 {
				t.Errorf("step 3: %v %d -> %d", err, prev.Size, curr.Size)
			}
			mustOK(t, os.Remove(p))
		case 4:
			if !errors.Is(err, fs.ErrNotExist) || prev.Size != 3 || curr != (uvloop.Stat{}) {
				t.Errorf("step 4: %v", err)
			}
			if h.Path() != p {
				t.Errorf("path %q", h.Path())
			}
			closeHandle(t, h, &closed)
		default:
			t.Errorf("step %d: %v", step, err)
		}
	}))
	mustRunMode(t, l, uvloop.RunDefault)
	if step != 4 || closed != 1 {
		t.Fatalf("steps %d closed %d", step, closed)
	}
}

// fs_poll_ref: an unref'd poll handle does not keep the loop alive (beyond the stat in
// flight); ref'd again, it does, until stopped.
func TestFsPollRef(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	h := l.NewFSPoll()
	calls := 0
	mustOK(t, h.Start(".", time.Millisecond, func(*uvloop.FSPoll, error, uvloop.Stat, uvloop.Stat) { calls++ }))
	h.Unref()
	mustRunMode(t, l, uvloop.RunDefault) // returns once the first stat is in
	if !h.IsActive() || calls != 0 {
		t.Fatalf("active %v calls %d", h.IsActive(), calls)
	}
	h.Ref()
	stop := l.NewTimer(func(tm *uvloop.Timer) { h.Stop(); tm.Close(nil) })
	mustOK(t, stop.Start(5*time.Millisecond, 0))
	mustRunMode(t, l, uvloop.RunDefault)
	if h.IsActive() || h.Path() != "" {
		t.Fatal("still active after Stop")
	}
	h.Close(nil)
}
