//go:build !linux

package ostest

import "time"

// ThreadCPU returns the CPU time the calling OS thread has used; only Linux tells
// (RUSAGE_THREAD).
func ThreadCPU() (time.Duration, error) { return 0, ErrUnsupported }
