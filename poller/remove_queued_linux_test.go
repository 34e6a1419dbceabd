package poller

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// Remove on io_uring promises "the kernel has let go of fd's file when
// Remove returns". These pin the cases where fd's request was already unarmed in the
// poller's state but its removal was still queued, unsubmitted, in the submission ring.

// openRingForRemove opens an io_uring Poller and a socket pair: a for the Poller, b the
// peer (closed at the end; a is the test's to close).
func openRingForRemove(t *testing.T) (p *Poller, a, b int) {
	t.Helper()
	if err := Available(BackendIOURing); err != nil {
		t.Skipf("io_uring refused here: %v", err)
	}
	p, err := OpenWith(BackendIOURing, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fds[1]) })
	return p, fds[0], fds[1]
}

// peerSeesEOF closes a and reports whether b reads the end of the stream at once.
func peerSeesEOF(t *testing.T, a, b int) bool {
	t.Helper()
	if err := unix.Close(a); err != nil {
		t.Fatal(err)
	}
	var buf [8]byte
	n, err := unix.Read(b, buf[:])
	return n == 0 && err == nil
}

// TestRingRemoveAfterModifyZero: Modify(fd, 0) queues the poll's removal and marks fd
// unarmed; Remove then finds nothing armed and returns without submitting that removal, so
// the armed poll request keeps the socket open after the caller closes fd: the peer gets no
// end of stream until some later io_uring_enter.
func TestRingRemoveAfterModifyZero(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p, a, b := openRingForRemove(t)
	if err := p.Add(a, Readable, 1); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Wait(0); err != nil { // submits the poll request: it is in the kernel
		t.Fatal(err)
	}
	if err := p.Modify(a, 0, 1); err != nil {
		t.Fatal(err)
	}
	if err := p.Remove(a); err != nil {
		t.Fatal(err)
	}
	if !peerSeesEOF(t, a, b) {
		t.Error("after Modify(fd, 0), Remove, close: the peer reads no EOF (the poll request still holds the socket: its removal was never submitted)")
	}
}

// TestRingRemoveAfterQuietPollReport: a Writable-only fd whose peer shut down its writing
// side is watched by a multishot poll (quietPoll); its first real report cancels it (queued)
// and marks fd unarmed. Closing the fd in reaction (Remove, close) leaves that multishot poll
// in the kernel, holding the socket.
func TestRingRemoveAfterQuietPollReport(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p, a, b := openRingForRemove(t)
	// Fill a's send buffer so that it is not writable.
	chunk := make([]byte, 64<<10)
	for {
		if _, err := unix.Write(a, chunk); err != nil {
			break
		}
	}
	if err := unix.Shutdown(b, unix.SHUT_WR); err != nil {
		t.Fatal(err)
	}
	if err := p.Add(a, Writable, 1); err != nil {
		t.Fatal(err)
	}
	// The one-shot completes with the hangup only: nothing reported, quiet set; the next
	// wait arms a multishot.
	for i := 0; i < 5; i++ {
		if _, _, err := p.Wait(0); err != nil {
			t.Fatal(err)
		}
	}
	st := p.q.ring.polls.Load(a)
	if !st.multi || !st.armed {
		t.Skipf("no multishot poll armed here (multi %v armed %v)", st.multi, st.armed)
	}
	// Make a writable: drain b.
	buf := make([]byte, 64<<10)
	for {
		if _, err := unix.Read(b, buf); err != nil {
			break
		}
	}
	var got bool
	for i := 0; i < 100 && !got; i++ {
		evs, _, err := p.Wait(10e6)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			got = got || int(ev.Fd) == a && ev.Events&Writable != 0
		}
	}
	if !got {
		t.Fatal("never reported writable")
	}
	// In the callback: stop and close.
	if err := p.Remove(a); err != nil {
		t.Fatal(err)
	}
	if !peerSeesEOF(t, a, b) {
		t.Error("after a multishot poll's report, Remove, close: the peer reads no EOF (the multishot poll's cancellation was never submitted)")
	}
}
