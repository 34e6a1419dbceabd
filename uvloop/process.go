package uvloop

import (
	"fmt"
	"os"
	"sync/atomic"
	"syscall"

	"github.com/uvgo/uvgo/internal/proc"
)

// This file is libuv's process.c: Spawn forks and execs a child with its stdio, and a waiter
// goroutine per child blocks until it exits and posts the news to the loop, which reaps the
// child and runs the exit callback in the poll phase. On Linux the waiter does not reap
// (waitid with WNOWAIT), so the child's pid stays its own until the loop has reaped it and
// Kill cannot reach another process. No child is left a zombie: if the handle is closed
// while the child runs, the waiter reaps it when it exits (and only then ends).

// StdioFlags says what one of a child's file descriptors becomes (uv_stdio_flags).
type StdioFlags uint8

const (
	// StdioIgnore gives the child /dev/null (fds 0-2: read-only as fd 0, read-write as 1 and
	// 2, as libuv opens it) or no fd (the others).
	StdioIgnore StdioFlags = iota
	// StdioCreatePipe connects the fd to Stream, a *Pipe without a socket, through a new
	// socket pair: the loop's end becomes the Pipe's socket.
	StdioCreatePipe
	// StdioInheritFd gives the child the parent's Fd. As the child's fd 0, 1 or 2 it is made
	// blocking, in the parent too (see Spawn).
	StdioInheritFd
	// StdioInheritStream gives the child Stream's fd. As the child's fd 0, 1 or 2 it is made
	// blocking, in the parent too (see Spawn).
	StdioInheritStream
)

// StdioContainer is one of a child's file descriptors (uv_stdio_container_t).
type StdioContainer struct {
	Flags  StdioFlags
	Stream Stream // StdioCreatePipe: a new *Pipe; StdioInheritStream: any stream with an fd
	Fd     int    // StdioInheritFd
	// Readable and Writable are the child's view of a StdioCreatePipe pipe (libuv's
	// UV_READABLE_PIPE, UV_WRITABLE_PIPE): the child reads it, the child writes it. The loop's
	// end is writable if the child reads and readable if the child writes; with neither set,
	// both.
	Readable, Writable bool
}

// ProcessOptions are Spawn's options (uv_process_options_t).
type ProcessOptions struct {
	// File is the program. A name without a slash is looked up in the PATH of Env (its
	// first PATH entry, or the parent's PATH if Env is nil; with none, execvp's default,
	// /bin:/usr/bin on Linux), as execvp does in libuv's child after its chdir: a relative
	// PATH directory is relative to Dir.
	File string
	// Args is the argument vector, Args[0] included; it must not be empty.
	Args []string
	// Env is the child's environment, "KEY=value" each; nil is the parent's.
	Env []string
	// Dir is the child's working directory; "" is the parent's.
	Dir string
	// Stdio are the child's fds 0, 1, 2, ...; those not given (up to 2) are ignored.
	Stdio []StdioContainer
	// Detached puts the child in a new session (setsid), so that it can outlive the parent's
	// terminal and process group (UV_PROCESS_DETACHED). Unref the handle to let the loop end
	// without waiting for it.
	Detached bool
	// SetUID and SetGID run the child as UID and GID (UV_PROCESS_SETUID, UV_PROCESS_SETGID);
	// with either, the child has no supplementary groups, as libuv's (setgroups(0, NULL)).
	SetUID, SetGID bool
	UID, GID       uint32
	// OnExit, if not nil, runs on the loop goroutine when the child has exited, with its exit
	// status and the signal that ended it (0 if none) (uv_exit_cb).
	OnExit func(p *Process, exitStatus int64, termSignal syscall.Signal)
}

// Process is a child process (uv_process_t). It is active, and keeps the loop alive while
// ref'd, from Spawn until the child's exit has been reported. Closing it does not kill the
// child. Loop goroutine only.
type Process struct {
	handle
	pid    int
	onExit func(*Process, int64, syscall.Signal)
	exited bool // reaped and reported (or reaped by Close); loop goroutine only

	// state is what the waiter and the loop agree on: procRunning, then procExited (the
	// waiter saw the exit and tells the loop) or procOrphaned (closed first: the waiter
	// reaps). Atomic.
	state atomic.Uint32
	// status and reaped are written by the waiter before it sets procExited, read by the
	// loop after it sees procExited.
	status proc.Status
	reaped bool
	waited func() // p.onWaited, posted by the waiter
}

const (
	procRunning uint32 = iota
	procExited
	procOrphaned
)

// errSpawn is Spawn's refusal of options that cannot start a program.
func errSpawn(format string, args ...any) error {
	return fmt.Errorf("uvloop: spawn: %s: %w", fmt.Sprintf(format, args...), os.NewSyscallError("spawn", syscall.EINVAL))
}

// Spawn starts a child process (uv_spawn). The errors that stop the program from starting
// come back from Spawn, wrapped as *os.SyscallError ("spawn"): ENOENT for a missing program
// or working directory, EACCES for one that cannot be executed, EPERM for credentials that
// cannot be taken; then no handle is created, no pipe is opened and nothing is left behind.
// Bad options — empty Args, an empty File, a StdioCreatePipe without a *Pipe — fail with an
// error wrapping EINVAL, a Pipe that already has a socket with EBUSY, a closed one with
// ErrClosed, an inherited fd that is negative with ErrBadFd.
//
// The child starts with every signal's default action, as libuv's does: a signal the
// process ignores (SIGHUP under nohup, signal.Ignore) is not ignored in the child.
//
// The child's fds 0, 1 and 2 are blocking, as libuv's children's are: programs do not
// expect EAGAIN on their stdio. A created pipe's end and /dev/null are blocking already; a
// StdioInheritFd or StdioInheritStream descriptor that is non-blocking has O_NONBLOCK
// cleared, except on a listening socket or a socket that is not a stream (UDP), which stay
// non-blocking: the loop accepts and receives on them in loops that end only at EAGAIN,
// and accept has no per-call non-blocking flag (a child given a listener as stdio, inetd
// style, sees a non-blocking one). The flag belongs to the open file description, which the parent's descriptor
// shares with the child's, so the parent's descriptor stays blocking after Spawn, as with
// libuv (a failed Spawn leaves it as it was). Its other fds keep their flags. Unlike
// libuv's, the loop does not block on a StdioInheritStream socket (a TCP, or a Pipe on a
// socket) it goes on reading or writing: its own calls on it are non-blocking ones
// (MSG_DONTWAIT) from then on. A stream that is not a socket (a TTY, a Pipe opened on a
// pipe) has no such call: the loop's reads and writes on it may block once it is shared,
// so close the parent's handle, or give the child another descriptor of the file. A loop
// stream's fd should be given as StdioInheritStream, not StdioInheritFd, for the same
// reason.
func (l *Loop) Spawn(opts *ProcessOptions) (*Process, error) {
	if l.closed {
		return nil, ErrClosed
	}
	if opts == nil || len(opts.Args) == 0 {
		return nil, errSpawn("empty Args")
	}
	if opts.File == "" {
		return nil, errSpawn("empty File")
	}
	n := max(len(opts.Stdio), 3)
	attr := proc.Attr{Dir: opts.Dir, Env: opts.Env, Files: make([]int, n), Setsid: opts.Detached,
		SetUID: opts.SetUID, SetGID: opts.SetGID, UID: opts.UID, GID: opts.GID}
	type opened struct {
		pipe          *Pipe
		parent, child int
		flags         streamFlags
	}
	var pipes []opened
	closePipes := func() {
		for _, o := range pipes {
			proc.Close(o.parent)
			proc.Close(o.child)
		}
	}
	for i := range n {
		c := StdioContainer{}
		if i < len(opts.Stdio) {
			c = opts.Stdio[i]
		}
		switch c.Flags {
		case StdioIgnore:
			attr.Files[i] = proc.DevNull
			if i > 2 {
				attr.Files[i] = proc.Closed
			}
		case StdioCreatePipe:
			p, ok := c.Stream.(*Pipe)
			if !ok || p == nil {
				closePipes()
				return nil, errSpawn("stdio %d: StdioCreatePipe needs a *Pipe", i)
			}
			if err := p.usable(); err != nil {
				closePipes()
				return nil, err
			}
			if p.io.fd >= 0 || p.loop != l {
				closePipes()
				return nil, errBusy
			}
			parent, child, err := proc.Socketpair()
			if err != nil {
				closePipes()
				return nil, os.NewSyscallError("socketpair", err)
			}
			var flags streamFlags
			if c.Writable || !c.Readable {
				flags |= sReadable
			}
			if c.Readable || !c.Writable {
				flags |= sWritable
			}
			pipes = append(pipes, opened{p, parent, child, flags})
			attr.Files[i] = child
		case StdioInheritFd:
			if c.Fd < 0 {
				closePipes()
				return nil, ErrBadFd
			}
			attr.Files[i] = c.Fd
		case StdioInheritStream:
			if c.Stream == nil || c.Stream.Fd() < 0 {
				closePipes()
				return nil, ErrBadFd
			}
			attr.Files[i] = c.Stream.Fd()
		default:
			closePipes()
			return nil, errSpawn("stdio %d: unknown flags %d", i, c.Flags)
		}
	}
	path, err := proc.LookPath(opts.File, opts.Dir, opts.Env)
	if err == nil && l.io.sends > 0 {
		// Writes queued for the ring go out before the child starts: one that inherits a
		// stream writes after what the parent wrote before Spawn, as on epoll, where Write
		// writes at once. (The rest of a write the socket did not take waits, as on epoll.)
		l.submitWrites()
	}
	var pid int
	if err == nil {
		hub.spawnWithDefaults(func() { pid, err = proc.Spawn(path, opts.Args, &attr) })
	}
	if err != nil {
		closePipes()
		return nil, os.NewSyscallError("spawn", err)
	}
	for _, c := range opts.Stdio[:min(len(opts.Stdio), 3)] {
		if s, ok := c.Stream.(interface{ shareBlocking() }); ok && c.Flags == StdioInheritStream {
			s.shareBlocking() // made blocking for the child: the loop must not block on it
		}
	}
	for _, o := range pipes {
		proc.Close(o.child)
		if err := o.pipe.Open(o.parent); err != nil {
			proc.Close(o.parent) // cannot happen: the pipe was checked, the fd is new
		} else {
			o.pipe.sflags = o.pipe.sflags&^(sReadable|sWritable) | o.flags
		}
	}
	p := &Process{pid: pid, onExit: opts.OnExit}
	p.waited = p.onWaited
	p.handle.init(l, p, KindProcess)
	p.handle.start()
	go p.wait()
	return p, nil
}

// Pid is the child's process id.
func (p *Process) Pid() int { return p.pid }

// wait is the waiter goroutine: it blocks until the child exits, then tells the loop, or,
// if the handle was closed or the loop is gone, reaps the child itself.
func (p *Process) wait() {
	st, reaped, err := proc.WaitExit(p.pid)
	if err != nil { // ECHILD: someone else reaped it
		st, reaped = proc.Status{}, true
	}
	p.status, p.reaped = st, reaped
	if p.state.CompareAndSwap(procRunning, procExited) {
		if p.loop.Post(p.waited) == nil {
			return
		}
	}
	if !reaped {
		proc.Reap(p.pid)
	}
}

// onWaited runs on the loop when the waiter saw the exit: the child is reaped and the exit
// callback runs.
func (p *Process) onWaited() {
	if p.exited {
		return // closed meanwhile: Close reaped it
	}
	p.reap()
	p.handle.stop()
	if p.onExit != nil {
		var sig syscall.Signal
		code := int64(p.status.Code)
		if p.status.Signal != 0 {
			sig = syscall.Signal(p.status.Signal)
		}
		p.onExit(p, code, sig)
	}
}

func (p *Process) reap() {
	p.exited = true
	if !p.reaped {
		if st, ok, err := proc.Reap(p.pid); ok && err == nil {
			p.status = st
		}
		p.reaped = true
	}
}

// Kill sends sig to the child (uv_process_kill). It fails with an error wrapping ESRCH once
// the child's exit has been reported or the handle closed, and EINVAL for a signal number
// out of range.
func (p *Process) Kill(sig syscall.Signal) error {
	if p.exited || p.flags&(flagClosing|flagClosed) != 0 {
		return os.NewSyscallError("kill", syscall.ESRCH)
	}
	return Kill(p.pid, sig)
}

// Kill sends sig to the process pid (uv_kill); 0 checks that it exists. It fails with an
// error wrapping EINVAL for a signal number out of range, and with kill(2)'s errors.
func Kill(pid int, sig syscall.Signal) error {
	if sig < 0 || int(sig) >= proc.NSIG {
		return os.NewSyscallError("kill", syscall.EINVAL)
	}
	if err := proc.Kill(pid, int(sig)); err != nil {
		return os.NewSyscallError("kill", err)
	}
	return nil
}

// closeStart stops watching the child. A child that runs on is left to the waiter, which
// reaps it when it exits; one that has exited is reaped now.
func (p *Process) closeStart() {
	if p.exited {
		return
	}
	if p.state.CompareAndSwap(procRunning, procOrphaned) {
		p.exited = true
		return
	}
	p.reap() // the waiter has seen the exit; its post will find the handle closed
}

func (p *Process) closeFinish() {}
