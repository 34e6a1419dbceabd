package proc

import "golang.org/x/sys/unix"

// WaitExit blocks until pid has exited. Here it does not reap it (waitid with WNOWAIT), so
// the pid stays the child's until Reap: a kill in between cannot reach another process.
// reaped is false; call Reap for the status.
func WaitExit(pid int) (st Status, reaped bool, err error) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return Status{}, false, bare(err)
		}
	}
}
