package uvloop_test

import (
	"errors"
	"net"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/ostest"
	"github.com/uvgo/uvgo/uvloop"
)

// A listener takes every connection waiting in its accept queue on one readiness event, as
// libuv's uv__server_io does (it accepts until EAGAIN). One that took a few per event let a
// busy loop's queue fill up under a connection storm, and the kernel then dropped the last
// ACK of new handshakes: their clients saw connections that never answered. Through the ring
// (io_uring), the multishot accept takes them all when it is submitted, in the same poll
// phase.
func TestTCPAcceptDrainsQueue(t *testing.T) {
	eachBackend(t, testTCPAcceptDrainsQueue)
}

func testTCPAcceptDrainsQueue(t *testing.T, b uvloop.Backend) {
	checkFds(t)
	l := newLoopWith(t, uvloop.WithBackend(b))
	accepted := 0
	server, addr := closingServer(t, l, &accepted)

	const n = 100 // more than libuv's read burst (32), within the backlog (128)
	var clients []net.Conn
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	for range n {
		c, err := net.Dial("tcp", addr.String())
		mustOK(t, err)
		clients = append(clients, c)
	}
	// connect returns before the kernel has queued the server's side: wait until the
	// listener's accept queue (rx_queue of its line in /proc/net/tcp) holds them all.
	for deadline := time.Now().Add(time.Minute); acceptQueue(t, addr.Port()) < n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the accept queue holds %d, not %d", acceptQueue(t, addr.Port()), n)
		}
	}

	mustRunMode(t, l, uvloop.RunNoWait) // one poll: the listener is readable once
	if accepted != n {
		t.Errorf("one readiness event accepted %d of the %d queued connections", accepted, n)
	}
	server.Close(nil)
	runLoop(t, l)
	mustOK(t, l.Close())
}

// acceptQueue returns the length of the accept queue of the listener on 127.0.0.1:port; the
// test is skipped where the system does not tell.
func acceptQueue(t testing.TB, port uint16) int {
	t.Helper()
	n, err := ostest.AcceptQueue(port)
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip(err)
	}
	mustOK(t, err)
	return n
}

// The fd held for the EMFILE trick can be lost: the trick frees it to shed connections, and
// another thread of the process (a goroutine opening a file) can take it before the trick
// reopens it. A listener then could not shed at EMFILE any more, and its queue stayed full.
// It takes the reserve back at its next readiness event (or accepted connection, through the
// ring), before accepting.
func TestTCPReserveFdTakenBack(t *testing.T) {
	eachBackend(t, testTCPReserveFdTakenBack)
}

func testTCPReserveFdTakenBack(t *testing.T, b uvloop.Backend) {
	checkFds(t)
	l := newLoopWith(t, uvloop.WithBackend(b))
	accepted := 0
	server, addr := closingServer(t, l, &accepted)
	if !l.ReserveFdHeld() {
		t.Fatal("no reserve fd after Listen")
	}
	l.DropReserveFd()
	c, err := net.Dial("tcp", addr.String())
	mustOK(t, err)
	defer c.Close()
	for accepted == 0 {
		mustRunMode(t, l, uvloop.RunOnce)
	}
	if !l.ReserveFdHeld() {
		t.Error("the listener accepted without taking back the reserve fd")
	}
	server.Close(nil)
	runLoop(t, l)
	mustOK(t, l.Close())
}
