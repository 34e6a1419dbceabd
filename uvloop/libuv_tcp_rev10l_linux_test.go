package uvloop_test

import (
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// The TCP ports of libuv_tcp_rev10l_test.go that use Linux-only calls (dup3).

// tcp_write_fail: Writev with no buffers fails with EINVAL; a Write on a connected handle
// whose fd went bad behind the loop's back is queued, and its callback gets the error; the
// close callback runs once. (libuv closes the fd; here a read-only /dev/null is dup2'd over
// it, so the fd stays the handle's and is not closed twice.)
func TestLibuvTCPWriteFailRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		server, addr := commandServerRev10l(t, l)
		c, err := l.NewTCP()
		mustOK(t, err)
		wantErrno(t, "Writev of no buffers", c.Writev(nil, func(error) { t.Error("a write callback") }), syscall.EINVAL)
		connects, writes, closed := 0, 0, 0
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			connects++
			null, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0)
			mustOK(t, err)
			mustOK(t, unix.Dup3(null, c.Fd(), unix.O_CLOEXEC))
			unix.Close(null)
			mustOK(t, c.Write([]byte("hello\n"), func(err error) {
				if err == nil {
					t.Error("the write succeeded")
				}
				writes++
				c.Close(func() { closed++ })
				server.Close(nil)
			}))
		}))
		runLoop(t, l)
		if connects != 1 || writes != 1 || closed != 1 {
			t.Fatalf("connect callbacks %d, write %d, close %d", connects, writes, closed)
		}
	})
}
