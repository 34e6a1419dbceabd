//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"bytes"
	"os"
	"path/filepath"
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
