package uvloop_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of more of libuv's pipe tests (test-pipe-*.c), in our own words, each run in every
// mode. Each names the libuv test it ports.

// badPipeNameRev10l is libuv's BAD_PIPENAME: a path whose directories do not exist.
const badPipeNameRev10l = "/path/to/unix/socket/that/really/should/not/be/there"

// pipe_bind_error_addrnotavail: binding to a path in a directory that does not exist fails
// with EACCES (libuv's mapping of the ENOENT); the close callback runs once.
func TestLibuvPipeBindErrorAddrNotAvailRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		p, err := l.NewPipe()
		mustOK(t, err)
		wantErrno(t, "Bind", p.Bind(badPipeNameRev10l), syscall.EACCES)
		closed := 0
		closeHandle(t, p, &closed)
		runLoop(t, l)
		if closed != 1 {
			t.Fatalf("close callbacks %d", closed)
		}
	})
}

// pipe_bind_or_listen_error_after_close: Bind and Listen on a closing pipe fail (libuv:
// EINVAL; uvgo's misuse errors wrap ErrClosed).
func TestLibuvPipeBindOrListenErrorAfterCloseRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		p, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, p.Close(nil))
		if err := p.Bind(pipePath(t)); !errors.Is(err, uvloop.ErrClosed) {
			t.Errorf("Bind after Close: %v, want ErrClosed", err)
		}
		if err := p.Listen(128, func(error) {}); !errors.Is(err, uvloop.ErrClosed) {
			t.Errorf("Listen after Close: %v, want ErrClosed", err)
		}
		runLoop(t, l)
	})
}

// pipe_connect_to_file: connecting to a regular file fails in the callback with ENOTSOCK,
// EACCES or ECONNREFUSED; the close made there calls back once.
func TestLibuvPipeConnectToFileRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		path := filepath.Join(t.TempDir(), "empty_file")
		mustOK(t, os.WriteFile(path, nil, 0o644))
		p, err := l.NewPipe()
		mustOK(t, err)
		connects, closed := 0, 0
		mustOK(t, p.Connect(path, func(err error) {
			if !errors.Is(err, syscall.ENOTSOCK) && !errors.Is(err, syscall.EACCES) && !errors.Is(err, syscall.ECONNREFUSED) {
				t.Errorf("connect callback: %v, want ENOTSOCK, EACCES or ECONNREFUSED", err)
			}
			connects++
			p.Close(func() { closed++ })
		}))
		if connects != 0 {
			t.Fatal("the connect callback ran inside Connect")
		}
		runLoop(t, l)
		if connects != 1 || closed != 1 {
			t.Fatalf("connect callbacks %d, close %d", connects, closed)
		}
	})
}

// pipe_connect_on_prepare: a Connect made in a prepare callback to a path that does not
// exist fails with ENOENT in its callback, which closes both handles.
func TestLibuvPipeConnectOnPrepareRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		p, err := l.NewPipe()
		mustOK(t, err)
		connects, closed := 0, 0
		var prep *uvloop.Prepare
		prep = l.NewPrepare(func(*uvloop.Prepare) {
			if connects > 0 {
				t.Error("the prepare callback ran after the connect callback")
			}
			if err := p.Connect(badPipeNameRev10l, func(err error) {
				wantErrno(t, "connect callback", err, syscall.ENOENT)
				connects++
				prep.Close(func() { closed++ })
				p.Close(func() { closed++ })
			}); err != nil && !errors.Is(err, syscall.EALREADY) {
				t.Errorf("Connect: %v", err)
			}
		})
		mustOK(t, prep.Start())
		runLoop(t, l)
		if connects != 1 || closed != 2 {
			t.Fatalf("connect callbacks %d, close %d", connects, closed)
		}
	})
}

// pipe_connect_multiple: ten clients connect to one listener; each connect succeeds and
// each connection is accepted.
func TestLibuvPipeConnectMultipleRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		const n = 10
		path := pipePath(t)
		server, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, server.Bind(path))
		conns, connects := 0, 0
		done := func() {
			if conns == n && connects == n {
				l.Stop()
			}
		}
		mustOK(t, server.Listen(128, func(err error) {
			mustOK(t, err)
			c, err := l.NewPipe()
			mustOK(t, err)
			mustOK(t, server.Accept(c))
			conns++
			done()
		}))
		for range n {
			c, err := l.NewPipe()
			mustOK(t, err)
			mustOK(t, c.Connect(path, func(err error) {
				mustOK(t, err)
				connects++
				done()
			}))
		}
		runLoop(t, l)
		if conns != n || connects != n {
			t.Fatalf("connections %d, connect callbacks %d", conns, connects)
		}
	})
}

// pipe_connect_close_multiple: ten clients connect and are closed at once: each connect
// callback gets ECANCELED, yet the listener accepts all ten connections (the kernel made them
// when Connect was called).
func TestLibuvPipeConnectCloseMultipleRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		const n = 10
		path := pipePath(t)
		server, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, server.Bind(path))
		conns, connects := 0, 0
		done := func() {
			if conns == n && connects == n {
				server.Close(nil)
			}
		}
		mustOK(t, server.Listen(128, func(err error) {
			mustOK(t, err)
			c, err := l.NewPipe()
			mustOK(t, err)
			mustOK(t, server.Accept(c))
			c.Close(nil)
			conns++
			done()
		}))
		var clients []*uvloop.Pipe
		for range n {
			c, err := l.NewPipe()
			mustOK(t, err)
			clients = append(clients, c)
			mustOK(t, c.Connect(path, func(err error) {
				wantErrno(t, "connect callback", err, syscall.ECANCELED)
				connects++
				done()
			}))
		}
		for _, c := range clients {
			c.Close(nil)
		}
		runLoop(t, l)
		if conns != n || connects != n {
			t.Fatalf("connections %d, connect callbacks %d", conns, connects)
		}
	})
}

// pipe_getsockname: before it has a socket, a pipe's LocalAddr and RemoteAddr fail with
// EBADF; a bound listener's LocalAddr is its path and RemoteAddr fails with ENOTCONN; a client
// has no name of its own ("") and its peer's name is the path, from the moment Connect
// returns and in the connect callback. A path with a NUL byte does not bind (EINVAL).
func TestLibuvPipeGetsocknameRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		path := pipePath(t)
		server, err := l.NewPipe()
		mustOK(t, err)
		wantErrno(t, "Bind with a NUL", server.Bind("bad\x00path"), syscall.EINVAL)
		_, err = server.LocalAddr()
		wantErrno(t, "LocalAddr before Bind", err, syscall.EBADF)
		_, err = server.RemoteAddr()
		wantErrno(t, "RemoteAddr before Bind", err, syscall.EBADF)
		mustOK(t, server.Bind(path))
		if name, err := server.LocalAddr(); err != nil || name != path {
			t.Errorf("listener LocalAddr %q, %v; want %q", name, err, path)
		}
		_, err = server.RemoteAddr()
		wantErrno(t, "listener RemoteAddr", err, syscall.ENOTCONN)
		mustOK(t, server.Listen(0, func(err error) { mustOK(t, err) }))

		c, err := l.NewPipe()
		mustOK(t, err)
		_, err = c.LocalAddr()
		wantErrno(t, "client LocalAddr before Connect", err, syscall.EBADF)
		_, err = c.RemoteAddr()
		wantErrno(t, "client RemoteAddr before Connect", err, syscall.EBADF)
		connects, closed := 0, 0
		names := func(when string) {
			if name, err := c.LocalAddr(); err != nil || name != "" {
				t.Errorf("%s: client LocalAddr %q, %v; want \"\"", when, name, err)
			}
			if name, err := c.RemoteAddr(); err != nil || name != path {
				t.Errorf("%s: client RemoteAddr %q, %v; want %q", when, name, err, path)
			}
		}
		mustOK(t, c.Connect(path, func(err error) {
			mustOK(t, err)
			names("in the connect callback")
			connects++
			c.Close(func() { closed++ })
			server.Close(func() { closed++ })
		}))
		names("after Connect")
		runLoop(t, l)
		if connects != 1 || closed != 2 {
			t.Fatalf("connect callbacks %d, close %d", connects, closed)
		}
	})
}

// pipe_overlong_path: a path longer than sun_path is refused, not truncated: Bind and Connect
// fail with EINVAL and Connect's callback never runs; so does a Connect to "" (libuv's legacy
// uv_pipe_connect reports that one through its callback; uvgo's Connect returns it, as
// uv_pipe_connect2 does). The close callback runs once.
func TestLibuvPipeOverlongPathRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		long := strings.Repeat("@", 512)
		p, err := l.NewPipe()
		mustOK(t, err)
		wantErrno(t, "Bind of an overlong path", p.Bind(long), syscall.EINVAL)
		fail := func(error) { t.Error("a connect callback") }
		wantErrno(t, "Connect to an overlong path", p.Connect(long, fail), syscall.EINVAL)
		wantErrno(t, "Connect to \"\"", p.Connect("", fail), syscall.EINVAL)
		closed := 0
		closeHandle(t, p, &closed)
		runLoop(t, l)
		if closed != 1 {
			t.Fatalf("close callbacks %d", closed)
		}
	})
}
