//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// More buffers than iovMax: Writev writes them all, in order, at an offset and at the file's
// position; Readv fills the first iovMax only, as libuv's uv_fs_write and uv_fs_read do.
func TestVectorsBeyondIovMax(t *testing.T) {
	for _, tc := range []struct {
		name string
		off  int64 // -1: the file's position
	}{{"at an offset", 0}, {"at the position", -1}} {
		t.Run(tc.name, func(t *testing.T) {
			fd, err := Open(filepath.Join(t.TempDir(), "f"), os.O_RDWR|os.O_CREATE, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			defer Close(fd)
			const nbufs = 2*iovMax + 7
			bufs := make([][]byte, nbufs)
			var want []byte
			for i := range bufs {
				bufs[i] = []byte{byte(i), byte(i >> 8), byte(i >> 4)}[:1+i%3] // 1 to 3 bytes
				want = append(want, bufs[i]...)
			}
			if n, err := Writev(fd, bufs, tc.off); err != nil || n != len(want) {
				t.Fatalf("writev of %d buffers: %d %v, want %d", nbufs, n, err, len(want))
			}
			got := make([]byte, len(want)+1)
			if n, err := Read(fd, got, 0); err != nil || !bytes.Equal(got[:n], want) {
				t.Fatalf("file after writev: %d bytes %v, want the %d written in order", n, err, len(want))
			}
			if _, err := unix.Seek(fd, 0, 0); err != nil { // the position back at the start
				t.Fatal(err)
			}
			rbufs := make([][]byte, nbufs)
			for i := range rbufs {
				rbufs[i] = make([]byte, 1)
			}
			if n, err := Readv(fd, rbufs, tc.off); err != nil || n != iovMax {
				t.Fatalf("readv into %d one-byte buffers: %d %v, want %d (the first iovMax)", nbufs, n, err, iovMax)
			}
			for i := range iovMax {
				if rbufs[i][0] != want[i] {
					t.Fatalf("readv: byte %d is %d, want %d", i, rbufs[i][0], want[i])
				}
			}
		})
	}
}

// A write that the kernel takes in part, then refuses (a non-blocking pipe with room for
// 64 KiB), reports what it wrote and no error, as libuv's uv_fs_write does; Write and Writev
// alike, the latter with more buffers than iovMax.
func TestWriteShortThenEAGAIN(t *testing.T) {
	var p [2]int
	if err := unix.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	defer Close(p[0])
	defer Close(p[1])
	if err := unix.SetNonblock(p[1], true); err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 1<<20)
	n, err := Write(p[1], big, -1)
	if err != nil || n <= 0 || n >= len(big) {
		t.Fatalf("write of 1 MiB to an empty non-blocking pipe: %d %v, want its capacity and no error", n, err)
	}
	if _, err := Write(p[1], big[:1], -1); err != syscall.EAGAIN {
		t.Fatalf("write to the full pipe: %v, want EAGAIN", err)
	}
	drain := make([]byte, n)
	if m, err := Read(p[0], drain, -1); err != nil || m != n {
		t.Fatalf("drain: %d %v, want %d", m, err, n)
	}
	bufs := make([][]byte, 3*iovMax)
	for i := range bufs {
		bufs[i] = big[:1000]
	}
	if m, err := Writev(p[1], bufs, -1); err != nil || m != n {
		t.Fatalf("writev of %d buffers to the empty non-blocking pipe: %d %v, want %d and no error", len(bufs), m, err, n)
	}
}
