//go:build unix

package main

import "syscall"

// raiseNofile raises RLIMIT_NOFILE's soft limit to the hard one and returns the soft limit.
func raiseNofile() uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < lim.Max {
		lim.Cur = lim.Max
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
	return uint64(lim.Cur)
}
