//go:build !linux

package tty

// OpenPty is not written for this system.
func OpenPty() (master, slave int, err error) { return -1, -1, ErrUnsupported }
