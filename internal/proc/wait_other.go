//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package proc

// WaitExit blocks until pid has exited and reaps it (a blocking wait4): reaped is true and st
// is how it ended.
func WaitExit(pid int) (st Status, reaped bool, err error) {
	return wait4(pid, 0)
}
