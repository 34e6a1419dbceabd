package uvloop_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's pipe stream tests, in our own words.

// pipePath is a fresh socket path in the test's temporary directory.
func pipePath(t *testing.T) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "sock")
}

// pipe_ping_pong (test-ping-pong.c over a Unix domain socket).
func TestPipePingPong(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	path := pipePath(t)
	server, err := l.NewPipe()
	mustOK(t, err)
	mustOK(t, server.Bind(path))
	closed := 0
	mustOK(t, server.Listen(128, func(err error) {
		mustOK(t, err)
		c, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, server.Accept(c))
		echo(t, c, 1<<20, func() { closed++ })
	}))
	client, err := l.NewPipe()
	mustOK(t, err)
	var pongs *int
	mustOK(t, client.Connect(path, func(err error) {
		mustOK(t, err)
		if got, err := client.RemoteAddr(); err != nil || got != path {
			t.Errorf("RemoteAddr = %q, %v; want %q", got, err, path)
		}
		pongs = pingPong(t, client, false, func() {
			closed++
			server.Close(func() { closed++ })
		})
	}))
	runLoop(t, l)
	if pongs == nil || *pongs != numPings || closed != 3 {
		t.Fatalf("pongs %v, close callbacks %d", pongs, closed)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the socket file outlived the server: %v", err)
	}
	closeLoop(t, l)
}

// pipe_server_close: the client's connect callback closes both the client and the server
// (whose connection callback may or may not have run by then); both close callbacks run.
func TestPipeServerClose(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	path := pipePath(t)
	server, err := l.NewPipe()
	mustOK(t, err)
	mustOK(t, server.Bind(path))
	mustOK(t, server.Listen(0, func(err error) { mustOK(t, err) }))
	client, err := l.NewPipe()
	mustOK(t, err)
	connects, closed := 0, 0
	mustOK(t, client.Connect(path, func(err error) {
		mustOK(t, err)
		connects++
		client.Close(func() { closed++ })
		server.Close(func() { closed++ })
	}))
	runLoop(t, l)
	if connects != 1 || closed != 2 {
		t.Fatalf("connect callbacks %d, close callbacks %d", connects, closed)
	}
	closeLoop(t, l)
}

// Pipe errors that connect(2) reports at once arrive in the callback, in the pending phase.
func TestPipeConnectError(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	p, err := l.NewPipe()
	mustOK(t, err)
	var got error
	mustOK(t, p.Connect(filepath.Join(t.TempDir(), "nobody"), func(err error) {
		got = err
		p.Close(nil)
	}))
	if got != nil {
		t.Fatal("callback ran inside Connect")
	}
	runLoop(t, l)
	if !errors.Is(got, syscall.ENOENT) {
		t.Fatalf("connect: %v, want ENOENT", got)
	}
	q, err := l.NewPipe()
	mustOK(t, err)
	path := pipePath(t)
	mustOK(t, q.Bind(path))
	r, err := l.NewPipe()
	mustOK(t, err)
	if err := r.Bind(path); !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("second Bind: %v, want EADDRINUSE", err)
	}
	if err := r.Listen(1, func(error) {}); err == nil {
		t.Fatal("Listen of an unbound pipe succeeded")
	}
	q.Close(nil)
	r.Close(nil)
	var _ uvloop.Stream = r
	closeLoop(t, l)
}
