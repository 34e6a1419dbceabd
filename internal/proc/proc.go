// Package proc holds the process and signal system calls of uvgo's loop: spawning a child
// with its stdio, working directory, session and credentials (fork and exec through
// package syscall), waiting for it, killing it, and the limits of signal numbers.
//
// # Conventions
//
// A function here fails with nil or a bare [syscall.Errno], never wrapped, so the caller can
// compare it and wrap it with the name of the system call (the loop's convention). EINTR
// never leaves this package. [ErrUnsupported] is what every function returns on a system
// with no implementation.
//
// # Mechanisms
//
//	proc_unix.go    spawn, kill, wait4, socketpair for stdio (the six Unix systems)
//	waitid_linux.go waiting for an exit without reaping (waitid with WNOWAIT)
//	wait_other.go   where that does not exist: the waiter reaps (darwin and the BSDs)
//	nsig_*.go       the number of signals (NSIG)
//	proc_other.go   every function fails with ErrUnsupported (windows and the rest)
//
// The package imports nothing of uvgo. Its functions are safe for concurrent use.
package proc

import (
	"errors"
	"fmt"
	"runtime"
)

// ErrUnsupported is what every function returns where this package has no implementation.
var ErrUnsupported = fmt.Errorf("proc: no process support on %s: %w", runtime.GOOS, errors.ErrUnsupported)

// Attr is what Spawn needs besides the program and its arguments.
type Attr struct {
	Dir      string   // "" is the parent's working directory
	Env      []string // nil is the parent's environment
	Files    []int    // the child's fds 0..n-1: a parent fd, DevNull or Closed
	Setsid   bool     // a new session (libuv's detached)
	SetUID   bool
	SetGID   bool
	UID, GID uint32
}

// Special values of Attr.Files.
const (
	DevNull = -1 // the child gets /dev/null (read-only as fd 0, read-write otherwise)
	Closed  = -2 // the child has no such fd
)

// Status is how a child ended: its exit code, or the signal that ended it.
type Status struct {
	Code   int // the exit code, 0 if a signal ended it
	Signal int // the terminating signal, 0 if it exited
}
