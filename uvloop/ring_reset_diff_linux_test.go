package uvloop_test

import (
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Differential tests of how a reset reaches a TCP stream: each scenario runs on a loop per
// backend (epoll and io_uring), logs the callbacks, and the two logs must be the same.

// The peer resets (SO_LINGER 0) while the stream reads and has writes stuck behind a full
// socket: the read callback gets ECONNRESET, the writes fail, and the stream is neither
// readable nor writable after it, whichever backend's request met the reset first.
func TestPeerResetReadingAndWritingDiff(t *testing.T) {
	ringWriteDiff(t, peerResetReadingAndWriting)
}

// The same on loops of their own threads, whose rings run the kernel's completion work only
// when the loop waits (DEFER_TASKRUN): the failed socket's poll request then always came
// before its receive in the batch, and the writes failed before the read (20 runs in 20,
// before dispatch handed the batch's reads over first: readsFirst).
func TestPeerResetReadingAndWritingOwnThreadDiff(t *testing.T) {
	ringWriteDiffWith(t, []uvloop.Option{uvloop.WithOwnThread()}, peerResetReadingAndWriting)
}

func peerResetReadingAndWriting(t *testing.T, l *uvloop.Loop) []string {
	c, p := ringWritePair(t, l)
	mustOK(t, syscall.SetsockoptInt(c.Fd(), syscall.SOL_SOCKET, syscall.SO_SNDBUF, 4096))
	var log []string
	big := make([]byte, 4<<20)
	for i := 0; i < 2; i++ {
		i := i
		mustOK(t, c.Write(big, func(err error) { log = append(log, fmt.Sprintf("w%d %s", i, ringWriteErr(err))) }))
	}
	mustOK(t, c.ReadStart(func(b []byte, err error) {
		log = append(log, fmt.Sprintf("read %d %s", len(b), ringWriteErr(err)))
	}))
	for i := 0; i < 5; i++ {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	p.SetLinger(0)
	p.Close()
	runUntil(t, l, "callbacks", func() bool { return len(log) >= 3 })
	for i := 0; i < 3; i++ {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	log = append(log, fmt.Sprintf("readable %v writable %v", c.IsReadable(), c.IsWritable()))
	closed := false
	c.Close(func() { log = append(log, "close"); closed = true })
	runUntil(t, l, "close", func() bool { return closed })
	return log
}

// A listener closed with connections not yet accepted: their peers see a reset, as when the
// kernel's accept queue is dropped (epoll), also when io_uring's multishot accept already took
// them; and a client closed inside its own connect callback ends the same way on both.
func TestListenerCloseWithPendingDiff(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var log []string
		srv, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, srv.Bind(netip.MustParseAddrPort("127.0.0.1:0"), 0))
		mustOK(t, srv.Listen(16, func(err error) {
			log = append(log, "conn "+ringWriteErr(err))
			srv.Close(func() { log = append(log, "listener closed") })
		}))
		addr, err := srv.LocalAddr()
		mustOK(t, err)
		var peers []net.Conn
		for i := 0; i < 4; i++ {
			pc, err := net.Dial("tcp", addr.String())
			mustOK(t, err)
			peers = append(peers, pc)
		}
		runUntil(t, l, "listener closed", func() bool { return len(log) >= 2 })
		for i := 0; i < 3; i++ {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		for i, pc := range peers {
			pc.SetReadDeadline(time.Now().Add(3 * time.Second))
			_, err := pc.Read(make([]byte, 1))
			log = append(log, fmt.Sprintf("peer%d %s", i, ringWriteErr(err)))
			pc.Close()
		}
		c, err := l.NewTCP()
		mustOK(t, err)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		mustOK(t, err)
		defer ln.Close()
		closed := false
		mustOK(t, c.Connect(ln.Addr().(*net.TCPAddr).AddrPort(), func(err error) {
			log = append(log, "connect "+ringWriteErr(err))
			mustOK(t, c.Write([]byte("x"), func(err error) { log = append(log, "w "+ringWriteErr(err)) }))
			c.Close(func() { log = append(log, "close"); closed = true })
		}))
		runUntil(t, l, "client closed", func() bool { return closed })
		return log
	})
}
