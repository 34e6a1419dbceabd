package poller_test

import (
	"bytes"
	"errors"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
)

// TestPinnedSendForgetAfterRoom: on a ring pinned to its thread (DEFER_TASKRUN), a TCP send
// that waits for room in a full socket, the peer reading nothing or (every other round) a
// few bytes just before, ends at SendForget: cancelled, or done with what went out, never
// given up on (ETIMEDOUT). This shape did not reproduce the lost cancellation that
// uvloop's FuzzTCPLifecycle seed close-while-send-waits-own-ring did (awaitSend's doc); it
// pins the plain cases.
func TestPinnedSendForgetAfterRoom(t *testing.T) {
	if err := poller.Available(poller.BackendIOURing); err != nil {
		t.Skipf("io_uring is refused here: %v", err)
	}
	for round := range 6 {
		wake := round%2 == 1
		th := newTestThread(t)
		p := openPinned(t, th)
		a, b := tcpPair(t, 4096)
		big := bytes.Repeat([]byte("s"), 1<<20)
		for {
			if _, err := unix.Write(a, big[:4096]); err != nil {
				break // full
			}
		}
		if err := p.Send(a, [][]byte{big}, 1); err != nil {
			t.Fatal(err)
		}
		var evs []poller.Event
		var err error
		th.Do(func() { evs, err = p.Submit() })
		if err != nil || len(evs) != 0 {
			t.Fatalf("Submit: %v, %+v; want the send waiting for room", err, evs)
		}
		if wake {
			buf := make([]byte, 512)
			if _, err := unix.Read(b, buf); err != nil { // room: the send wakes, its retry waits for th
				t.Fatal(err)
			}
		}
		n, ok, err := p.SendForget(a)
		if errors.Is(err, unix.ETIMEDOUT) || !ok { // (ECANCELED is the send's own result)
			t.Fatalf("round %d: SendForget: %d bytes, ok=%v, %v", round, n, ok, err)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// tcpPair returns the two ends of a TCP connection on 127.0.0.1, non-blocking, a's send
// buffer and b's receive buffer set to bufSize; both are closed when t ends.
func tcpPair(t *testing.T, bufSize int) (a, b int) {
	t.Helper()
	socket := func() int {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { unix.Close(fd) })
		return fd
	}
	ln := socket()
	if err := unix.Bind(ln, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := unix.Listen(ln, 1); err != nil {
		t.Fatal(err)
	}
	sa, err := unix.Getsockname(ln)
	if err != nil {
		t.Fatal(err)
	}
	b = socket()
	unix.SetsockoptInt(b, unix.SOL_SOCKET, unix.SO_RCVBUF, bufSize)
	if err := unix.Connect(b, sa); err != nil {
		t.Fatal(err)
	}
	a, _, err = unix.Accept4(ln, unix.SOCK_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(a) })
	unix.SetsockoptInt(a, unix.SOL_SOCKET, unix.SO_SNDBUF, bufSize)
	for _, fd := range []int{a, b} {
		if err := unix.SetNonblock(fd, true); err != nil {
			t.Fatal(err)
		}
	}
	return a, b
}
