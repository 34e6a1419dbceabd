//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package ostest

// KernelQueue creates the system's kernel event queue; there is none here.
func KernelQueue() (int, error) { return -1, ErrUnsupported }
