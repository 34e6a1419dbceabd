package uvloop_test

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// TestPausedForeverHoldsLittle: streams that stop reading in their first read callback and never start
// again leave what follows in the socket: the loop holds at most one receive's limit
// (RecvLimit) for each, on both backends, also after more waits. (From review rev4.)
func TestPausedForeverHoldsLittle(t *testing.T) {
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		checkFds(t)
		l := newLoopWith(t, uvloop.WithBackend(b))
		const n = 8
		type one struct {
			h                 *uvloop.TCP
			fd, peer          int
			written, received int
		}
		all := make([]*one, n)
		paused := 0
		for i := range all {
			a, p := rawSocketpair(t)
			unix.SetsockoptInt(p, unix.SOL_SOCKET, unix.SO_SNDBUF, 1<<20)
			h, err := l.NewTCP()
			mustOK(t, err)
			mustOK(t, h.Open(a))
			o := &one{h: h, fd: a, peer: p}
			all[i] = o
			buf := make([]byte, 1<<20)
			for {
				m, err := unix.Write(p, buf)
				if err != nil || m == 0 {
					break
				}
				o.written += m
			}
			mustOK(t, h.ReadStart(func(data []byte, err error) {
				o.received += len(data)
				h.ReadStop()
				paused++
			}))
		}
		ticks := 0
		tm := l.NewTimer(func(tm *uvloop.Timer) {
			if ticks++; ticks < 20 {
				return
			}
			tm.Close(nil)
			for _, o := range all {
				unread, err := unix.IoctlGetInt(o.fd, unix.SIOCINQ)
				mustOK(t, err)
				held := o.written - o.received - unread
				t.Logf("written %d received %d unread %d held %d", o.written, o.received, unread, held)
				if lim := uvloop.RecvLimit(l); held > lim {
					t.Errorf("held %d bytes for a paused stream (over one receive's limit, %d)", held, lim)
				}
				o.h.Close(nil)
				unix.Close(o.peer)
			}
		})
		mustOK(t, tm.Start(1, 1))
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
		if paused != n {
			t.Errorf("%d of %d paused", paused, n)
		}
		closeLoop(t, l)
	})
}
