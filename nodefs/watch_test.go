package nodefs_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// fs.watch of a directory: creating a file with content is 'rename' then 'change' for its
// name, deleting it 'rename' (what Node v20 prints on Linux for the same steps); close
// emits 'close' from a nextTick and the loop ends.
func TestWatchDirectory(t *testing.T) {
	inTempDir(t)
	var got []string
	run(t, func(l *uvloop.Loop, fs *nodefs.FS) {
		w, err := fs.Watch(".", func(eventType, filename string) {
			got = append(got, eventType+" "+filename)
		})
		if err != nil {
			t.Fatal(err)
		}
		w.On("close", func(...any) { got = append(got, "close") })
		l.SetTimeout(func() { fs.WriteFileSync("wx", []byte("a"), nil) }, 5*time.Millisecond)
		l.SetTimeout(func() {
			fs.UnlinkSync("wx")
			l.SetTimeout(func() {
				w.Close()
				got = append(got, "closed")
				w.Close() // a second close does nothing
			}, 20*time.Millisecond)
		}, 30*time.Millisecond)
	})
	if s := strings.Join(got, ", "); s != "rename wx, change wx, rename wx, closed, close" {
		t.Fatalf("events: %s", s)
	}
}

// An unref'd watcher does not keep the loop alive; a missing path fails at the call with
// Node's error; two watchers of one file both hear a change.
func TestWatchUnrefAndTwice(t *testing.T) {
	inTempDir(t)
	if err := os.WriteFile("f", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	heard := 0
	run(t, func(l *uvloop.Loop, fs *nodefs.FS) {
		u, err := fs.Watch(".", nil)
		if err != nil {
			t.Fatal(err)
		}
		u.Unref()
		if _, err := fs.Watch("missing", nil); err == nil || err.Error() != "ENOENT: no such file or directory, watch 'missing'" {
			t.Errorf("watch of a missing path: %v", err)
		}
		var a, b *nodefs.FSWatcher
		done := func() {
			if heard++; heard == 2 {
				a.Close()
				b.Close()
			}
		}
		a, _ = fs.Watch("f", func(string, string) {
			if heard == 0 {
				done()
			}
		})
		b, _ = fs.Watch("f", func(string, string) {
			if heard == 1 {
				done()
			}
		})
		l.SetTimeout(func() { fs.WriteFileSync("f", []byte("x"), nil) }, 5*time.Millisecond)
	})
	if heard != 2 {
		t.Fatalf("heard %d", heard)
	}
}

// fs.watchFile of a missing file: the listener hears the zeroed stats once, then the file's
// creation (prev zeroed) and a change of size, as Node's (recorded with Node v20: sizes
// 0 0, 3 0, 6 3; nlink 0 0, 1 0, 1 1); unwatchFile stops it and the loop ends.
func TestWatchFileMissingThenCreated(t *testing.T) {
	inTempDir(t)
	var got []string
	run(t, func(l *uvloop.Loop, fs *nodefs.FS) {
		step := 0
		_, err := fs.WatchFile("wf", 2*time.Millisecond, func(curr, prev *nodefs.Stats) {
			got = append(got, strconv.FormatInt(curr.Size, 10)+" "+strconv.FormatInt(prev.Size, 10)+" "+
				strconv.FormatUint(curr.Nlink, 10)+" "+strconv.FormatUint(prev.Nlink, 10))
			switch step++; step {
			case 1:
				fs.WriteFileSync("wf", []byte("abc"), nil)
			case 2:
				fs.WriteFileSync("wf", []byte("abcdef"), nil)
			case 3:
				fs.UnwatchFile("wf")
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fs.WatchFile("x", 0, nil); err == nil {
			t.Error("watchFile without a listener")
		}
	})
	if s := strings.Join(got, ", "); s != "0 0 0 0, 3 0 1 0, 6 3 1 1" {
		t.Fatalf("changes: %s", s)
	}
}
