// Package nodechild is Node.js's child_process module for code ported to uvgo: Spawn returns
// a ChildProcess, an EventEmitter whose stdin, stdout and stderr are nodenet Sockets over
// uvloop pipes, and Exec and ExecFile collect a child's output for a callback or a promise.
// It runs on uvloop's Process handle.
//
// # Events, in Node's order
//
//	"spawn"            from a nextTick after Spawn, when the child started
//	"error" [error]    from a nextTick after Spawn when the program could not be started
//	                   (ENOENT, EACCES, ...), with Node's fields; or when Kill fails
//	"exit" [code, signal]  from the loop's exit callback (poll phase): code is the exit
//	                   code (an int) or nil, signal the name of the signal ("SIGTERM") or nil
//	"close" [code, signal] once the child has exited and its stdout and stderr have closed
//
// A Spawn that cannot start its program does not return an error: as in Node, the error
// arrives as the "error" event, stdout and stderr end (their pipes are open, on socket
// pairs whose other ends are closed, as libuv leaves them) and "close" (with the negative
// errno as the code) follows once they have closed. Bad arguments (an empty file) are
// returned at once, as Node throws them.
//
// Everything in this package belongs to the loop goroutine.
package nodechild

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/uvgo/uvgo/internal/proc"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// Error is an error as Node's child_process reports it: a system error (Errno, Code,
// Syscall, Path, Spawnargs) or an argument error (Code "ERR_...").
type Error struct {
	Errno     int    // the negative errno (-2 for ENOENT); 0 for argument errors
	Code      string // "ENOENT", "ERR_INVALID_ARG_VALUE", ...
	Syscall   string // "spawn ls", "kill"
	Path      string // the program, for spawn errors
	Spawnargs []string
	Message   string
	Err       error // the cause, or nil
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// errnoException is Node's ErrnoException(err, syscall): "spawn ls ENOENT".
func errnoException(err error, op string) *Error {
	code, errno := "UNKNOWN", 0
	var e syscall.Errno
	if errors.As(err, &e) {
		if name := proc.ErrnoName(e); name != "" {
			code = name
		}
		errno = -int(e)
	}
	return &Error{Errno: errno, Code: code, Syscall: op, Message: op + " " + code, Err: err}
}

// SpawnOptions are child_process.spawn's options. The zero value (or nil) is Node's default.
type SpawnOptions struct {
	Cwd string
	// Env is the child's environment as "KEY=value"; nil is the parent's.
	Env []string
	// Stdio is what the child's fds 0, 1, 2 (and more) become: "pipe" (the default for the
	// first three), "ignore" or "inherit" (the parent's same fd).
	Stdio    []string
	Detached bool
	// UID and GID, if not nil, run the child as that user and group.
	UID, GID *uint32
	// Shell runs the command through /bin/sh -c, the arguments joined to it with spaces.
	Shell bool
	// Signal, if not nil, kills the child with KillSignal when aborted and, if the signal
	// was delivered, emits "error" with a *nodeevents.AbortError (Cause the signal's
	// reason) right away; "exit" and "close" follow when the child has died, as in Node.
	// A signal aborted already does this on a nextTick, after "spawn".
	Signal *nodeevents.AbortSignal
	// KillSignal is the signal an aborted Signal sends, its name in any case; "" is SIGTERM.
	// An unknown name fails Spawn at once (ERR_UNKNOWN_SIGNAL), as Node throws.
	KillSignal string
}

// ChildProcess is Node's ChildProcess. Loop goroutine only.
type ChildProcess struct {
	nodenet.EventEmitter

	// Stdin, Stdout and Stderr are the ends of the child's "pipe" stdio, nil for the others.
	// As in Node, every pipe is a duplex socket pair: Stdin is writable only, the others
	// (Stdout, Stderr, a pipe beyond fd 2) readable and writable.
	Stdin, Stdout, Stderr *nodenet.Socket
	// Stdio are the sockets of every fd, nil where there is none.
	Stdio []*nodenet.Socket

	// Pid is the child's process id; 0 if it did not start.
	Pid int
	// ExitCode is the exit code once the child exited by itself (nil before, and if a signal
	// ended it); a negative errno if it did not start.
	ExitCode *int
	// SignalCode is the name of the signal that ended the child ("SIGTERM"), or "".
	SignalCode string
	// Killed is set once Kill delivered a signal.
	Killed bool
	// Spawnfile and Spawnargs are the program and the arguments (Spawnargs[0] the program).
	Spawnfile string
	Spawnargs []string

	loop        *uvloop.Loop
	handle      *uvloop.Process // nil once exited
	closesNeed  int
	closesGot   int
	spawnFailed bool
	stdioDead   bool // the program did not start and its stdio pipes could not be opened
}

// openWidowed opens p on one end of a new socket pair whose other end is closed, as libuv
// leaves the stdio pipes of a child that did not start: reads see EOF, writes EPIPE.
func openWidowed(p *uvloop.Pipe) error {
	parent, child, err := proc.Socketpair()
	if err != nil {
		return os.NewSyscallError("socketpair", err)
	}
	proc.Close(child)
	if err := p.Open(parent); err != nil {
		proc.Close(parent)
		return err
	}
	return nil
}

// Spawn is child_process.spawn(command, args, options). It returns an error only for bad
// arguments; everything else arrives as events.
func Spawn(l *uvloop.Loop, command string, args []string, opts *SpawnOptions) (*ChildProcess, error) {
	var o SpawnOptions
	if opts != nil {
		o = *opts
	}
	if command == "" {
		return nil, &Error{Code: "ERR_INVALID_ARG_VALUE", Message: "The argument 'file' cannot be empty. Received ''"}
	}
	if o.KillSignal != "" && signalNumber(o.KillSignal) == 0 {
		return nil, errUnknownSignal(o.KillSignal) // Node's sanitizeKillSignal throws
	}
	file := command
	argv := append([]string{command}, args...)
	if o.Shell {
		cmd := command
		for _, a := range args {
			cmd += " " + a
		}
		file = "/bin/sh"
		argv = []string{"/bin/sh", "-c", cmd}
	}
	stdio := o.Stdio
	for len(stdio) < 3 {
		stdio = append(stdio, "pipe")
	}
	c := &ChildProcess{loop: l, Spawnfile: file, Spawnargs: argv, closesNeed: 1}
	c.SetClassName("ChildProcess")
	containers := make([]uvloop.StdioContainer, len(stdio))
	pipes := make([]*uvloop.Pipe, len(stdio))
	for i, kind := range stdio {
		switch kind {
		case "pipe":
			p, err := l.NewPipe()
			if err != nil {
				return nil, err
			}
			pipes[i] = p
			// Duplex, as Node's: process_wrap gives every pipe UV_READABLE_PIPE and
			// UV_WRITABLE_PIPE.
			containers[i] = uvloop.StdioContainer{Flags: uvloop.StdioCreatePipe, Stream: p, Readable: true, Writable: true}
		case "ignore":
		case "inherit":
			containers[i] = uvloop.StdioContainer{Flags: uvloop.StdioInheritFd, Fd: i}
		default:
			for _, p := range pipes {
				if p != nil {
					p.Close(nil)
				}
			}
			return nil, &Error{Code: "ERR_INVALID_ARG_VALUE", Message: fmt.Sprintf("The argument 'stdio' is invalid. Received '%s'", kind)}
		}
	}
	po := &uvloop.ProcessOptions{File: file, Args: argv, Env: o.Env, Dir: o.Cwd, Stdio: containers,
		Detached: o.Detached, OnExit: c.onExit}
	if o.UID != nil {
		po.SetUID, po.UID = true, *o.UID
	}
	if o.GID != nil {
		po.SetGID, po.GID = true, *o.GID
	}
	h, err := l.Spawn(po)
	if err != nil {
		var errno syscall.Errno
		if !errors.As(err, &errno) {
			errno = syscall.EINVAL
		}
		switch errno {
		case syscall.EACCES, syscall.EAGAIN, syscall.EMFILE, syscall.ENFILE, syscall.ENOENT:
			// Node: a run-time error is an event; the stdio sockets still exist. libuv
			// opens their pipes all the same, on socket pairs whose child ends are closed,
			// so stdout and stderr read EOF ('end') and close (but with no fd to spare).
			c.spawnFailed = true
			for _, p := range pipes {
				if p != nil && !c.stdioDead && openWidowed(p) != nil {
					c.stdioDead = true
				}
			}
			l.NextTick(func() { c.onexit(-int(errno), 0) })
		default:
			for _, p := range pipes {
				if p != nil {
					p.Close(nil)
				}
			}
			e := errnoException(errno, "spawn")
			return nil, e
		}
	} else {
		c.handle = h
		c.Pid = h.Pid()
		l.NextTick(func() { c.Emit("spawn") })
		if sig := o.Signal; sig != nil {
			onAbort := func(reason error) {
				if c.Kill(o.KillSignal) {
					c.Emit("error", &nodeevents.AbortError{Cause: reason})
				}
			}
			if sig.Aborted() {
				l.NextTick(func() { onAbort(sig.Reason()) })
			} else {
				stop := sig.Watch(onAbort)
				c.Once("exit", func(...any) { stop() })
			}
		}
	}
	c.Stdio = make([]*nodenet.Socket, len(stdio))
	for i, p := range pipes {
		if p == nil {
			continue
		}
		// Node's createSocket(pipe, i > 0): every socket is writable, those but stdin's
		// readable.
		s := nodenet.NewSocket(l, p, nodenet.SocketOptions{Readable: i > 0 && !c.stdioDead, Writable: !c.stdioDead})
		c.Stdio[i] = s
		if i > 0 {
			c.closesNeed++
			s.OnClose(func(bool) { c.maybeClose() })
		}
	}
	c.Stdin, c.Stdout, c.Stderr = c.Stdio[0], c.Stdio[1], c.Stdio[2]
	return c, nil
}

// onExit is the Process handle's exit callback.
func (c *ChildProcess) onExit(p *uvloop.Process, status int64, sig syscall.Signal) {
	c.onexit(int(status), sig)
}

// onexit is Node's _handle.onexit.
func (c *ChildProcess) onexit(exitCode int, sig syscall.Signal) {
	// Node's: the signal by its name, or else the exit code (0 when a signal with no name,
	// a real-time one, ended the child).
	if sig != 0 {
		c.SignalCode = proc.SignalName(int(sig))
	}
	if c.SignalCode == "" {
		c.ExitCode = &exitCode
	}
	if c.Stdin != nil {
		c.Stdin.Destroy(nil)
	}
	if c.handle != nil {
		c.handle.Close(nil)
		c.handle = nil
	}
	if exitCode < 0 {
		e := errnoException(syscall.Errno(-exitCode), "spawn "+c.Spawnfile)
		e.Path = c.Spawnfile
		e.Spawnargs = append([]string{}, c.Spawnargs[1:]...)
		c.Emit("error", e)
	} else {
		c.Emit("exit", c.exitCodeArg(), c.signalArg())
	}
	c.loop.NextTick(c.flushStdio)
	c.maybeClose()
}

// exitCodeArg and signalArg are the event arguments: an int or nil, a string or nil.
func (c *ChildProcess) exitCodeArg() any {
	if c.ExitCode == nil {
		return nil
	}
	return *c.ExitCode
}

func (c *ChildProcess) signalArg() any {
	if c.SignalCode == "" {
		return nil
	}
	return c.SignalCode
}

// flushStdio lets the stdio sockets nobody reads run to their end, so that they close.
func (c *ChildProcess) flushStdio() {
	for i, s := range c.Stdio {
		if s == nil || i == 0 || s.Destroyed() {
			continue
		}
		if c.stdioDead {
			s.Destroy(nil) // never opened: nothing to read
			continue
		}
		s.Resume()
	}
}

func (c *ChildProcess) maybeClose() {
	c.closesGot++
	if c.closesGot == c.closesNeed {
		c.Emit("close", c.exitCodeArg(), c.signalArg())
	}
}

// Kill is subprocess.kill(signal): it sends the signal named, in any case as in Node
// ("SIGTERM" if empty; "0" probes), and reports whether it was delivered (then Killed is
// set). A child that has exited is not signalled (false). An unknown signal name panics
// with an ERR_UNKNOWN_SIGNAL *Error, as Node throws; another failure (EPERM) is emitted as
// "error".
func (c *ChildProcess) Kill(signal string) bool {
	if signal == "" {
		signal = "SIGTERM"
	}
	n := signalNumber(signal)
	if n == 0 && signal != "0" {
		panic(errUnknownSignal(signal))
	}
	if c.handle == nil {
		return false
	}
	err := c.handle.Kill(syscall.Signal(n))
	if err == nil {
		c.Killed = true
		return true
	}
	var errno syscall.Errno
	if errors.As(err, &errno) && errno == syscall.ESRCH {
		return false
	}
	c.Emit("error", errnoException(err, "kill"))
	return false
}

// signalNumber is the number of the signal named, in any case (Node's
// convertToValidSignal upper-cases the name); 0 if there is none.
func signalNumber(name string) int { return proc.SignalNum(strings.ToUpper(name)) }

// errUnknownSignal is Node's ERR_UNKNOWN_SIGNAL for the name as given.
func errUnknownSignal(name string) *Error {
	return &Error{Code: "ERR_UNKNOWN_SIGNAL", Message: "Unknown signal: " + name}
}

// Ref and Unref make the child keep the loop alive, or not (subprocess.ref/unref).
func (c *ChildProcess) Ref() {
	if c.handle != nil {
		c.handle.Ref()
	}
}

// Unref: see Ref.
func (c *ChildProcess) Unref() {
	if c.handle != nil {
		c.handle.Unref()
	}
}

// OnExit adds an "exit" listener: code is nil when a signal ended the child, signal is "" when
// it exited by itself.
func (c *ChildProcess) OnExit(fn func(code *int, signal string)) *nodenet.Listener {
	return c.On("exit", func(...any) { fn(c.ExitCode, c.SignalCode) })
}

// OnClose adds a "close" listener, with the same arguments as OnExit's.
func (c *ChildProcess) OnClose(fn func(code *int, signal string)) *nodenet.Listener {
	return c.On("close", func(...any) { fn(c.ExitCode, c.SignalCode) })
}

// OnError adds an "error" listener.
func (c *ChildProcess) OnError(fn func(err error)) *nodenet.Listener {
	return c.On("error", func(a ...any) { fn(a[0].(error)) })
}
