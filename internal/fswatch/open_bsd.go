//go:build freebsd || netbsd || openbsd || dragonfly

package fswatch

import "golang.org/x/sys/unix"

// openEvtonly opens path read-only, to watch it (these systems have no O_EVTONLY).
func openEvtonly(path string) (int, error) {
	return unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
}
