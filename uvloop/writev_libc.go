//go:build darwin || openbsd

package uvloop

import "golang.org/x/sys/unix"

// writev writes bufs with one writev(2) through libc.
func writev(fd int, bufs [][]byte, _ *streamShared) (int, error) {
	return unix.Writev(fd, bufs)
}
