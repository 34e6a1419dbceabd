//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package sock

import (
	"bytes"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// The NoWait calls do not block on a blocking socket: they read and write what there is,
// then fail with EAGAIN.
func TestNoWaitOnBlockingSocket(t *testing.T) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	a := newFd(t, fds[0], err)
	b := newFd(t, fds[1], nil)
	if !IsSocket(a) {
		t.Fatal("IsSocket: false for a socket")
	}
	var p [2]int
	if err := unix.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	newFd(t, p[0], nil)
	newFd(t, p[1], nil)
	if IsSocket(p[0]) {
		t.Fatal("IsSocket: true for a pipe")
	}
	buf := make([]byte, 64)
	if n, err := ReadNoWait(a, buf); n != 0 || err != syscall.EAGAIN {
		t.Fatalf("ReadNoWait on an empty socket: %d, %v; want EAGAIN", n, err)
	}
	if n, err := WritevNoWait(b, [][]byte{[]byte("he"), []byte("llo")}); n != 5 || err != nil {
		t.Fatalf("WritevNoWait: %d, %v", n, err)
	}
	if n, err := ReadNoWait(a, buf); err != nil || !bytes.Equal(buf[:n], []byte("hello")) {
		t.Fatalf("ReadNoWait: %q, %v", buf[:n], err)
	}
	chunk := make([]byte, 64<<10)
	total := 0
	for {
		n, err := WriteNoWait(b, chunk)
		if err == syscall.EAGAIN || err == syscall.ENOBUFS {
			break
		}
		if err != nil {
			t.Fatalf("WriteNoWait after %d bytes: %v", total, err)
		}
		if total += n; total > 64<<20 {
			t.Fatal("WriteNoWait never filled the socket")
		}
	}
}
