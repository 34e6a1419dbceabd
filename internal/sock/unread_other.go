//go:build !linux

package sock

// Unread is only needed by Linux's io_uring backend: ErrUnsupported elsewhere.
func Unread(fd int) (int, error) { return 0, ErrUnsupported }

// HungUp is false off Linux: there the streams keep ending with the read after the short
// one (uvloop's hangup shortcut after a short read, on epoll and the ring, is Linux's).
func HungUp(fd int) bool { return false }
