// Package tty holds the terminal and standard-stream system calls of uvgo's loop: whether an
// fd is a terminal and what else it may be (uv_guess_handle), the terminal's modes (termios)
// and window size, reopening a terminal so that its flags are the loop's own, fd flags, and
// the blocking reads and writes that stdio needs for files.
//
// # Conventions
//
// As in internal/sock: a function fails with nil or a bare syscall.Errno, EINTR is retried
// inside, and ErrUnsupported is the answer where there is no implementation.
//
//	tty_unix.go      the calls common to the six Unix systems
//	termios_linux.go TCGETS/TCSETS; termios_bsd.go TIOCGETA/TIOCSETA (darwin and the BSDs)
//	ttyname_linux.go the terminal's path from /proc; ttyname_other.go: none (no reopen)
//	tty_other.go     every function fails with ErrUnsupported (windows and the rest)
package tty

import (
	"errors"
	"fmt"
	"runtime"
)

// ErrUnsupported is what every function returns where this package has no implementation.
var ErrUnsupported = fmt.Errorf("tty: no terminal support on %s: %w", runtime.GOOS, errors.ErrUnsupported)

// Kind is what an fd refers to (uv_handle_type as uv_guess_handle reports it).
type Kind int

// The kinds of fd.
const (
	Unknown Kind = iota
	TTY
	Pipe // a pipe, a FIFO or a Unix domain stream socket
	TCP
	UDP
	File // a regular file or a character device that is not a terminal
)

// Mode is a terminal mode (uv_tty_mode_t).
type Mode int

// The terminal modes.
const (
	ModeNormal Mode = iota // as the terminal was
	ModeRaw                // raw input: no echo, no line editing, no signals from keys
	ModeIO                 // binary-safe I/O: raw, and output post-processing off too
)
