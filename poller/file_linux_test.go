package poller_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/fsys"
	"github.com/uvgo/uvgo/poller"
)

// waitFile waits until FileDone has a request, and returns it.
func waitFile(t *testing.T, p *poller.Poller) *poller.FileReq {
	t.Helper()
	for range 100 {
		if _, _, err := p.Wait(100 * time.Millisecond); err != nil && !errors.Is(err, poller.ErrInterrupted) {
			t.Fatal(err)
		}
		if r := p.FileDone(); r != nil {
			return r
		}
	}
	t.Fatal("no file request completed")
	return nil
}

// The ring makes the file system calls as internal/fsys does: the same stat, the same
// bytes, the errno of a failure; it refuses, queueing nothing, what fsys fails before the
// call (a NUL in a path, fstat of a negative descriptor). Other backends refuse every op.
func TestSubmitFile(t *testing.T) {
	p := newPoller(t)
	defer p.Close()
	if !p.CanFile(poller.FileStat) {
		var r poller.FileReq
		r.Op = poller.FileStat
		if err := p.SubmitFile(&r); !errors.Is(err, errors.ErrUnsupported) {
			t.Fatalf("SubmitFile without the ring: %v", err)
		}
		t.Skipf("backend %v runs no file system call", p.Backend())
	}
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	var want, got fsys.Statbuf
	if err := fsys.Stat(file, &want); err != nil {
		t.Fatal(err)
	}
	r := &poller.FileReq{Op: poller.FileStat, Path: file, Stat: &got}
	if err := p.SubmitFile(r); err != nil {
		t.Fatal(err)
	}
	if d := waitFile(t, p); d != r || r.Res != 0 || got != want {
		t.Fatalf("stat: res %d\n got %+v\nwant %+v", r.Res, got, want)
	}
	buf := make([]byte, 4)
	fd, err := fsys.Open(file, os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close(fd)
	r = &poller.FileReq{Op: poller.FileRead, Fd: fd, Buf: buf, Off: 3}
	if err := p.SubmitFile(r); err != nil {
		t.Fatal(err)
	}
	if waitFile(t, p); r.Res != 4 || string(buf) != "3456" {
		t.Fatalf("read: %d %q", r.Res, buf)
	}
	r = &poller.FileReq{Op: poller.FileOpen, Path: filepath.Join(file, "x")}
	if err := p.SubmitFile(r); err != nil {
		t.Fatal(err)
	}
	if waitFile(t, p); r.Errno() != syscall.ENOTDIR {
		t.Fatalf("open through a file: %d", r.Res)
	}
	if err := p.SubmitFile(&poller.FileReq{Op: poller.FileStat, Path: "a\x00b"}); !errors.Is(err, syscall.EINVAL) {
		t.Errorf("NUL in a path: %v", err)
	}
	if err := p.SubmitFile(&poller.FileReq{Op: poller.FileFstat, Fd: -100}); !errors.Is(err, syscall.EBADF) {
		t.Errorf("fstat of -100: %v", err)
	}
	if p.FilesDone() {
		t.Error("a refused request completed")
	}
}

// Close with a request in flight that the kernel has not started (a read of an empty pipe)
// cancels it and returns; nothing completes afterwards.
func TestSubmitFileClose(t *testing.T) {
	p := newPoller(t)
	if !p.CanFile(poller.FileRead) {
		p.Close()
		t.Skipf("backend %v runs no file system call", p.Backend())
	}
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])
	r := &poller.FileReq{Op: poller.FileRead, Fd: fds[0], Buf: make([]byte, 8), Off: -1}
	if err := p.SubmitFile(r); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Wait(0); err != nil {
		t.Fatal(err)
	}
	if p.FilesDone() {
		t.Fatal("a read of an empty pipe completed")
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if p.FileDone() != nil || p.CanFile(poller.FileRead) {
		t.Error("file requests after Close")
	}
	if err := p.SubmitFile(r); !errors.Is(err, poller.ErrClosed) {
		t.Errorf("SubmitFile after Close: %v", err)
	}
}
