package uvloop_test

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// TestReadPerPollPhase: what a stream reads in one poll phase. On epoll a readiness event
// reads up to ioBurst (32) times 64 KiB; through the ring a receive ends at its limit and the
// next wait arms another (RecvLimit). The test reads what fills a socket pair's buffers
// (2 MiB), counting RunOnce passes: on io_uring about one per RecvLimit (with a 64 KiB limit
// it took 43 passes, with 256 KiB 8). (From review rev4.)
func TestReadPerPollPhase(t *testing.T) {
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		checkFds(t)
		l := newLoopWith(t, uvloop.WithBackend(b))
		a, p := rawSocketpair(t)
		defer unix.Close(p)
		unix.SetsockoptInt(p, unix.SOL_SOCKET, unix.SO_SNDBUF, 1<<20)
		h, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, h.Open(a))
		written := 0
		buf := make([]byte, 1<<20)
		for {
			n, err := unix.Write(p, buf)
			if err != nil || n == 0 {
				break
			}
			written += n
		}
		got := 0
		mustOK(t, h.ReadStart(func(data []byte, err error) {
			mustOK(t, err)
			got += len(data)
		}))
		n := 0
		for got < written && n < 1000 {
			if _, err := l.Run(uvloop.RunOnce); err != nil {
				t.Fatal(err)
			}
			n++
		}
		t.Logf("%v: %d bytes in %d RunOnce passes", b, written, n)
		if lim := uvloop.RecvLimit(l); b == uvloop.BackendIOURing && lim > 0 && n > written/lim+5 {
			t.Errorf("io_uring needs %d poll phases to read %d bytes, want at most %d", n, written, written/lim+5)
		}
		h.Close(nil)
		closeLoop(t, l)
	})
}
