//go:build linux || freebsd || netbsd || dragonfly

package sock

import "testing"

// checkIOVecsCleared fails if Writev left a pointer into the caller's bytes in its scratch.
func checkIOVecsCleared(t *testing.T, iov *IOVecs) {
	t.Helper()
	if len(iov.v) == 0 {
		t.Fatal("Writev kept no iovecs")
	}
	for i, v := range iov.v {
		if v.Base != nil {
			t.Errorf("iovec %d still points into the caller's bytes", i)
		}
	}
}
