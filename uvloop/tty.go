package uvloop

import (
	"os"
	"sync"
	"syscall"

	"github.com/uvgo/uvgo/internal/tty"
)

// This file is libuv's tty.c and uv_guess_handle: a TTY handle is a stream over a terminal,
// with its modes and window size. The terminal is reopened (a new open file description of
// the same device), so that making it non-blocking does not change the flags of the parent
// shell that shares the original fd; the fd given is never closed.

// HandleType is what an fd refers to, as uv_guess_handle tells it.
type HandleType int

// The types GuessHandle tells apart.
const (
	HandleUnknown HandleType = iota
	HandleTTY                // a terminal: NewTTY
	HandlePipe               // a pipe, a FIFO or a Unix domain stream socket: Pipe.Open
	HandleTCP                // a TCP socket: TCP.Open
	HandleUDP                // a UDP socket
	HandleFile               // a regular file or another character device: read it on the work pool
)

var handleTypeNames = [...]string{"unknown", "tty", "pipe", "tcp", "udp", "file"}

// String is the type's name: "tty", "pipe", ...
func (t HandleType) String() string {
	if t >= 0 && int(t) < len(handleTypeNames) {
		return handleTypeNames[t]
	}
	return handleTypeNames[0]
}

// GuessHandle tells what fd refers to (uv_guess_handle), so that stdio can pick its handle.
func GuessHandle(fd int) HandleType { return HandleType(tty.Guess(fd)) }

// TTYMode is a terminal mode (uv_tty_mode_t).
type TTYMode int

// The terminal modes.
const (
	TTYModeNormal TTYMode = TTYMode(tty.ModeNormal) // the mode the terminal had
	TTYModeRaw    TTYMode = TTYMode(tty.ModeRaw)    // raw input: no echo, no line editing, no signals from keys
	TTYModeIO     TTYMode = TTYMode(tty.ModeIO)     // raw, and no output processing: binary-safe
)

// TTY is a terminal stream (uv_tty_t). See Stream for reading and writing. Loop goroutine
// only, but for ResetTTYMode.
type TTY struct {
	stream
	mode   TTYMode
	orig   int  // the fd given to NewTTY; never closed by the handle
	shared bool // the handle's fd shares orig's file description: its flags are put back on close
	flags0 int  // orig's file status flags before, when shared
}

// savedTTY is the terminal's mode before the first SetMode of the process, for ResetTTYMode
// (libuv's orig_termios). mu guards it: ResetTTYMode may run on any goroutine.
var savedTTY struct {
	mu    sync.Mutex
	fd    int
	state *tty.State
}

// NewTTY creates a TTY handle for fd, a terminal (uv_tty_init). readable says whether it
// will be read (stdin) or written (stdout, stderr); as in libuv, fd's access mode bounds it:
// the handle is writable only if fd was opened for writing, readable only if also opened for
// reading. The handle reads and writes a new open file description of the terminal (with
// fd's access mode), non-blocking; fd itself is left as it was and is not closed by Close. Where the terminal cannot be reopened, a duplicate of fd is used, and then
// it is made non-blocking for as long as the handle is open. It fails with an error wrapping
// EINVAL if fd is not a terminal, ErrBadFd for a negative fd.
func (l *Loop) NewTTY(fd int, readable bool) (*TTY, error) {
	if l.closed {
		return nil, ErrClosed
	}
	if fd < 0 {
		return nil, ErrBadFd
	}
	if !tty.IsTerminal(fd) {
		return nil, os.NewSyscallError("tty", syscall.EINVAL)
	}
	canRead, canWrite, err := tty.Access(fd)
	if err != nil {
		return nil, os.NewSyscallError("fcntl", err)
	}
	t := &TTY{orig: fd}
	nfd, err := tty.Reopen(fd)
	if err != nil {
		if t.flags0, err = tty.Flags(fd); err != nil {
			return nil, os.NewSyscallError("fcntl", err)
		}
		if nfd, err = tty.Dup(fd); err != nil {
			return nil, os.NewSyscallError("dup", err)
		}
		t.shared = true
	}
	if err := tty.SetNonblock(nfd, true); err != nil {
		tty.Close(nfd)
		return nil, os.NewSyscallError("fcntl", err)
	}
	t.stream.init(l, t, KindTTY)
	flags := sConnected
	if canWrite {
		flags |= sWritable
	}
	if readable && canRead {
		flags |= sReadable
	}
	if err := t.open(nfd, flags); err != nil {
		tty.Close(nfd)
		t.flags |= flagClosed
		l.handles.remove(&t.handle)
		return nil, err
	}
	return t, nil
}

// SetMode sets the terminal's mode (uv_tty_set_mode). The mode the terminal had before the
// process's first SetMode is saved, for TTYModeNormal and ResetTTYMode.
func (t *TTY) SetMode(mode TTYMode) error {
	if err := t.usable(); err != nil {
		return err
	}
	if mode == t.mode {
		return nil
	}
	savedTTY.mu.Lock()
	defer savedTTY.mu.Unlock()
	if savedTTY.state == nil {
		st, err := tty.GetState(t.io.fd)
		if err != nil {
			return os.NewSyscallError("tcgetattr", err)
		}
		savedTTY.fd, savedTTY.state = t.orig, st
	}
	if err := tty.SetMode(t.io.fd, savedTTY.state, tty.Mode(mode)); err != nil {
		return os.NewSyscallError("tcsetattr", err)
	}
	t.mode = mode
	return nil
}

// Mode is the mode SetMode last set.
func (t *TTY) Mode() TTYMode { return t.mode }

// WinSize is the terminal's width and height in characters (uv_tty_get_winsize).
func (t *TTY) WinSize() (width, height int, err error) {
	if err := t.usable(); err != nil {
		return 0, 0, err
	}
	w, h, err := tty.WinSize(t.io.fd)
	if err != nil {
		return 0, 0, os.NewSyscallError("ioctl", err)
	}
	return w, h, nil
}

// ResetTTYMode puts the terminal back in the mode it had before the process's first
// SetMode (uv_tty_reset_mode): call it before the process exits, as Node does. It does
// nothing if no mode was set. Safe from any goroutine (a signal handler's, say).
func ResetTTYMode() error {
	savedTTY.mu.Lock()
	defer savedTTY.mu.Unlock()
	if savedTTY.state == nil {
		return nil
	}
	if err := tty.Restore(savedTTY.fd, savedTTY.state); err != nil {
		return os.NewSyscallError("tcsetattr", err)
	}
	return nil
}

// closeStart closes the reopened terminal (or the duplicate, and puts the flags back); the
// fd given stays open.
func (t *TTY) closeStart() {
	t.stream.closeStart()
	if t.shared {
		tty.SetFlags(t.orig, t.flags0)
		t.shared = false
	}
}
