//go:build darwin

package fswatch

import "golang.org/x/sys/unix"

// openEvtonly opens path for event notification only (O_EVTONLY), which does not keep a
// volume from unmounting.
func openEvtonly(path string) (int, error) {
	return unix.Open(path, unix.O_EVTONLY|unix.O_CLOEXEC, 0)
}
