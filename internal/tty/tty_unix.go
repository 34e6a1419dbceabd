//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package tty

import (
	"syscall"

	"golang.org/x/sys/unix"
)

func bare(err error) error {
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	return err
}

// IsTerminal reports whether fd is a terminal.
func IsTerminal(fd int) bool {
	_, err := getTermios(fd)
	return err == nil
}

// Guess tells what fd refers to (uv_guess_handle).
func Guess(fd int) Kind {
	if fd < 0 {
		return Unknown
	}
	if IsTerminal(fd) {
		return TTY
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return Unknown
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG, unix.S_IFCHR:
		return File
	case unix.S_IFIFO:
		return Pipe
	case unix.S_IFSOCK:
	default:
		return Unknown
	}
	typ, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TYPE)
	if err != nil {
		return Unknown
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return Unknown
	}
	switch sa.(type) {
	case *unix.SockaddrUnix:
		if typ == unix.SOCK_STREAM {
			return Pipe
		}
	case *unix.SockaddrInet4, *unix.SockaddrInet6:
		switch typ {
		case unix.SOCK_STREAM:
			return TCP
		case unix.SOCK_DGRAM:
			return UDP
		}
	}
	return Unknown
}

// State is a terminal's saved mode.
type State struct{ t unix.Termios }

// GetState saves fd's terminal mode.
func GetState(fd int) (*State, error) {
	t, err := getTermios(fd)
	if err != nil {
		return nil, err
	}
	return &State{t: *t}, nil
}

// Restore puts back a saved mode.
func Restore(fd int, s *State) error {
	t := s.t
	return setTermios(fd, &t)
}

// SetMode sets fd's terminal to mode, starting from the saved orig (uv_tty_set_mode).
func SetMode(fd int, orig *State, mode Mode) error {
	t := orig.t
	switch mode {
	case ModeNormal:
	case ModeRaw, ModeIO:
		t.Iflag &^= unix.BRKINT | unix.ICRNL | unix.INPCK | unix.ISTRIP | unix.IXON
		t.Oflag |= unix.ONLCR
		t.Cflag |= unix.CS8
		t.Lflag &^= unix.ECHO | unix.ICANON | unix.IEXTEN | unix.ISIG
		t.Cc[unix.VMIN] = 1
		t.Cc[unix.VTIME] = 0
		if mode == ModeIO {
			t.Iflag &^= unix.IGNBRK | unix.PARMRK | unix.INLCR | unix.IGNCR
			t.Oflag &^= unix.OPOST
			t.Lflag &^= unix.ECHONL
			t.Cflag &^= unix.CSIZE | unix.PARENB
			t.Cflag |= unix.CS8
		}
	default:
		return syscall.EINVAL
	}
	return setTermios(fd, &t)
}

// WinSize is the terminal's width and height in characters.
func WinSize(fd int) (width, height int, err error) {
	for {
		ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, 0, bare(err)
		}
		return int(ws.Col), int(ws.Row), nil
	}
}

// Reopen opens the terminal fd refers to again, as a new open file description (close-on-
// exec, with fd's access mode), so that the loop can make it non-blocking without changing
// the flags that the fd's other users (the parent shell) see, as libuv's uv_tty_init does.
// It fails where the path cannot be found or opened; then use the fd itself.
func Reopen(fd int) (int, error) {
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return -1, bare(err)
	}
	path, err := ttyName(fd)
	if err != nil {
		return -1, err
	}
	for {
		nfd, err := unix.Open(path, fl&unix.O_ACCMODE|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1, bare(err)
		}
		return nfd, nil
	}
}

// Dup duplicates fd as a close-on-exec fd.
func Dup(fd int) (int, error) {
	for {
		nfd, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 3)
		if err == unix.EINTR {
			continue
		}
		return nfd, bare(err)
	}
}

// Flags returns fd's file status flags (F_GETFL); SetFlags sets them.
func Flags(fd int) (int, error) {
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	return fl, bare(err)
}

// Access reports whether fd was opened for reading and for writing (its F_GETFL access
// mode).
func Access(fd int) (read, write bool, err error) {
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return false, false, bare(err)
	}
	mode := fl & unix.O_ACCMODE
	return mode != unix.O_WRONLY, mode != unix.O_RDONLY, nil
}

// SetFlags: see Flags.
func SetFlags(fd, flags int) error {
	_, err := unix.FcntlInt(uintptr(fd), unix.F_SETFL, flags)
	return bare(err)
}

// SetNonblock makes fd non-blocking (or blocking).
func SetNonblock(fd int, on bool) error { return bare(unix.SetNonblock(fd, on)) }

// Close closes fd.
func Close(fd int) error { return bare(unix.Close(fd)) }

// Read reads from fd, blocking (for a worker), retrying EINTR.
func Read(fd int, p []byte) (int, error) {
	for {
		n, err := unix.Read(fd, p)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, bare(err)
		}
		return n, nil
	}
}

// WriteAll writes all of p to fd, waiting for the fd to take it if it is non-blocking.
func WriteAll(fd int, p []byte) error {
	for len(p) > 0 {
		n, err := unix.Write(fd, p)
		switch err {
		case nil:
			p = p[n:]
		case unix.EINTR:
		case unix.EAGAIN:
			pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
			if _, err := unix.Poll(pfd, -1); err != nil && err != unix.EINTR {
				return bare(err)
			}
		default:
			return bare(err)
		}
	}
	return nil
}

// Canonical reports whether fd's terminal echoes and edits lines (ECHO and ICANON), as in
// the normal mode.
func Canonical(fd int) (echo, icanon bool, err error) {
	t, err := getTermios(fd)
	if err != nil {
		return false, false, err
	}
	return t.Lflag&unix.ECHO != 0, t.Lflag&unix.ICANON != 0, nil
}

// SetWinSize sets the terminal's window size (as a terminal emulator does).
func SetWinSize(fd, width, height int) error {
	return bare(unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(width), Row: uint16(height)}))
}
