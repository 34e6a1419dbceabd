package uvloop_test

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// TestPipeOpenUnconnectedRev10l: a Unix socket adopted with Pipe.Open behaves as after
// uv_pipe_open: a fresh one can still Connect (uv_pipe_connect reuses the fd), and one bound
// outside the loop (a socket a service manager hands over) can Listen and accept, as
// uv_listen needs only an fd. TCP.Open's twin (tcp_open, tcp_open_bound).
func TestPipeOpenUnconnectedRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		path := pipePath(t)
		lfd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		mustOK(t, err)
		if err := unix.Bind(lfd, &unix.SockaddrUnix{Name: path}); err != nil {
			unix.Close(lfd)
			t.Fatal(err)
		}
		server, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, server.Open(lfd))
		conns, connects := 0, 0
		if err := server.Listen(8, func(err error) {
			mustOK(t, err)
			c, err := l.NewPipe()
			mustOK(t, err)
			mustOK(t, server.Accept(c))
			conns++
			c.Close(nil)
			server.Close(nil)
		}); err != nil {
			t.Errorf("Listen on an opened bound socket: %v", err)
			server.Close(nil)
		}
		cfd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		mustOK(t, err)
		client, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, client.Open(cfd))
		if err := client.Connect(path, func(err error) {
			mustOK(t, err)
			connects++
			client.Close(nil)
		}); err != nil {
			t.Errorf("Connect on an opened fresh socket: %v", err)
			client.Close(nil)
		}
		runLoop(t, l)
		if t.Failed() {
			return
		}
		if conns != 1 || connects != 1 {
			t.Fatalf("connections %d, connect callbacks %d", conns, connects)
		}
	})
}
