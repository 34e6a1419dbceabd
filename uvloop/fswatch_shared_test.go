package uvloop_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// fs_event_watch_file_twice: two handles on one file (and a third on its directory) share
// the loop's one watch instance; a write reaches both file handles, in start order, and a
// handle stopped by an earlier callback of the same event does not hear it. The instance
// goes when the last handle stops.
func TestFsEventWatchFileTwice(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	dir := t.TempDir()
	p := filepath.Join(dir, "twice")
	mustOK(t, os.WriteFile(p, nil, 0o600))
	if l.FSWatchFd() != -1 {
		t.Fatal("a watch instance before any FSEvent")
	}
	var order []string
	a, b, d := l.NewFSEvent(), l.NewFSEvent(), l.NewFSEvent()
	mustOK(t, a.Start(p, func(h *uvloop.FSEvent, name string, events int, err error) {
		if err != nil || name != "twice" {
			t.Errorf("a: %q %v", name, err)
		}
		order = append(order, "a")
		if len(order) == 1 {
			h.Stop() // b still hears this event; a hears no more
		}
	}))
	fd := l.FSWatchFd()
	mustOK(t, b.Start(p, func(h *uvloop.FSEvent, name string, events int, err error) {
		if err != nil || name != "twice" || events&uvloop.FSChange == 0 {
			t.Errorf("b: %q %d %v", name, events, err)
		}
		order = append(order, "b")
		h.Stop()
		d.Stop()
	}))
	mustOK(t, d.Start(dir, func(*uvloop.FSEvent, string, int, error) {}))
	if l.FSWatchFd() != fd || fd < 0 {
		t.Fatalf("instances: %d then %d", fd, l.FSWatchFd())
	}
	tm := l.NewTimer(func(tm *uvloop.Timer) {
		mustOK(t, os.WriteFile(p, []byte("x"), 0o600))
		tm.Close(nil)
	})
	mustOK(t, tm.Start(time.Millisecond, 0))
	mustRunMode(t, l, uvloop.RunDefault)
	if len(order) != 2 || order[0] != "a" || order[1] != "b" {
		t.Fatalf("order %v", order)
	}
	if l.FSWatchFd() != -1 || a.IsActive() || b.IsActive() || d.IsActive() {
		t.Fatalf("instance %d after the last Stop", l.FSWatchFd())
	}
	// A handle can start again on a fresh instance.
	mustOK(t, a.Start(dir, func(*uvloop.FSEvent, string, int, error) {}))
	if l.FSWatchFd() < 0 {
		t.Fatal("no instance after a restart")
	}
	closed := 0
	for _, h := range []*uvloop.FSEvent{a, b, d} {
		closeHandle(t, h, &closed)
	}
	mustRunMode(t, l, uvloop.RunDefault)
	if closed != 3 || l.FSWatchFd() != -1 {
		t.Fatalf("closed %d instance %d", closed, l.FSWatchFd())
	}
}

// fs_event_start_and_close with bad input: an empty path, a missing one, a closed handle;
// the failures leave no instance behind and the loop runs on.
func TestFsEventBadInput(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	e := l.NewFSEvent()
	cb := func(*uvloop.FSEvent, string, int, error) {}
	for _, p := range []string{"", filepath.Join(t.TempDir(), "missing"), "a\x00b"} {
		err := e.Start(p, cb)
		var pe *os.PathError
		if !errors.As(err, &pe) || pe.Path != p || !(errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.EINVAL)) {
			t.Errorf("start %q: %v", p, err)
		}
	}
	if e.IsActive() || l.FSWatchFd() != -1 {
		t.Fatal("a failed start left state behind")
	}
	ran := false
	l.SetTimeout(func() { ran = true }, 0)
	mustRunMode(t, l, uvloop.RunDefault)
	if !ran {
		t.Fatal("the loop did not run on")
	}
}

// fs_poll_close_request: closing a poll handle while its stat is in flight delays the close
// callback until the stat has completed, unreported, as libuv's uv__fs_poll_close does.
func TestFsPollCloseRequest(t *testing.T) {
	l, err := uvloop.New(uvloop.WithWorkers(1))
	mustOK(t, err)
	defer closeLoop(t, l)
	uvloop.FSOnRing(l, false) // the stat waits behind the blocked worker, on io_uring too
	done := 0
	release := blockWorkers(t, l, 1, &done)
	h := l.NewFSPoll()
	mustOK(t, h.Start(".", time.Millisecond, func(*uvloop.FSPoll, error, uvloop.Stat, uvloop.Stat) {
		t.Error("poll callback after close")
	}))
	closed := 0
	mustOK(t, h.Close(func() {
		if done != 1 {
			t.Error("close callback before the stat completed")
		}
		closed++
	}))
	if !h.IsClosing() || h.IsActive() {
		t.Fatal("not closing")
	}
	for range 3 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	if closed != 0 {
		t.Fatal("closed while the stat was in flight")
	}
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("loop close with the stat in flight: %v", err)
	}
	release()
	mustRunMode(t, l, uvloop.RunDefault)
	if closed != 1 {
		t.Fatalf("closed %d", closed)
	}
}

// fs_poll_getpath and restart: a Stop drops the stat in flight; a Start right after makes a
// new one, and only the new one's result is reported.
func TestFsPollRestartInFlight(t *testing.T) {
	l := newLoop(t)
	defer closeLoop(t, l)
	missing := filepath.Join(t.TempDir(), "missing")
	h := l.NewFSPoll()
	var got []error
	cb := func(_ *uvloop.FSPoll, err error, _, _ uvloop.Stat) {
		got = append(got, err)
		h.Stop()
	}
	mustOK(t, h.Start(".", time.Millisecond, cb)) // its stat succeeds: no report
	mustOK(t, h.Stop())
	mustOK(t, h.Start(missing, time.Millisecond, cb))
	if h.Path() != missing {
		t.Fatalf("path %q", h.Path())
	}
	mustRunMode(t, l, uvloop.RunDefault)
	if len(got) != 1 || !errors.Is(got[0], syscall.ENOENT) {
		t.Fatalf("reports %v", got)
	}
	closed := 0
	closeHandle(t, h, &closed)
	mustRunMode(t, l, uvloop.RunDefault)
	if closed != 1 {
		t.Fatal("not closed")
	}
}
