package sock

import "golang.org/x/sys/unix"

// Unread returns the number of bytes that a stream socket received and the reader has not
// read yet (SIOCINQ).
func Unread(fd int) (int, error) { return unix.IoctlGetInt(fd, unix.SIOCINQ) }

// HungUp reports whether a socket is shut down in both directions or closed (poll(2)'s
// POLLHUP: the peer's end and the socket's own shutdown, or a reset), without waiting and
// without taking the socket's pending error.
func HungUp(fd int) bool {
	p := []unix.PollFd{{Fd: int32(fd)}}
	for {
		n, err := unix.Poll(p, 0)
		if err == unix.EINTR {
			continue
		}
		return err == nil && n == 1 && p[0].Revents&unix.POLLHUP != 0
	}
}
