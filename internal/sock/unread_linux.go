package sock

import "golang.org/x/sys/unix"

// Unread returns the number of bytes that a stream socket received and the reader has not
// read yet (SIOCINQ).
func Unread(fd int) (int, error) { return unix.IoctlGetInt(fd, unix.SIOCINQ) }
