package uvloop

import (
	"os"
	"syscall"

	"github.com/uvgo/uvgo/internal/sock"
)

// Pipe is a Unix domain stream socket, connected or listening on a path (uv_pipe_t without
// IPC). See Stream for reading, writing and the lifetime of the bytes. A Pipe that Bind
// created removes its path when it is closed, as libuv does. Loop goroutine only.
type Pipe struct {
	stream
	path string // the path Bind created; removed by Close; loop goroutine only
}

// NewPipe creates a pipe handle without a socket.
func (l *Loop) NewPipe() (*Pipe, error) {
	if l.closed {
		return nil, ErrClosed
	}
	p := &Pipe{}
	p.stream.init(l, p, KindPipe)
	return p, nil
}

// closeStart is uv__pipe_close: the path Bind created goes, then the socket.
func (p *Pipe) closeStart() {
	p.unlink()
	p.stream.closeStart()
}

func (p *Pipe) unlink() {
	if p.path != "" {
		sock.Unlink(p.path)
		p.path = ""
	}
}

// Bind creates the socket and binds it to path (uv_pipe_bind). It fails with an error
// wrapping EADDRINUSE if path exists.
func (p *Pipe) Bind(path string) error {
	if err := p.usable(); err != nil {
		return err
	}
	if p.io.fd >= 0 {
		return os.NewSyscallError("bind", syscall.EINVAL)
	}
	if !sock.UnixPathOK(path) {
		return os.NewSyscallError("bind", syscall.EINVAL)
	}
	fd, err := sock.Socket(sock.Unix, sock.Stream)
	if err != nil {
		return sysErr("socket", err)
	}
	if err := sock.BindUnix(fd, path); err != nil {
		sock.Close(fd)
		if err == syscall.ENOENT { // libuv: a missing directory is "address not available"
			err = syscall.EACCES
		}
		return sysErr("bind", err)
	}
	if err := p.open(fd, 0); err != nil {
		sock.Close(fd)
		sock.Unlink(path)
		return err
	}
	p.path = path
	p.sflags |= sBound
	return nil
}

// Listen makes the bound handle a listener (uv_listen); cb runs for each incoming
// connection (call Accept) or accept failure, as with TCP.Listen. The handle must be bound.
func (p *Pipe) Listen(backlog int, cb func(err error)) error {
	if err := p.usable(); err != nil {
		return err
	}
	if cb == nil {
		return ErrNilCallback
	}
	if p.io.fd < 0 || p.sflags&sBound == 0 {
		return errInval
	}
	if err := sock.Listen(p.io.fd, backlog); err != nil {
		return sysErr("listen", err)
	}
	p.listen(cb)
	return nil
}

// Accept takes the connection announced to Listen's callback into client, a new Pipe
// without a socket; as TCP.Accept, except that on every backend a Pipe listener takes its
// connections on readiness (the connections not yet announced wait in the kernel's listen
// queue, which resets them if the listener closes).
func (p *Pipe) Accept(client *Pipe) error {
	if client == nil {
		return ErrBadFd
	}
	return p.stream.accept(&client.stream)
}

// Connect connects to the socket at path (uv_pipe_connect). The outcome arrives in cb,
// never from inside Connect: failures that connect(2) reports at once (ENOENT,
// ECONNREFUSED, ...) in the pending phase.
func (p *Pipe) Connect(path string, cb func(err error)) error {
	if err := p.usable(); err != nil {
		return err
	}
	if p.sflags&sConnecting != 0 {
		return errAlready
	}
	if p.sflags&(sListening|sConnected) != 0 {
		return os.NewSyscallError("connect", syscall.EISCONN)
	}
	if !sock.UnixPathOK(path) {
		return os.NewSyscallError("connect", syscall.EINVAL)
	}
	if p.io.fd < 0 {
		fd, err := sock.Socket(sock.Unix, sock.Stream)
		if err != nil {
			return sysErr("socket", err)
		}
		if err := p.open(fd, 0); err != nil {
			sock.Close(fd)
			return err
		}
	}
	if err := sock.ConnectUnix(p.io.fd, path); err != nil && err != syscall.EINPROGRESS {
		p.rare().delayedErr = sysErr("connect", err)
	}
	p.sflags |= sReadable | sWritable
	p.startConnect(cb)
	return nil
}

// Open adopts fd and takes ownership of it (uv_pipe_open); it is made non-blocking. A Unix
// socket that is not connected yet can then Connect, or Listen if it is bound. fd must
// be something the poller can watch: a pipe or FIFO, a Unix domain socket, a TTY or a
// character device such as /dev/null. A regular file (stdin redirected from a file, say) is
// not: Open accepts it, but the first ReadStart or Write registers it with the poller, which
// refuses it, and the callback gets an error wrapping syscall.EPERM ("epoll_ctl: operation
// not permitted" on Linux, "io_uring poll_add: operation not permitted" on the io_uring
// backend). Read a regular file with ReadFile or the work pool instead.
func (p *Pipe) Open(fd int) error {
	if err := p.usable(); err != nil {
		return err
	}
	if fd < 0 {
		return ErrBadFd
	}
	if err := sock.SetNonblock(fd); err != nil {
		return sysErr("fcntl", err)
	}
	// A Unix socket with no peer is not connected yet: it may still Connect, or, bound,
	// Listen, as after uv_pipe_open. Anything else (a pipe, a connected socket) is.
	flags := sReadable | sWritable | sConnected
	if _, err := sock.PeernameUnix(fd); err == syscall.ENOTCONN {
		flags &^= sConnected
		if name, err := sock.SocknameUnix(fd); err == nil && name != "" {
			flags |= sBound
		}
	}
	return p.open(fd, flags)
}

// LocalAddr returns the path the socket is bound to (getsockname); "" if unbound.
func (p *Pipe) LocalAddr() (string, error) { return p.name(sock.SocknameUnix, "getsockname") }

// RemoteAddr returns the path of the peer's socket (getpeername).
func (p *Pipe) RemoteAddr() (string, error) { return p.name(sock.PeernameUnix, "getpeername") }

func (p *Pipe) name(get func(int) (string, error), op string) (string, error) {
	if p.io.fd < 0 {
		return "", os.NewSyscallError(op, syscall.EBADF)
	}
	name, err := get(p.io.fd)
	if err != nil {
		return "", sysErr(op, err)
	}
	return name, nil
}
