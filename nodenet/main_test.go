package nodenet

import (
	"os"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// openFds counts the process's open fds (-1 where /proc/self/fd is missing).
func openFds() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// run runs setup's work on a fresh loop until nothing keeps it alive, then closes what is
// left and the loop, and checks that no fd leaked. A watchdog stops a loop that hangs.
func run(t *testing.T, setup func(l *uvloop.Loop)) {
	t.Helper()
	before := openFds()
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	setup(l)
	dog := l.SetTimeout(func() {
		t.Error("watchdog: the loop is still alive after 20s")
		l.Stop()
	}, 20*time.Second)
	dog.Unref()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Errorf("Run: %v", err)
	}
	closeLoop(t, l)
	if after := openFds(); before >= 0 && after != before {
		t.Errorf("fds: %d before, %d after", before, after)
	}
}

func closeLoop(t *testing.T, l *uvloop.Loop) {
	t.Helper()
	l.Walk(func(h uvloop.Handle) {
		if !h.IsClosing() {
			h.Close(nil)
		}
	})
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Errorf("Run (closing): %v", err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}
