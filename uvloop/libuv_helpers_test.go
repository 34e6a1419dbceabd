package uvloop_test

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// This file holds the helpers of the ports of libuv's test suite (libuv_*_test.go). The ports
// state libuv's assertions in Go; they are not translations of libuv's code. Durations are often
// shorter than libuv's, to keep the suite fast: only the relations between them matter.

// mustRunMode runs l in mode and fails the test if Run returns an error. It returns alive.
func mustRunMode(t testing.TB, l *uvloop.Loop, mode uvloop.RunMode) bool {
	t.Helper()
	alive, err := l.Run(mode)
	if err != nil {
		t.Fatalf("Run(%d): %v", mode, err)
	}
	return alive
}

// mustOK fails the test if err is not nil.
func mustOK(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// closeHandle closes h with a callback that counts into *n, and checks that the callback does
// not run from inside Close.
func closeHandle(t testing.TB, h uvloop.Handle, n *int) {
	t.Helper()
	before := *n
	if err := h.Close(func() { *n++ }); err != nil {
		t.Fatalf("close %s: %v", h.Kind(), err)
	}
	if *n != before {
		t.Fatalf("close callback of a %s ran inside Close", h.Kind())
	}
}

// newSocketpair returns the two ends of a non-blocking, close-on-exec Unix stream socket pair,
// closed when the test ends (after the loop, so after the poll handles).
func newSocketpair(t testing.TB) (int, int) {
	t.Helper()
	a, b := rawSocketpair(t)
	t.Cleanup(func() {
		unix.Close(a)
		unix.Close(b)
	})
	return a, b
}

// rawSocketpair is newSocketpair for tests that close the ends themselves.
func rawSocketpair(t testing.TB) (int, int) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatalf("socketpair: %v", err)
	}
	for _, fd := range fds {
		unix.CloseOnExec(fd)
		if err := unix.SetNonblock(fd, true); err != nil {
			t.Fatalf("set non-blocking: %v", err)
		}
	}
	return fds[0], fds[1]
}
