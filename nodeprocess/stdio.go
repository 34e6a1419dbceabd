package nodeprocess

import (
	"os"
	"syscall"

	"github.com/uvgo/uvgo/internal/proc"

	"github.com/uvgo/uvgo/internal/tty"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// Stdin is process.stdin, whatever fd 0 is:
//
//   - a terminal: a TTY handle over the reopened terminal (Node's tty.ReadStream), IsTTY,
//     SetRawMode; the shell's fd keeps its flags;
//   - a pipe, FIFO or socket: a Pipe or TCP handle over a duplicate of fd 0 (Node's
//     net.Socket); its O_NONBLOCK is shared with the other users of the pipe, so Close puts
//     fd 0's flags back, as Node does at exit;
//   - a regular file or a character device such as /dev/null: read on the work pool (Node's
//     fs.ReadStream).
//
// Listeners are added with On ("data", "end", "close", "error"), OnData and OnEnd; Pause and
// Resume work on every kind. Loop goroutine only.
type Stdin struct {
	// Socket is the stream for a terminal, a pipe or a socket; nil for a file.
	Socket *nodenet.Socket
	// File is the reader of a regular file; nil otherwise.
	File  *FileStream
	IsTTY bool
	tty   *uvloop.TTY
}

// Stdin is process.stdin, created on first use. Reading starts when it gets a "data"
// listener or Resume, as in Node.
func (p *Process) Stdin() (*Stdin, error) {
	if p.stdin != nil {
		return p.stdin, nil
	}
	s, err := openStdin(p.loop, 0, p)
	if err != nil {
		return nil, err
	}
	p.stdin = s
	return s, nil
}

func openStdin(l *uvloop.Loop, fd int, p *Process) (*Stdin, error) {
	s := &Stdin{}
	switch uvloop.GuessHandle(fd) {
	case uvloop.HandleTTY:
		t, err := l.NewTTY(fd, true)
		if err != nil {
			return nil, err
		}
		s.tty, s.IsTTY = t, true
		s.Socket = nodenet.NewSocket(l, t, nodenet.SocketOptions{Readable: true, ManualStart: true})
	case uvloop.HandlePipe, uvloop.HandleTCP:
		h, err := p.openShared(fd)
		if err != nil {
			return nil, err
		}
		s.Socket = nodenet.NewSocket(l, h, nodenet.SocketOptions{Readable: true, ManualStart: true})
	default:
		nfd, err := tty.Dup(fd)
		if err != nil {
			return nil, os.NewSyscallError("dup", err)
		}
		s.File = newFileStream(l, nfd)
	}
	return s, nil
}

// openShared opens a pipe or socket stdio fd through a duplicate, remembering the fd's flags
// for Close.
func (p *Process) openShared(fd int) (uvloop.Stream, error) {
	flags, err := tty.Flags(fd)
	if err != nil {
		return nil, os.NewSyscallError("fcntl", err)
	}
	nfd, err := tty.Dup(fd)
	if err != nil {
		return nil, os.NewSyscallError("dup", err)
	}
	var h interface {
		uvloop.Stream
		Open(int) error
	}
	if uvloop.GuessHandle(fd) == uvloop.HandleTCP {
		h, err = p.loop.NewTCP()
	} else {
		h, err = p.loop.NewPipe()
	}
	if err == nil {
		err = h.Open(nfd)
	}
	if err != nil {
		tty.Close(nfd)
		if h != nil {
			h.Close(nil)
		}
		return nil, err
	}
	p.restore = append(p.restore, [2]int{fd, flags})
	return h, nil
}

// On adds a listener of "data", "end", "close" or "error".
func (s *Stdin) On(event string, fn func(args ...any)) *nodenet.Listener {
	if s.File != nil {
		l := s.File.On(event, fn)
		if event == "data" {
			s.File.Resume()
		}
		return l
	}
	l := s.Socket.On(event, fn)
	return l
}

// OnData adds a "data" listener, which makes the stream flow; chunks are fresh copies.
func (s *Stdin) OnData(fn func(data []byte)) *nodenet.Listener {
	if s.File != nil {
		return s.On("data", func(a ...any) { fn(a[0].([]byte)) })
	}
	return s.Socket.OnData(fn)
}

// OnEnd adds an "end" listener.
func (s *Stdin) OnEnd(fn func()) *nodenet.Listener { return s.On("end", func(...any) { fn() }) }

// Pause stops the flow of "data".
func (s *Stdin) Pause() {
	if s.File != nil {
		s.File.Pause()
		return
	}
	s.Socket.Pause()
}

// Resume starts (or restarts) the flow of "data".
func (s *Stdin) Resume() {
	if s.File != nil {
		s.File.Resume()
		return
	}
	s.Socket.Resume()
}

// SetRawMode is stdin.setRawMode(on) on a terminal; it fails on anything else.
func (s *Stdin) SetRawMode(on bool) error {
	if s.tty == nil {
		return &Error{Code: "ERR_TTY_INIT_FAILED", Message: "stdin is not a TTY"}
	}
	mode := uvloop.TTYModeNormal
	if on {
		mode = uvloop.TTYModeRaw
	}
	return s.tty.SetMode(mode)
}

func (s *Stdin) destroy() {
	if s.File != nil {
		s.File.Destroy()
		return
	}
	s.Socket.Destroy(nil)
}

// Stdout is process.stdout or process.stderr. Writes are synchronous, as Node's are on
// Linux for files, pipes and terminals alike: Write returns once the bytes are written (it
// waits if the fd is non-blocking and full), and its callback runs from a nextTick. A write
// that fails (EPIPE: the pipe's reader is gone) fails as in Node: Write returns false, the
// writes made until the next tick fail with it (their callbacks run, in order, from that
// tick), then "error" and "close" are emitted from another nextTick, and the stream takes
// writes again (Node's standard streams are never destroyed). With no "error" listener the
// error is uncaught, as in Node. Loop goroutine only.
type Stdout struct {
	nodenet.EventEmitter
	Fd    int
	IsTTY bool
	loop  *uvloop.Loop

	errored error         // the failed write's error until its tick (Node's state.errored)
	failed  []func(error) // the callbacks of that write and of those made after it
}

// Stdout is process.stdout (fd 1).
func (p *Process) Stdout() *Stdout {
	if p.stdout == nil {
		p.stdout = &Stdout{Fd: 1, IsTTY: tty.IsTerminal(1), loop: p.loop}
	}
	return p.stdout
}

// Stderr is process.stderr (fd 2).
func (p *Process) Stderr() *Stdout {
	if p.stderr == nil {
		p.stderr = &Stdout{Fd: 2, IsTTY: tty.IsTerminal(2), loop: p.loop}
	}
	return p.stderr
}

// Write writes data and reports whether it did: false when the write failed (see Stdout).
// cb, if not nil, runs from a nextTick with the outcome.
func (s *Stdout) Write(data []byte, cb func(err error)) bool {
	if s.errored != nil {
		s.failed = append(s.failed, cb) // Node buffers it behind the failed write
		return false
	}
	if err := tty.WriteAll(s.Fd, data); err != nil {
		code := errnoCode(err)
		werr := &Error{Code: code, Syscall: "write", Message: "write " + code, Err: os.NewSyscallError("write", err)}
		if e, ok := err.(syscall.Errno); ok {
			werr.Errno = -int(e)
		}
		s.errored = werr
		s.failed = append(s.failed[:0], cb)
		s.loop.NextTick(s.onWriteError)
		return false
	}
	if cb != nil {
		s.loop.NextTick(func() { cb(nil) })
	}
	return true
}

// onWriteError is Node's onwriteError with its standard streams' dummyDestroy: the failed
// write and those buffered behind it (also those their callbacks make) call back with the
// error, the stream takes writes again, and "error" then "close" follow from a nextTick.
func (s *Stdout) onWriteError() {
	err := s.errored
	for i := 0; i < len(s.failed); i++ {
		if cb := s.failed[i]; cb != nil {
			s.failed[i] = nil
			cb(err)
		}
	}
	s.failed = s.failed[:0]
	s.errored = nil
	s.loop.NextTick(func() {
		s.Emit("error", err)
		s.Emit("close")
	})
}

// WriteString writes a string.
func (s *Stdout) WriteString(data string, cb func(err error)) bool { return s.Write([]byte(data), cb) }

// WindowSize is stdout.getWindowSize() on a terminal: columns and rows.
func (s *Stdout) WindowSize() (columns, rows int, err error) {
	return tty.WinSize(s.Fd)
}

func errnoCode(err error) string {
	if e, ok := err.(syscall.Errno); ok {
		if name := proc.ErrnoName(e); name != "" {
			return name
		}
	}
	return "UNKNOWN"
}

// closeStdio closes the stdio streams opened, puts back the flags of the shared fds, and
// resets the terminal's mode, as Node does at exit.
func (p *Process) closeStdio() {
	if p.stdin != nil {
		p.stdin.destroy()
		p.stdin = nil
	}
	for _, r := range p.restore {
		tty.SetFlags(r[0], r[1])
	}
	p.restore = nil
	uvloop.ResetTTYMode()
}
