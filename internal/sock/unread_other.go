//go:build !linux

package sock

// Unread is only needed by Linux's io_uring backend: ErrUnsupported elsewhere.
func Unread(fd int) (int, error) { return 0, ErrUnsupported }

// HungUp is only needed by Linux's io_uring backend: false elsewhere.
func HungUp(fd int) bool { return false }
