package poller_test

import (
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/uring"
	"github.com/uvgo/uvgo/poller"
)

// testThread is a poller.Thread: a goroutine locked to its thread, running what it is
// handed; calls counts the hand-offs.
type testThread struct {
	fns   chan func()
	done  chan struct{}
	on    bool // the goroutine runs a call (written by it; read by the caller around the hand-off)
	calls int
}

func newTestThread(t *testing.T) *testThread {
	th := &testThread{fns: make(chan func()), done: make(chan struct{})}
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		for f := range th.fns {
			th.on = true
			f()
			th.on = false
			th.done <- struct{}{}
		}
	}()
	t.Cleanup(func() { close(th.fns) })
	return th
}

func (th *testThread) On() bool { return th.on }

func (th *testThread) Do(f func()) {
	if th.on {
		f()
		return
	}
	th.calls++
	th.fns <- f
	<-th.done
}

// openPinned opens an io_uring Poller pinned to th (SINGLE_ISSUER, DEFER_TASKRUN), or skips
// t when the kernel does not take those flags. The caller closes it.
func openPinned(t *testing.T, th *testThread) *poller.Poller {
	t.Helper()
	var p *poller.Poller
	var err error
	th.Do(func() { p, err = poller.OpenWith(poller.BackendIOURing, poller.Options{Thread: th}) })
	if err != nil {
		t.Fatal(err)
	}
	want := uring.SetupSingleIssuer | uring.SetupDeferTaskrun
	if f := poller.RingFlags(p); f&want != want {
		p.Close()
		t.Skipf("the kernel took flags %#x, without SINGLE_ISSUER|DEFER_TASKRUN (before Linux 6.1)", f)
	}
	return p
}

// TestPinnedRing: a Poller opened with a Thread has its ring set up for that thread alone
// (SINGLE_ISSUER, DEFER_TASKRUN): the kernel refuses a system call of the ring from any other
// thread (EEXIST), and the Poller hands the calls it must make from elsewhere (a Remove
// between waits, Close) to the thread, where they succeed; its waits on the thread report
// readiness as usual.
func TestPinnedRing(t *testing.T) {
	if err := poller.Available(poller.BackendIOURing); err != nil {
		t.Skipf("io_uring is refused here: %v", err)
	}
	th := newTestThread(t)
	p := openPinned(t, th)
	runtime.LockOSThread() // another thread than th's for sure
	if err := poller.RawSubmit(p); err != unix.EEXIST {
		t.Errorf("a system call of the pinned ring from another thread: %v, want EEXIST", err)
	}
	runtime.UnlockOSThread()

	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fds[1])
	if err := p.Add(fds[0], poller.Readable, 7); err != nil {
		t.Fatal(err)
	}
	unix.Write(fds[1], []byte("x"))
	var evs []poller.Event
	th.Do(func() { evs, _, err = p.Wait(time.Second) })
	if err != nil || len(evs) != 1 || evs[0].Tag != 7 || evs[0].Events&poller.Readable == 0 {
		t.Fatalf("the wait on the thread: %v, %+v", err, evs)
	}
	// A request armed by a wait on the thread, removed between waits from here: its
	// cancellation must reach the kernel now, so that closing the fd releases the socket.
	quiet, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(quiet[1])
	if err := p.Add(quiet[0], poller.Readable, 8); err != nil {
		t.Fatal(err)
	}
	th.Do(func() { _, _, err = p.Wait(0) })
	if err != nil {
		t.Fatal(err)
	}
	before := th.calls
	if err := p.Remove(quiet[0]); err != nil {
		t.Errorf("Remove from another goroutine: %v", err)
	}
	if th.calls == before {
		t.Error("Remove made no call on the thread: its cancellation did not reach the kernel")
	}
	unix.Close(quiet[0])
	unix.SetNonblock(quiet[1], true)
	if n, err := unix.Read(quiet[1], make([]byte, 1)); n != 0 || err != nil {
		t.Errorf("the peer of the removed and closed fd reads %d, %v: want the end of the stream", n, err)
	}
	unix.Close(fds[0])
	if err := p.Close(); err != nil {
		t.Errorf("Close from another goroutine: %v", err)
	}
}
