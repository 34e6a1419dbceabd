package nodefs_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// run makes a loop and an fs module, lets setup start work, runs the loop to the end and
// closes it.
func run(t *testing.T, setup func(l *uvloop.Loop, f *nodefs.FS)) {
	t.Helper()
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	setup(l, nodefs.New(l))
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatalf("run: %v", err)
	}
	closeLoop(t, l)
}

// closeLoop closes every handle of l, runs it until their close callbacks ran, and closes it.
func closeLoop(t *testing.T, l *uvloop.Loop) {
	t.Helper()
	l.Walk(func(h uvloop.Handle) {
		if !h.IsClosing() {
			h.Close(nil)
		}
	})
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatalf("run to close: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
}

// inTempDir runs the test in a fresh directory, so relative paths print as Node's do.
func inTempDir(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir(wd) })
}
