package uvloop_test

import (
	"net"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// TestReadStopBoundsWhatIsRead: a peer floods a stream whose reader stops at its first
// bytes (backpressure, as http1 and examples/echo pause). On epoll nothing more is read
// until ReadStart, which reads 64 KiB. Through the ring the multishot receive goes on until
// its cancellation reaches the kernel, and what it read meanwhile is held and handed to the
// next ReadStart at once: under a flood that was up to all of the shared buffers (4 MiB;
// 0.5-4 MiB in 10 runs), so that each paused connection could pin megabytes. Where the kernel
// takes a byte limit for a multishot receive it is at most that (poller.RecvLimit).
func TestReadStopBoundsWhatIsRead(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	var server *uvloop.TCP
	first, again := -1, -1
	_, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		server = acceptTCP(t, s)
		mustOK(t, server.ReadStart(func(b []byte, err error) {
			mustOK(t, err)
			first = len(b)
			server.ReadStop()
		}))
	})
	c, err := net.Dial("tcp", addr.String())
	mustOK(t, err)
	done := make(chan struct{})
	go func() { // the flood: until the socket takes no more, then until closed
		defer close(done)
		buf := make([]byte, 256<<10)
		for {
			if _, err := c.Write(buf); err != nil {
				return
			}
		}
	}()
	runUntil(t, l, "the first read", func() bool { return first >= 0 })
	pause := time.Now().Add(300 * time.Millisecond)
	for time.Now().Before(pause) { // the loop goes on while the reader is stopped
		mustRunMode(t, l, uvloop.RunNoWait)
		time.Sleep(time.Millisecond)
	}
	mustOK(t, server.ReadStart(func(b []byte, err error) {
		mustOK(t, err)
		if again < 0 {
			again = len(b)
		}
	}))
	runUntil(t, l, "the read after ReadStart", func() bool { return again >= 0 })
	t.Logf("%v: first read %d bytes, then (held while stopped, or read at ReadStart) %d", l.Backend(), first, again)
	max := 64 << 10 // epoll: one read(2)
	if ringExpected(l) {
		max = uvloop.RecvLimit(l)
		if max == 0 {
			t.Logf("this kernel takes no byte limit for a multishot receive: a stopped stream may be handed up to the shared buffers (4 MiB)")
			max = 4 << 20
		}
	}
	if again > max {
		t.Errorf("%d bytes came at ReadStart after a ReadStop: the stream went on reading while stopped (want at most %d)", again, max)
	}
	c.Close()
	<-done
	server.Close(nil)
	closeLoop(t, l)
}
