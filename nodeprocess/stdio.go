package nodeprocess

import (
	"errors"
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
		if t, terr := p.loop.NewTCP(); terr == nil {
			h = t // not a nil *TCP in a non-nil interface: Close below would panic on it
		} else {
			err = terr
		}
	} else {
		if pp, perr := p.loop.NewPipe(); perr == nil {
			h = pp
		} else {
			err = perr
		}
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

// Stdout is process.stdout or process.stderr. As in Node on Linux, writes to a file or a
// terminal are synchronous: Write returns once the bytes are written (it waits if the fd is
// non-blocking and full), and its callback runs from a nextTick. On a pipe or a socket
// (Node's net.Socket) Write writes what the pipe takes at once and queues the rest, which
// goes out while the loop runs on (a queued write keeps the loop alive): Write returns
// false when more than highWaterMark (16 KiB) bytes wait, its callback runs once its bytes
// are written, and "drain" follows when a queue that made Write return false has drained.
// The fd's O_NONBLOCK, which the pipe's other users share, is put back by Close.
//
// A write that fails (EPIPE: the pipe's reader is gone) fails as in Node: Write returns
// false, the writes made until the next tick fail with it (their callbacks run, in order,
// from that tick; for a failure of a queued write, at once), then "error" and "close" are
// emitted from another nextTick, and the stream takes writes again (Node's standard
// streams are never destroyed). With no "error" listener the error is uncaught, as in
// Node. Loop goroutine only.
type Stdout struct {
	nodenet.EventEmitter
	Fd    int
	IsTTY bool
	loop  *uvloop.Loop
	p     *Process

	columns, rows int // a terminal's size, as last read (Node's columns and rows)

	opened    bool          // the pipe or socket stream was looked for (stream, if any)
	stream    uvloop.Stream // a pipe's or a socket's stream, on a duplicate of Fd; nil for files and terminals
	length    int           // bytes written and not yet reported written (Node's writableLength)
	needDrain bool          // Write returned false: "drain" when length is back to 0
	errored   error         // the failed write's error until its tick (Node's state.errored)
	failed    []func(error) // the callbacks of that write and of those made after it
}

// stdoutHWM is the highWaterMark of Node's net.Socket.
const stdoutHWM = 16 << 10

// Stdout is process.stdout (fd 1). On a terminal it has Node's size (Columns, Rows) and
// its "resize" event: as in Node, a "SIGWINCH" listener on the process reads the size
// again, and "resize" follows when it changed.
func (p *Process) Stdout() *Stdout {
	if p.stdout == nil {
		p.stdout = p.newStdout(1)
	}
	return p.stdout
}

// Stderr is process.stderr (fd 2), as Stdout.
func (p *Process) Stderr() *Stdout {
	if p.stderr == nil {
		p.stderr = p.newStdout(2)
	}
	return p.stderr
}

// newStdout makes the stream of fd; on a terminal it reads its size and listens for
// SIGWINCH, as Node's getStdout does.
func (p *Process) newStdout(fd int) *Stdout {
	s := &Stdout{Fd: fd, IsTTY: tty.IsTerminal(fd), loop: p.loop, p: p}
	switch { // the class of Node's stream, for the leak warning
	case s.IsTTY:
		s.SetClassName("WriteStream")
	case uvloop.GuessHandle(fd) == uvloop.HandleFile:
		s.SetClassName("SyncWriteStream")
	default:
		s.SetClassName("Socket")
	}
	if s.IsTTY {
		s.columns, s.rows, _ = tty.WinSize(fd)
		p.OnSignal("SIGWINCH", func(string, int) { s.refreshSize() })
	}
	return s
}

// refreshSize is Node's _refreshSize: the terminal's size read again, and "resize" if it
// changed.
func (s *Stdout) refreshSize() {
	c, r, err := tty.WinSize(s.Fd)
	if err != nil || c == s.columns && r == s.rows {
		return
	}
	s.columns, s.rows = c, r
	s.Emit("resize")
}

// Columns is stdout.columns: the terminal's width, 0 if the stream is not a terminal.
func (s *Stdout) Columns() int { return s.columns }

// Rows is stdout.rows: the terminal's height, 0 if the stream is not a terminal.
func (s *Stdout) Rows() int { return s.rows }

// OnResize adds a "resize" listener (a terminal's size changed).
func (s *Stdout) OnResize(fn func()) *nodenet.Listener { return s.On("resize", func(...any) { fn() }) }

// pipeStream is the stream of a pipe or socket fd, opened on first use (unref'd: an idle
// stdout does not keep the loop alive, a queued write does); nil for the other kinds, and
// if it cannot be opened (then writes are synchronous).
func (s *Stdout) pipeStream() uvloop.Stream {
	if s.opened {
		return s.stream
	}
	s.opened = true
	if k := uvloop.GuessHandle(s.Fd); k != uvloop.HandlePipe && k != uvloop.HandleTCP {
		return nil
	}
	h, err := s.p.openShared(s.Fd)
	if err != nil {
		return nil
	}
	h.Unref()
	s.stream = h
	return h
}

// Write writes data (see Stdout) and reports whether the caller may go on writing: false
// when the write failed or more than highWaterMark bytes wait. cb, if not nil, gets the
// outcome: from a nextTick if the bytes were written at once.
func (s *Stdout) Write(data []byte, cb func(err error)) bool {
	if s.errored != nil {
		s.failed = append(s.failed, cb) // Node buffers it behind the failed write
		return false
	}
	st := s.pipeStream()
	if st == nil {
		if err := tty.WriteAll(s.Fd, data); err != nil {
			s.failNow(err, cb)
			return false
		}
		if cb != nil {
			s.loop.NextTick(func() { cb(nil) })
		}
		return true
	}
	n := len(data)
	s.length += n
	ok := s.length < stdoutHWM
	if !ok {
		s.needDrain = true
	}
	rest := data
	if st.WriteQueueSize() == 0 {
		k, err := st.TryWrite(data)
		switch {
		case err == nil && k == n:
			s.length -= n
			s.loop.NextTick(func() { s.afterWrite(cb) })
			return ok
		case err != nil && !errors.Is(err, syscall.EAGAIN):
			s.length -= n
			s.failNow(err, cb)
			return false
		}
		rest = data[k:]
	}
	err := st.Write(append([]byte(nil), rest...), func(err error) {
		s.length -= n
		if err != nil {
			// Node's onwrite of a write that failed later: its callback and those buffered
			// behind it at once, then "error" and "close" from a nextTick.
			s.errored = writeError(err)
			s.failed = append([]func(error){cb}, s.failed...)
			s.onWriteError()
			return
		}
		s.afterWrite(cb)
	})
	if err != nil {
		s.length -= n
		s.failNow(err, cb)
		return false
	}
	return ok && s.errored == nil
}

// afterWrite is Node's afterWrite: "drain" if a write waited for it, then the callback.
func (s *Stdout) afterWrite(cb func(error)) {
	if s.needDrain && s.length == 0 {
		s.needDrain = false
		s.Emit("drain")
	}
	if cb != nil {
		cb(nil)
	}
}

// failNow is a write that failed at once: the error is set now, the callbacks and events
// come from a nextTick (onWriteError).
func (s *Stdout) failNow(err error, cb func(error)) {
	s.errored = writeError(err)
	s.failed = append(s.failed[:0], cb)
	s.loop.NextTick(s.onWriteError)
}

// writeError is Node's error of a failed write: "write EPIPE", with the errno.
func writeError(err error) *Error {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		errno = syscall.EIO
	}
	code := errnoCode(errno)
	return &Error{Errno: -int(errno), Code: code, Syscall: "write", Message: "write " + code, Err: os.NewSyscallError("write", errno)}
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
	for _, o := range []*Stdout{p.stdout, p.stderr} {
		if o != nil && o.stream != nil {
			o.stream.Close(nil)
			o.stream = nil
		}
	}
	for _, r := range p.restore {
		tty.SetFlags(r[0], r[1])
	}
	p.restore = nil
	uvloop.ResetTTYMode()
}
