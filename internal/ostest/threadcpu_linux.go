package ostest

import (
	"time"

	"golang.org/x/sys/unix"
)

// ThreadCPU returns the CPU time (user and system) the calling OS thread has used
// (getrusage RUSAGE_THREAD); lock the goroutine to its thread around what it measures.
func ThreadCPU() (time.Duration, error) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0, err
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
