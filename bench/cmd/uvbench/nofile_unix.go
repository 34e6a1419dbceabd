//go:build unix

package main

import (
	"fmt"
	"syscall"
)

// raiseNofile raises RLIMIT_NOFILE to its hard limit, which must be at least need for conns
// connections; it returns why not, or "".
func raiseNofile(conns int, need uint64) string {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return "getrlimit: " + err.Error()
	}
	if uint64(lim.Max) < need {
		return fmt.Sprintf("RLIMIT_NOFILE hard limit is %d, %d connections need %d", lim.Max, conns, need)
	}
	// Set explicitly (even when Go raised it already), so that children inherit it.
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return "setrlimit: " + err.Error()
	}
	return ""
}
