package uvloop_test

import (
	"net/netip"
	"path/filepath"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test-fs-poll.c close-request tests and test-watcher-cross-stop.c, in our
// own words, each run in every mode.

// fs_poll_close_request_multi_start_stop, fs_poll_close_request_multi_stop_start,
// fs_poll_close_request_stop_when_active: an fs poll handle on a missing file, started and
// stopped ten times in a row (either way round) and closed, never calls back and closes
// once; one stopped after an iteration (its first stat in flight or done) closes cleanly.
func TestLibuvFsPollCloseRequestRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		missing := filepath.Join(t.TempDir(), "__fs_poll_fixture")
		fail := func(_ *uvloop.FSPoll, err error, _, _ uvloop.Stat) { t.Errorf("a poll callback (%v)", err) }
		closeOnce := func(what string, p *uvloop.FSPoll) {
			t.Helper()
			closed := 0
			closeHandle(t, p, &closed)
			for i := 0; closed == 0 && i < 1000; i++ {
				mustRunMode(t, l, uvloop.RunOnce)
			}
			if closed != 1 {
				t.Fatalf("%s: close callbacks %d", what, closed)
			}
		}
		p := l.NewFSPoll()
		for range 10 {
			mustOK(t, p.Start(missing, 100*time.Millisecond, fail))
			mustOK(t, p.Stop())
		}
		closeOnce("start, stop", p)

		p = l.NewFSPoll()
		for range 10 {
			mustOK(t, p.Stop())
			mustOK(t, p.Start(missing, 100*time.Millisecond, fail))
		}
		closeOnce("stop, start", p)

		p = l.NewFSPoll()
		mustOK(t, p.Start(missing, 100*time.Millisecond, func(*uvloop.FSPoll, error, uvloop.Stat, uvloop.Stat) {}))
		mustRunMode(t, l, uvloop.RunOnce)
		mustOK(t, p.Stop())
		mustRunMode(t, l, uvloop.RunOnce)
		closeOnce("stop when active", p)
	})
}

// watcher_cross_stop: 2500 UDP handles bound to one address (UDPReuseAddr) each receive and
// each send a datagram to it; once a datagram has arrived, all are closed at once. Every send
// calls back and every close too; nothing runs for a handle already closed.
func TestLibuvWatcherCrossStopRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		const n = 2500
		first, addr := bindUDP(t, l, loopback4)
		first.Close(nil)
		// The port just freed: every handle binds it with UDPReuseAddr.
		recvs, sends, closed := 0, 0, 0
		big := make([]byte, 1024)
		socks := make([]*uvloop.UDP, n)
		for i := range socks {
			u, err := l.NewUDP()
			mustOK(t, err)
			mustOK(t, u.Bind(addr, uvloop.UDPReuseAddr))
			mustOK(t, u.RecvStart(func(u *uvloop.UDP, _ []byte, _ netip.AddrPort, _ error) {
				if u.IsClosing() {
					t.Error("a receive callback of a closing handle")
				}
				recvs++
			}))
			mustOK(t, u.Send(big, addr, func(error) { sends++ }))
			socks[i] = u
		}
		for recvs == 0 && l.Alive() {
			mustRunMode(t, l, uvloop.RunOnce)
		}
		for _, u := range socks {
			u.Close(func() { closed++ })
		}
		runLoop(t, l)
		if sends != n || closed != n {
			t.Fatalf("send callbacks %d, close %d, of %d", sends, closed, n)
		}
	})
}
