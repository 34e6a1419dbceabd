package uvloop_test

import (
	"net"

	"golang.org/x/sys/unix"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// (From review rev4.) a listening TCP given to a child as its stdin is made blocking (Spawn); the
// loop's accept loop (serverIO, accept until EAGAIN) then blocks in accept4 once the queue is
// empty. The loop should go on (a timer after the first connection closes everything).
func TestSharedListenerAcceptBlocks(t *testing.T) {
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		checkFds(t)
		l := newLoopWith(t, uvloop.WithBackend(b))
		conns := 0
		var srv *uvloop.TCP
		srv, addr := listenTCP(t, l, func(server *uvloop.TCP, err error) {
			if err != nil {
				return // the unstick shut the listener down
			}
			c := acceptTCP(t, server)
			c.Close(nil)
			conns++
			if conns == 1 {
				tm := l.NewTimer(func(tm *uvloop.Timer) {
					tm.Close(nil)
					srv.Close(nil)
				})
				mustOK(t, tm.Start(0, 0))
			}
		})
		spawnShell(t, l, "true", []uvloop.StdioContainer{{Flags: uvloop.StdioInheritStream, Stream: srv}},
			func(p *uvloop.Process, st int64, sig syscall.Signal) { p.Close(nil) })
		c1, err := net.Dial("tcp", addr.String())
		mustOK(t, err)
		defer c1.Close()
		var c2 net.Conn
		within(t, 10*time.Second, "Run (blocked in accept4 on the shared listener?)", func() {
			c2, _ = net.Dial("tcp", addr.String()) // unblocks the accept, once
			shutListener(int(addr.Port()))         // and this the next one
		}, func() {
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				t.Errorf("run: %v", err)
			}
		})
		if c2 != nil {
			c2.Close()
		}
		closeLoop(t, l)
	})
}

var unixPath string

// shutListener shuts down this process's listening socket on port, so that an accept4
// blocked on it returns (EINVAL).
func shutListener(port int) {
	for fd := 3; fd < 1024; fd++ {
		sa, err := unix.Getsockname(fd)
		if err != nil {
			continue
		}
		in, ok := sa.(*unix.SockaddrInet4)
		un, uok := sa.(*unix.SockaddrUnix)
		if !(ok && in.Port == port || uok && port < 0 && un.Name == unixPath) {
			continue
		}
		if v, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_ACCEPTCONN); err == nil && v == 1 {
			unix.Shutdown(fd, unix.SHUT_RDWR)
		}
	}
}

// (From review rev4.) a Spawn that fails in the child (chdir) leaves the inherited stream's socket
// non-blocking, as it was.
func TestFailedSpawnRestoresNonblock(t *testing.T) {
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		checkFds(t)
		l := newLoopWith(t, uvloop.WithBackend(b))
		a, p := rawSocketpair(t)
		defer unix.Close(p)
		h, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, h.Open(a))
		_, err = l.Spawn(&uvloop.ProcessOptions{File: "/bin/sh", Args: []string{"sh", "-c", "true"}, Dir: "/nonexistent-rev4",
			Stdio: []uvloop.StdioContainer{{Flags: uvloop.StdioInheritStream, Stream: h}, {Flags: uvloop.StdioInheritStream, Stream: h}}})
		if err == nil {
			t.Fatal("spawn in a missing directory succeeded")
		}
		if !isNonblock(t, a) {
			t.Errorf("the stream's socket is blocking after a failed Spawn")
		}
		closeLoop(t, l)
	})
}

// The same with a Pipe listener (not accepted through the ring on either backend).
func TestSharedPipeListenerAcceptBlocks(t *testing.T) {
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		checkFds(t)
		l := newLoopWith(t, uvloop.WithBackend(b))
		path := t.TempDir() + "/s"
		unixPath = path
		srv, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, srv.Bind(path))
		conns := 0
		mustOK(t, srv.Listen(16, func(err error) {
			if err != nil {
				return
			}
			c, err := l.NewPipe()
			mustOK(t, err)
			mustOK(t, srv.Accept(c))
			c.Close(nil)
			if conns++; conns == 1 {
				tm := l.NewTimer(func(tm *uvloop.Timer) {
					tm.Close(nil)
					srv.Close(nil)
				})
				mustOK(t, tm.Start(0, 0))
			}
		}))
		spawnShell(t, l, "true", []uvloop.StdioContainer{{Flags: uvloop.StdioInheritStream, Stream: srv}},
			func(p *uvloop.Process, st int64, sig syscall.Signal) { p.Close(nil) })
		c1, err := net.Dial("unix", path)
		mustOK(t, err)
		defer c1.Close()
		within(t, 10*time.Second, "Run (blocked in accept4 on the shared pipe listener?)", func() {
			shutListener(-1)
		}, func() {
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				t.Errorf("run: %v", err)
			}
		})
		closeLoop(t, l)
	})
}
