package poller_test

import (
	"os"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
)

// readAll reads what fd has now.
func readAll(t *testing.T, fd int) string {
	t.Helper()
	var got []byte
	buf := make([]byte, 1<<16)
	for {
		n, err := unix.Read(fd, buf)
		if n <= 0 || err != nil {
			return string(got)
		}
		got = append(got, buf[:n]...)
	}
}

// submitOne submits and returns the one sent event it reports, failing otherwise.
func submitOne(t *testing.T, p *poller.Poller, fd int, tag uint32) (int, error) {
	t.Helper()
	if !p.SendQueued() {
		t.Fatal("SendQueued is false after Send")
	}
	evs, err := p.Submit()
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || !evs[0].Sent() || evs[0].Fd != int32(fd) || evs[0].Tag != tag {
		t.Fatalf("Submit reported %+v, want one sent event for fd %d, tag %d", evs, fd, tag)
	}
	if p.SendQueued() {
		t.Fatal("SendQueued is true after Submit")
	}
	return p.SendResult(&evs[0])
}

func TestSend(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	if !p.CanSend() {
		if err := p.Send(0, [][]byte{[]byte("x")}, 0); err == nil {
			t.Fatal("Send succeeded where CanSend is false")
		}
		t.Skipf("the %v backend does not write for its caller", p.Backend())
	}
	a, b := f.socketpair()
	// One buffer (SEND), then several (SENDMSG); a socket with room completes them inside
	// the submission.
	if err := p.Send(a, [][]byte{[]byte("hello")}, 3); err != nil {
		t.Fatal(err)
	}
	if err := p.Send(a, [][]byte{[]byte("again")}, 3); err == nil {
		t.Fatal("a second Send while one is in flight succeeded")
	}
	if n, err := submitOne(t, p, a, 3); n != 5 || err != nil {
		t.Fatalf("send: %d, %v; want 5", n, err)
	}
	if err := p.Send(a, [][]byte{[]byte(", "), nil, []byte("world")}, 4); err != nil {
		t.Fatal(err)
	}
	if n, err := submitOne(t, p, a, 4); n != 7 || err != nil {
		t.Fatalf("sendmsg: %d, %v; want 7", n, err)
	}
	if got := readAll(t, b); got != "hello, world" {
		t.Fatalf("read %q", got)
	}
	// Other completions that Submit finds wait for the next Wait, in order.
	if err := p.Add(b, poller.Writable, 9); err != nil {
		t.Fatal(err)
	}
	wantOne(t, p, poller.Event{Fd: int32(b), Tag: 9, Events: poller.Writable})
	if err := p.Send(a, [][]byte{[]byte("x")}, 5); err != nil {
		t.Fatal(err)
	}
	if n, err := submitOne(t, p, a, 5); n != 1 || err != nil {
		t.Fatalf("send: %d, %v", n, err)
	}
	wantOne(t, p, poller.Event{Fd: int32(b), Tag: 9, Events: poller.Writable})
	if err := p.Remove(b); err != nil {
		t.Fatal(err)
	}
	readAll(t, b)
	// The peer gone: EPIPE, no SIGPIPE.
	f.close(b)
	if err := p.Send(a, [][]byte{[]byte("x")}, 6); err != nil {
		t.Fatal(err)
	}
	if _, err := submitOne(t, p, a, 6); err != syscall.EPIPE {
		t.Fatalf("send to a closed peer: %v, want EPIPE", err)
	}
	// The poller cannot know whether the caller handled the reported completion: SendForget
	// returns it again, once.
	if _, ok, err := p.SendForget(a); !ok || err != syscall.EPIPE {
		t.Fatalf("SendForget after the report: ok=%v, %v; want EPIPE again", ok, err)
	}
	if _, ok, _ := p.SendForget(a); ok {
		t.Fatal("a second SendForget found a send")
	}
	wantNone(t, p)
}

// SendForget on a full socket cancels the send, which the kernel would otherwise hold until
// the peer reads; a send Wait reports later is one SendForget did not see.
func TestSendForget(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	if !p.CanSend() {
		t.Skipf("the %v backend does not write for its caller", p.Backend())
	}
	a, _ := f.socketpair()
	big := make([]byte, 1<<20)
	for { // fill the socket
		if _, err := unix.Write(a, big); err != nil {
			break
		}
	}
	if err := p.Send(a, [][]byte{big}, 1); err != nil {
		t.Fatal(err)
	}
	if evs, err := p.Submit(); err != nil || len(evs) != 0 {
		t.Fatalf("Submit on a full socket: %+v, %v; want nothing", evs, err)
	}
	if _, ok, err := p.SendForget(a); !ok || err != syscall.ECANCELED {
		t.Fatalf("SendForget: ok=%v, %v; want ECANCELED", ok, err)
	}
	if _, ok, _ := p.SendForget(a); ok {
		t.Fatal("a second SendForget found a send")
	}
	// Queued and never submitted: SendForget submits it first (it completes there).
	_, c := f.socketpair()
	if err := p.Send(c, [][]byte{[]byte("late")}, 2); err != nil {
		t.Fatal(err)
	}
	if n, ok, err := p.SendForget(c); !ok || n != 4 || err != nil {
		t.Fatalf("SendForget of a queued send: %d, ok=%v, %v; want 4", n, ok, err)
	}
	wantNone(t, p)
}

// A file request's completion that Submit finds is stashed, not lost: the next Wait hands
// it to FileDone; and one still stashed at Close is released without waiting for it.
func TestSendStashesFileCompletions(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	if !p.CanSend() || !p.CanFile(poller.FileRead) {
		t.Skipf("the %v backend does not send or read files for its caller", p.Backend())
	}
	file, err := os.CreateTemp(t.TempDir(), "stash")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if _, err := file.WriteString("0123456789"); err != nil {
		t.Fatal(err)
	}
	a, b := f.socketpair()
	for round := range 2 {
		req := &poller.FileReq{Op: poller.FileRead, Fd: int(file.Fd()), Buf: make([]byte, 4), Off: 3}
		if err := p.SubmitFile(req); err != nil {
			t.Fatal(err)
		}
		if err := p.Send(a, [][]byte{[]byte("x")}, 1); err != nil {
			t.Fatal(err)
		}
		if n, err := submitOne(t, p, a, 1); n != 1 || err != nil {
			t.Fatalf("send: %d, %v", n, err)
		}
		readAll(t, b)
		if round == 1 {
			break // Close (the cleanup) releases what is stashed
		}
		for p.FileDone() == nil {
			wait(t, p, soon)
		}
		if req.Res != 4 || string(req.Buf) != "3456" {
			t.Fatalf("file read after the stash: %d %q", req.Res, req.Buf)
		}
	}
}

// Forgetting two blocked sends one after the other, the second's completion having come
// meanwhile: the first's wait stashes it, and the second's SendForget finds it there at once
// (it used to miss it, cancel a finished send and wait for it in vain).
func TestSendForgetFindsStashedCompletion(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	if !p.CanSend() {
		t.Skipf("the %v backend does not write for its caller", p.Backend())
	}
	big := make([]byte, 1<<20)
	fill := func(fd int) {
		for {
			if _, err := unix.Write(fd, big); err != nil {
				return
			}
		}
	}
	a, _ := f.socketpair()
	b, bPeer := f.socketpair()
	fill(a)
	fill(b)
	if err := p.Send(a, [][]byte{big}, 1); err != nil {
		t.Fatal(err)
	}
	if err := p.Send(b, [][]byte{[]byte("tail")}, 2); err != nil {
		t.Fatal(err)
	}
	if evs, err := p.Submit(); err != nil || len(evs) != 0 {
		t.Fatalf("Submit on full sockets: %+v, %v; want nothing", evs, err)
	}
	// b's peer reads everything: b's send completes in the kernel, unreaped.
	buf := make([]byte, 1<<20)
	for {
		if _, err := unix.Read(bPeer, buf); err != nil {
			break
		}
	}
	for i := 0; i < 100; i++ { // until the completion is posted (the kernel's task work)
		time.Sleep(time.Millisecond)
	}
	if _, ok, err := p.SendForget(a); !ok || err != syscall.ECANCELED {
		t.Fatalf("SendForget(a): ok=%v, %v; want ECANCELED", ok, err)
	}
	if n, ok, err := p.SendForget(b); !ok || err != nil || n != 4 {
		t.Fatalf("SendForget(b): %d, ok=%v, %v; want its 4 bytes sent", n, ok, err)
	}
	wantNone(t, p)
}

// TestRingStateSizes holds the io_uring backend's per-fd states to their sizes: every
// connection pays them while idle (bench/uring.sh's idle row, against libuv's 270 bytes).
func TestRingStateSizes(t *testing.T) {
	poll, recv, send := poller.RingStateSizes()
	if poll > 12 || recv > 12 || send > 16 {
		t.Errorf("per-fd states: poll %d, recv %d, send %d bytes; want at most 12, 12, 16", poll, recv, send)
	}
}
