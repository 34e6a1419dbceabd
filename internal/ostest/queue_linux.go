package ostest

import "golang.org/x/sys/unix"

// KernelQueue creates the system's kernel event queue, empty, as a close-on-exec descriptor
// that the caller closes: an epoll instance here.
func KernelQueue() (int, error) { return unix.EpollCreate1(unix.EPOLL_CLOEXEC) }
