//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fswatch

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReadStopsWhenClosed: fn closes the Set at its first event and opens a pipe, which
// likely takes the Set's descriptor number; Read returns without reading it, and the pipe
// keeps its bytes. A second Close does nothing.
func TestReadStopsWhenClosed(t *testing.T) {
	dir := t.TempDir()
	s, err := NewSet()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(dir); err != nil {
		s.Close()
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b", "c"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	calls := 0
	var p [2]int
	err = s.Read(func(wd int, name string, events int) {
		if calls++; calls > 1 {
			return
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if err := unix.Pipe(p[:]); err != nil {
			t.Fatal(err)
		}
		unix.SetNonblock(p[0], true)
		unix.Write(p[1], []byte("hello"))
	})
	if err != nil || calls != 1 {
		t.Errorf("Read: %v after %d calls, want nil after 1", err, calls)
	}
	if s.Fd() != -1 {
		t.Errorf("Fd %d after Close, want -1", s.Fd())
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := s.Remove(1); err != nil {
		t.Errorf("Remove on a closed Set: %v", err)
	}
	buf := make([]byte, 16)
	n, err := unix.Read(p[0], buf)
	if err != nil || string(buf[:n]) != "hello" {
		t.Errorf("the pipe read %q, %v; want \"hello\"", buf[:max(n, 0)], err)
	}
	unix.Close(p[0])
	unix.Close(p[1])
	if err := s.Read(func(int, string, int) { t.Error("an event from a closed Set") }); err != nil && err != syscall.EBADF {
		t.Errorf("Read on a closed Set: %v", err)
	}
}
