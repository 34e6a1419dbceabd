//go:build unix

package main

import (
	"fmt"
	"syscall"
)

// raiseNofile raises RLIMIT_NOFILE's soft limit to the hard one.
func raiseNofile() {
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil && lim.Cur < lim.Max {
		lim.Cur = lim.Max
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
}

// limitNofile sets RLIMIT_NOFILE to n (or the hard limit, if that is lower).
func limitNofile(n int) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("getrlimit: %v", err)
	}
	max := lim.Max
	setTo(&lim.Max, n) // the fields are uint64 on most systems, int64 on the BSDs
	if lim.Max > max {
		lim.Max = max
	}
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("setrlimit: %v", err)
	}
	return nil
}

func setTo[T ~int64 | ~uint64](p *T, n int) { *p = T(n) }
