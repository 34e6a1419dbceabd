package poller_test

import "golang.org/x/sys/unix"

// pipe2 emulates pipe2(O_NONBLOCK|O_CLOEXEC), which macOS lacks.
func pipe2(p []int) error {
	if err := unix.Pipe(p); err != nil {
		return err
	}
	for _, fd := range p {
		unix.CloseOnExec(fd)
		if err := unix.SetNonblock(fd, true); err != nil {
			unix.Close(p[0])
			unix.Close(p[1])
			return err
		}
	}
	return nil
}
